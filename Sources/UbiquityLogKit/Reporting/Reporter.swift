// The reporters' seam: streaming reporters write as records arrive, end-of-run reporters
// when the summary is done. Neither decides the exit status.

/// A record with what the classifier made of it, as a reporter is shown it.
/// A struct made for the call: the stages do not pass one on (the classification lies
/// beside its record in the batch, see `LogRun.Classified`), and a reporter reads it where
/// it is passed, without a copy. Not a class: one made and freed for every record shown is
/// too costly on the timeline; and not stored in the batch: copied through the stages, it
/// costs more than the allocation it would save.
public struct ClassifiedRecord: Sendable {
    public let record: Record
    public let classification: Classification
    public var event: Event { classification.event }

    public init(record: Record, classification: Classification) {
        self.record = record
        self.classification = classification
    }
}

public protocol Reporter: AnyObject {
    /// A new input begins (inputs are read one after another).
    func beginInput(_ name: String)
    func report(_ item: ClassifiedRecord)
    /// Whether the reporter reads the facts of `.message` events of `kind` (`Event.fields`):
    /// a run makes those of other kinds only where something else reads them. Asked once per
    /// kind before the run; true unless a reporter says otherwise.
    func readsFacts(of kind: EventKind) -> Bool
    /// Whether the reporter reads what only a reporter prints of events of `kind`: the
    /// attributes of dumped objects, a resolved relationship's value (`RuleMatch.readsDetails`).
    /// Asked once per kind before the run; true unless a reporter says otherwise.
    func readsDetails(of kind: EventKind) -> Bool
    /// An input could not be opened or read.
    func inputFailed(_ error: InputError)
    /// The input went quiet: write out what is buffered so a live reader sees it now.
    func flush()
    /// Whether the reporter shows a record while its writer pauses (`Revision.preview`), and
    /// again when lines came after it (`.amended`). One that does not (false unless it says
    /// otherwise) sees every record once, whole.
    var showsPreviews: Bool { get }
    /// Whether `report` reads the records at all (true unless the reporter says otherwise):
    /// one that does not (`-q`, the summary formats) is not called for each record. Asked once,
    /// when the run is made.
    var readsRecords: Bool { get }
    /// The run is over.
    func finish(_ summary: RunSummary)
}

extension Reporter {
    public func beginInput(_ name: String) {}
    public func inputFailed(_ error: InputError) {}
    public func flush() {}
    public var showsPreviews: Bool { false }
    public var readsRecords: Bool { true }
    public func readsFacts(of kind: EventKind) -> Bool { true }
    public func readsDetails(of kind: EventKind) -> Bool { true }
}

/// A reporter that can be shown a run of plain records (`RecordEntry.isPlain`, each the app's
/// line) where their entries lie, with no `Record` lent for each: on a device console nearly
/// every line is one.
protocol PlainRunReader: Reporter {
    /// Whether `reportPlain` stands for `report` of each plain record. Asked once, when the
    /// run is made.
    var readsPlainRuns: Bool { get }
    /// `report` of `count` plain records in a row, each classified as the app's line.
    func reportPlain(_ entries: UnsafePointer<RecordEntry>, count: Int)
}

extension Revision {
    /// Whether a record of this revision is shown to a reporter that shows previews
    /// (`Reporter.showsPreviews`) or not: one that does shows an amended record again; one
    /// that does not sees each record once, whole.
    /// (`showingPreviews` is asked only of a preview or a confirmed record.)
    @inline(__always)
    func isShown(showingPreviews: @autoclosure () -> Bool) -> Bool {
        switch self {
        case .whole, .amended: true
        case .preview, .amendedPreview: showingPreviews()
        case .confirmed: !showingPreviews()
        }
    }
}
