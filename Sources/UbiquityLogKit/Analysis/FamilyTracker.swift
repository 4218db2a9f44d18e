// The seam between a run's summary and the families: the summary counts every record, keeps the
// findings and judges inputs; each family's tracker reads the records of its kinds that need more,
// gives each process group its family's verdict, and tells the family's story at the end.

/// What a tracker does with the records of one kind of its family, asked once per kind a run meets.
public enum TrackerInterest: Sendable {
    /// The summary counts them; the tracker never sees them.
    case none
    /// Every record goes to `add`.
    case every
    /// `wants` decides for each record whether it goes to `add`.
    case some
}

/// A family's tracker for one run. A class: the summary holds one for each family and calls it
/// in place, for the few records that need more than counts.
public protocol FamilyTracker: AnyObject {
    func interest(in kind: EventKind) -> TrackerInterest
    /// Whether `add` reads every record of `kind`, another family's kind, as well: what another
    /// family's record shows of its own (a mirroring set-up that succeeded is a store that
    /// loaded). Asked once per kind a run meets; false unless a tracker says otherwise.
    func reads(other kind: EventKind) -> Bool
    /// For a record of a kind of `.some` interest (`ordinal` is its kind's): whether `add` needs
    /// it. A record it does not need it may count here.
    func wants(_ record: borrowing Record, _ event: borrowing Event, ordinal: Int) -> Bool
    /// A new input begins: state of the inputs before it is closed.
    func beginInput(_ name: String)
    /// The records that follow are of process group `group` (of `input`; `process` names its
    /// process): called when the group changes, not for every record.
    func switchGroup(to group: Int, input: String, process: () -> String?)
    /// A record of the family that needs more than counts, or another family's record of a kind
    /// it `reads`. `finding` makes (once) the finding the summary keeps for it.
    func add(_ record: Record, _ event: Event, finding: () -> Finding)
    /// What the family tells of the run so far, as if it ended here (`inputs` in the order
    /// they were read): the tracker itself goes on unchanged.
    func ending(inputs: [String]) -> FamilyEnding
}

extension FamilyTracker {
    public func reads(other kind: EventKind) -> Bool { false }
}

/// A family's part at the end of a run: its story, and its verdict of each process group.
public struct FamilyEnding {
    public var story: any FamilyStory
    /// The family's verdict of a process group (naming processes in its evidence or not); nil
    /// when the group has none of its records.
    public var verdict: (_ group: Int, _ namesProcesses: Bool) -> (verdict: Verdict, evidence: [String])?
    /// The line of the last record of the family in a process group that reports a success
    /// (nil: none, or a family that does not say): what a finding excused only when it clears
    /// (`BenignFinding.Condition.cleared`) must come before.
    public var lastSuccess: (_ group: Int) -> Int?
    /// Stores of system frameworks that the family's records named in the app's processes,
    /// each with its own verdict: judged apart, never the app's (`SystemStore`).
    public var systemStores: [SystemStore]

    public init(story: any FamilyStory, verdict: @escaping (Int, Bool) -> (verdict: Verdict, evidence: [String])?,
                lastSuccess: @escaping (Int) -> Int? = { _ in nil }, systemStores: [SystemStore] = []) {
        self.story = story
        self.verdict = verdict
        self.lastSuccess = lastSuccess
        self.systemStores = systemStores
    }
}

/// A family's look at the classified records of one of its markers, in log order, before the
/// summary and the reporters see them: it may change a record's classification (a record that
/// repeats the one before it as a second copy becomes an echo). Runs on the classifying stage.
public protocol RecordReviewer: AnyObject {
    /// The marker of the records it reviews.
    var marker: Marker { get }
    /// Markers of other records it reviews too (its `interrupt` is then called also between
    /// records of its markers).
    var otherMarkers: [Marker] { get }
    func review(_ record: Record, _ classification: inout Classification)
    /// A new input begins, or a record of another marker came after one it reviewed: the
    /// records it reviews next follow nothing it has seen.
    func interrupt()
}

extension RecordReviewer {
    public var otherMarkers: [Marker] { [] }
}

/// What one family told in a run: the rows of the text and Markdown summaries, and the members
/// of its object in the JSON summary.
public protocol FamilyStory: Sendable {
    func rows(in summary: RunSummary) -> [SummaryText.Row]
    var fields: [Field] { get }
    /// Sections of the Markdown summary of its own, before the summary's table (each list at
    /// most `listing` long); lines of Markdown.
    func markdownSections(in summary: RunSummary, listing: Int) -> [String]
}

extension FamilyStory {
    public func markdownSections(in summary: RunSummary, listing: Int) -> [String] { [] }
}

/// One family's part of the summary: its records in the run and its story.
public struct FamilySummary: Sendable {
    public var id: FamilyID
    public var records: Int
    /// Its records no rule recognised.
    public var unhandled: Int
    public var story: any FamilyStory

    /// The family's object in the JSON summary.
    public var fields: [Field] { [Field("records", .int(records)), Field("unhandled", .int(unhandled))] + story.fields }
}

extension RunSummary {
    /// The story of the family whose story is of type `Story`, when the run holds its records.
    public func story<Story: FamilyStory>(_ type: Story.Type) -> Story? {
        for family in families { if let story = family.story as? Story { return story } }
        return nil
    }
}
