// Wires the stages for one run over several inputs:
// bytes → LineReader → RecordAssembler → Classifier → summary and reporters,
// the three parts of that chain on three threads (see RunStages).
import CByteScan

public final class LogRun {
    public struct Limits: Sendable {
        public var lines = LineReader.Limits()
        public var records = RecordAssembler.Limits()
        /// On a live input (a pipe), a record whose writer has gone quiet this long is shown
        /// without waiting for the next record to start.
        public var idleFlushMilliseconds: Int32 = 200
        /// Records read before they are handed to the classifying thread together (see
        /// `RunStages`; a batch also ends at 1 MB of text and after each read(2)).
        public var batchRecords = 512
        /// `--last` on an input whose end cannot be read first (a pipe): the most its held
        /// records may take (see `LastWindow`).
        public var lastHeldBytes = 64 << 20
        public init() {}
    }

    private let classifier: Classifier
    /// The reading stage's own classifier, which tells the assembler the app's lines that
    /// follow a record with a marker (see `OwnLineRecognizer`): made at the first input.
    private lazy var ownLines = Classifier(catalog: classifier.catalog, readsFacts: { _ in false }, readsDetails: { _ in false })
    private let reporters: [Reporter]
    /// The reporters that read records (`Reporter.readsRecords`), the ones `summarize` calls
    /// for each record. With `-q` none is: a reporter that returns at once still costs a call
    /// and a retain and release of the item for every record.
    private let recordReaders: [Reporter]
    /// `recordReaders`, when each is shown a run of plain records where their entries lie
    /// (`PlainRunReader`); nil when one must be lent each record.
    private let plainReaders: [any PlainRunReader]?
    private let reader: LineReader
    /// How lines become records; `auto` decides per input from its first line.
    public var inputFormat: InputFormat = .auto
    private var parsers: [InputFormat: HeaderParser] = [:]
    /// The markers of the catalogue's families, as the header parsers look for them.
    private let markers: MarkerTable
    private let limits: Limits
    /// Updated by the summarising stage alone, one record at a time: Swift's run-time
    /// exclusivity check on each access is left out.
    @exclusivity(unchecked) private var builder: SummaryBuilder
    /// Set when reading should stop early (the output's reader went away). Called on the
    /// thread that summarises.
    /// (Set before the run, read for every record by the summarising stage alone: Swift's
    /// run-time exclusivity check on each access, `swift_beginAccess`, is left out, as for
    /// `filter`.)
    @exclusivity(unchecked) public var shouldStop: () -> Bool = { false }
    /// Whether reading, classifying and summarising may run on threads of their own (see
    /// `RunStages`); the results are the same either way.
    public var usesThreads = true
    /// Whether every input runs on the stage threads, even a small regular file (`isSmall`)
    /// or a process held to one processor (set by `PARSELOGS_THREADS=3`, which measures and
    /// tests that path on any input).
    public var threadsAlways = false
    /// Whether plain records take their shortcuts: runs of them read in C (`takePlainRun`) and
    /// each made the app's line without a look at its record (`classifiesPlainAlone`). Off,
    /// every record takes the full path: the tests' reference for what the shortcuts make.
    var takesPlainShortcuts = true
    /// Which records the reporters see (all when nil); the summary counts every record.
    /// (Set before the run, read for every record by the summarising stage alone: unchecked,
    /// like `shouldStop`.)
    @exclusivity(unchecked) public var filter: DisplayFilter?
    /// Records before `since` or after `until` are passed over entirely (only their lines are
    /// counted). A record without a time takes the time of the record before it.
    /// (Set before the run, read for every record by the classifying stage alone: Swift's
    /// run-time exclusivity check on each access is left out, as for `processes` below.)
    @exclusivity(unchecked) public var since: LogTime?
    @exclusivity(unchecked) public var until: LogTime?
    @exclusivity(unchecked) private var lastTime: LogTime?
    /// `--since`/`--until` as written, when one needs a record to be whole (a time of day, a
    /// UTC offset; see `TimeBound`): `since` and `until` are set from them at each input's
    /// first record with a time. Before that record, a lower bound passes records over.
    @exclusivity(unchecked) public var bounds: (since: TimeBound?, until: TimeBound?)?
    @exclusivity(unchecked) private var boundsResolved = false
    /// `--last`: only records within this span before each input's latest time are read; the
    /// others are passed over like records outside `since` and `until` (see `LastWindow`).
    public var last: LastDuration?
    /// `--last` for the input being read (classifying stage; at the input's end, the caller's).
    @exclusivity(unchecked) private var lastWindow: LastWindow?
    /// `--process`: only records of these processes are read (all when empty); the others are
    /// passed over like records outside the time window. A record whose header names no
    /// process belongs to the process of the record before it.
    @exclusivity(unchecked) public var processes: Set<String> = [] {
        didSet { builder.select(processes: processes.sorted()) }
    }
    @exclusivity(unchecked) private var lastProcess: String?
    @exclusivity(unchecked) private var lastSyncProcess: String?
    /// By family, the process of its last sync record (see `SummaryBuilder.groupOf`).
    @exclusivity(unchecked) private var lastFamilyProcesses: [FamilyID: String] = [:]
    /// `--fail-on`: whether the run fails, worked out when it ends and told to every reporter.
    public var failOn = FailOn.standard
    /// The families' reviewers of classified records (see `RecordReviewer`), each with a
    /// marker it reviews (a reviewer of several markers comes once for each) and whether it
    /// reviewed the record before. Used by the classifying stage alone.
    @exclusivity(unchecked) private var reviewers: [(reviewer: any RecordReviewer, marker: Marker, reviewedLast: Bool)]
    /// Whether some reviewer may have `reviewedLast` set: `classifiedPlain` looks at them only then.
    @exclusivity(unchecked) private var someReviewedLast = false

    public init(catalog: Catalog, reporters: [Reporter], limits: Limits = Limits()) {
        // Facts are made for the kinds the summary or a reporter reads (see `Classifier.init`).
        self.classifier = Classifier(catalog: catalog, readsFacts: { kind in
            SummaryBuilder.readsFacts(of: kind, families: catalog.families) || reporters.contains { $0.readsFacts(of: kind) }
        }, readsDetails: { kind in
            SummaryBuilder.readsDetails(of: kind) || reporters.contains { $0.readsDetails(of: kind) }
        })
        self.reporters = reporters
        builder = SummaryBuilder(families: catalog.families)
        markers = MarkerTable(families: catalog.families)
        reviewers = catalog.families.compactMap { $0.makeReviewer?() }.flatMap { reviewer in
            ([reviewer.marker] + reviewer.otherMarkers).map { (reviewer, $0, false) }
        }
        recordReaders = reporters.filter(\.readsRecords)
        let plainReaders = recordReaders.compactMap { $0 as? any PlainRunReader }.filter(\.readsPlainRuns)
        self.plainReaders = plainReaders.count == recordReaders.count ? plainReaders : nil
        self.limits = limits
        self.reader = LineReader(limits: limits.lines)
    }

    /// Reads one input to its end. A read error part-way is reported and thrown; the records
    /// read before it are kept. `descriptor` is the file the bytes come from as they are (not
    /// decompressed), when there is one: with `last`, a regular file's end is read from it first.
    public func process<Source: ByteSource>(_ source: inout Source, name: String, descriptor: Int32? = nil) throws {
        builder.beginInput(name)
        lastTime = nil
        boundsResolved = false
        lastProcess = nil
        lastSyncProcess = nil
        lastFamilyProcesses.removeAll()
        for index in reviewers.indices {
            reviewers[index].reviewer.interrupt()
            reviewers[index].reviewedLast = false
        }
        for reporter in reporters { reporter.beginInput(name) }
        var format: InputFormat? = inputFormat == .auto ? nil : inputFormat
        let parser = headerParser(for: inputFormat)
        lastWindow = last.map { span in
            let end = descriptor.flatMap { InputEnd.latestTime(descriptor: $0, format: inputFormat, parser: parser, limits: limits.lines) }
            return LastWindow(span: span, mode: end.map { .end($0) } ?? .holding, maxHeldBytes: limits.lastHeldBytes)
        }
        let assembler = RecordAssembler(input: name, parser: parser, limits: limits.records, ownLines: ownLines)
        let events = NDJSONRecords(input: name, parser: parser, maxBytes: limits.records.maxBytes)
        let threads = usesThreads && (threadsAlways || (LogRun.processors > 1 && !LogRun.isSmall(descriptor)))
        let stages = RunStages(run: self, input: name, threads: threads, batchRecords: limits.batchRecords)
        var failure: InputError?
        var encoding: TextEncoding?
        do {
            let idle = LineReader.IdlePolicy(milliseconds: limits.idleFlushMilliseconds) {
                // Shown, not closed: a continuation line the writer sends later still joins it.
                if let pending = assembler.preview() { stages.send(pending) }
                stages.flushReporters()
            }
            // Held records (`--last` on a pipe) are shown at the input's end, not as previews.
            let holds = if case .holding? = lastWindow?.mode { true } else { false }
            // Runs of plain records of one line are read in C and go into the batch as the
            // entries the assembler would make of them (see `RunStages.takePlainRun`).
            // (The prefilter's tables are asked for at the first run, as the assembler asks.)
            var rules = cbytescan_plain_rules(prefilter: nil, allowed_styles: parser.allowedStyleBits,
                                              max_line: min(limits.lines.maxLineLength, limits.records.maxBytes),
                                              marker_window: LooseMarkers.window)
            var noPrefilter = false
            let ownLines = ownLines
            try reader.readLines(from: &source, idle: holds ? nil : idle, chunkEnd: stages.passOn, takesRuns: takesPlainShortcuts, runs: { bytes, chunk, number in
                // The first line tells the input's format, and a byte order mark is dropped.
                guard number > 1, let known = format, known != .ndjson, !noPrefilter else { return (0, 0) }
                if rules.prefilter == nil {
                    rules.prefilter = ownLines.prefilterTables
                    // Without the prefilter every message may match a rule: no line is plain.
                    guard rules.prefilter != nil else {
                        noPrefilter = true
                        return (0, 0)
                    }
                }
                let taken = withUnsafePointer(to: &rules) { rules in
                    stages.takePlainRun(bytes, chunk: chunk, firstLine: number, rules: rules) {
                        stages.pass(assembler.close(), of: assembler)
                    }
                }
                if stages.stopped || Interruption.requested { throw Stopped() }
                return taken
            }) { read in
                // A UTF-8 byte order mark before the first line is no part of it (its header
                // would not be found); UTF-16 is told at its first line, and said after the end.
                var line = read
                if read.number == 1 {
                    encoding = TextEncoding(firstLine: read.bytes)
                    if encoding == .utf8WithMark { line = read.droppingFirst(3) }
                }
                if format == nil { format = InputFormat.detect(firstLine: line) }
                if format == .ndjson {
                    stages.send(events.record(line))
                } else {
                    switch assembler.appendLine(line) {
                    case nil: return
                    case .entry?: stages.sendClosedEntry(of: assembler)
                    case .object(let record)?: stages.send(record)
                    }
                }
                if stages.stopped || Interruption.requested { throw Stopped() }
            }
        } catch is Stopped {
        } catch let error as InputError {
            failure = error
        } catch {
            stages.finish()  // no thread is left waiting on its queue
            throw error
        }
        stages.pass(assembler.close(), of: assembler)
        stages.finish()
        if let lastWindow {
            for (record, time) in lastWindow.endHolding() where !shouldStop() {
                lastTime = time
                throughStages(record)
            }
            builder.countOutsideWindow(lastWindow.letGo)
            if lastWindow.overflowed, failure == nil {
                let limit = limits.lastHeldBytes >= 1 << 20 ? "\(limits.lastHeldBytes >> 20) MiB" : "\(limits.lastHeldBytes) bytes"
                failure = InputError(input: name, reason: "--last \(lastWindow.span.text): its records within \(lastWindow.span.text) of each other take more than \(limit), the most --last holds of an input read once (a pipe, a compressed file); its records were passed over. Save it uncompressed to a file, whose end is read first, or give --since")
            }
        }
        builder.countLines(reader.linesRead)
        if failure == nil, let utf16 = encoding?.utf16Description {
            // Read as it is (each line counted), but its text is not what parselogs reads.
            failure = InputError(input: name, reason: "it is \(utf16) text, which parselogs does not read; convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)")
        }
        if let failure {
            failed(failure)
            throw failure
        }
    }

    /// The processors this process may run on (`cbytescan_usable_processors`). Held to one,
    /// the stage threads would take turns on it: every batch's hand-off would switch threads
    /// and each stage would find the processor's caches holding another's data, where the
    /// caller's thread takes a batch through the stages one after another.
    static let processors = Int(cbytescan_usable_processors())

    /// A regular file of fewer bytes than this is read on the caller's thread. Its records fill
    /// a batch or two, which the stage threads would take one after another, with no overlap to
    /// gain and a thread's wake-up at each handoff and at the input's end: one run over 1,000
    /// files of 5 KB switched threads some 9,000 times (docs/performance.md).
    static let smallInputBytes = 256 << 10

    /// Whether `descriptor` reads a regular file below `smallInputBytes`.
    static func isSmall(_ descriptor: Int32?) -> Bool {
        guard let size = descriptor.flatMap(InputEnd.regularFileSize) else { return false }
        return size < smallInputBytes
    }

    /// Records an input that could not be opened.
    public func failed(_ error: InputError) {
        builder.inputFailed(error)
        for reporter in reporters { reporter.inputFailed(error) }
    }

    /// Ends the run: the summary goes to every reporter and is returned.
    @discardableResult
    public func finish() -> RunSummary {
        var summary = builder.summary
        if let last { summary.timeWindow = "--last \(last.text)" }
        summary.outcome = failOn.outcome(of: summary, catalog: classifier.catalog)
        for reporter in reporters { reporter.finish(summary) }
        return summary
    }

    /// What the classifying stage hands on for a record (kept beside it in its batch): its
    /// class, or that it is passed over (counted, unless it is a preview: it comes again).
    /// Not a `ClassifiedRecord` object: one allocated, handed on and freed for every record is
    /// too costly; a reporter gets one made only when it is shown one.
    enum Classified {
        case record(Classification)
        case outsideWindow
        /// Held by `--last` until the input's end, when it comes again (not counted now).
        case held
        /// From a process `--process` did not name.
        case otherProcess
    }

    /// The classifying stage: the record's class, unless it lies outside the time window or
    /// comes from a process `--process` did not name.
    func classified(_ record: Record) -> Classified {
        if let lastWindow {
            if let time = record.time { lastTime = time }
            switch lastWindow.judge(record, time: lastTime) {
            case .inside: break
            case .outside: return .outsideWindow
            case .held: return .held
            }
        }
        if let bounds, !boundsResolved {
            if let time = record.time {
                (since, until) = (bounds.since?.resolved(at: time), bounds.until?.resolved(at: time))
                boundsResolved = true
            } else if bounds.since != nil {
                return .outsideWindow
            }
        }
        if since != nil || until != nil {
            if let time = record.time { lastTime = time }
            if !isInWindow(lastTime) { return .outsideWindow }
        }
        var classification = classifier.classify(record)
        for index in reviewers.indices {
            if record.marker == reviewers[index].marker {
                reviewers[index].reviewer.review(record, &classification)
                reviewers[index].reviewedLast = true
                someReviewedLast = true
            } else if reviewers[index].reviewedLast {
                reviewers[index].reviewer.interrupt()
                reviewers[index].reviewedLast = false
            }
        }
        if !processes.isEmpty {
            // The summary's rule for a record without a process (`SummaryBuilder.groupOf`): the
            // process of the last sync record of its marker's family, else of the last sync
            // record, else of the record before it.
            let isSync: Bool
            if case .app = classification.event { isSync = false } else { isSync = true }
            let owner: String?
            let family = record.marker.flatMap { marker in
                classifier.catalog.families.first { $0.markers.contains { $0.marker == marker } || $0.channels.contains { $0.marker == marker } }?.id
            }
            if let process = record.string(.process) {
                lastProcess = process
                if isSync {
                    lastSyncProcess = process
                    lastFamilyProcesses[family ?? classification.event.kind.family] = process
                }
                owner = process
            } else {
                owner = family.flatMap { lastFamilyProcesses[$0] } ?? lastSyncProcess ?? lastProcess
            }
            guard let owner, processes.contains(owner) else { return .otherProcess }
        }
        return .record(classification)
    }

    /// Whether `classifiedPlain` stands for `classified` of a plain record (`RecordEntry.isPlain`):
    /// with no time window and no `--process`, which read each record's time and process.
    var classifiesPlainAlone: Bool {
        takesPlainShortcuts && lastWindow == nil && bounds == nil && since == nil && until == nil && processes.isEmpty
    }

    /// `classified` of a plain record (see `classifiesPlainAlone`): the classifier makes it the
    /// app's line, and the reviewers see a record of no marker, which interrupts one that
    /// reviewed the record before.
    func classifiedPlain() -> Classified {
        if someReviewedLast {
            someReviewedLast = false
            for index in reviewers.indices where reviewers[index].reviewedLast {
                reviewers[index].reviewer.interrupt()
                reviewers[index].reviewedLast = false
            }
        }
        return .record(Classification(event: .app))
    }

    /// Whether the summarising stage takes a run of plain records the classifier took by the
    /// shortcut (`classifiesPlainAlone`) where their entries lie (`summarizePlain`): when the
    /// reporters that read records are shown them there (`plainReaders`; none with `-q`), or
    /// the filter shows no app's line.
    var countsPlainAlone: Bool {
        guard classifiesPlainAlone else { return false }
        guard let filter else { return plainReaders != nil }
        switch filter.showsAppLines {
        case false?: return true
        case true?: return plainReaders != nil
        case nil: return false
        }
    }

    /// `summarize` of `count` plain records in a row (see `countsPlainAlone`), which the
    /// classifier made the app's lines: counted, and shown to the reporters where their
    /// entries lie.
    func summarizePlain(_ entries: UnsafePointer<RecordEntry>, count: Int) {
        builder.countPlain(entries, count: count)
        guard let plainReaders, !plainReaders.isEmpty, filter?.showsAppLines ?? true else { return }
        for reader in plainReaders { reader.reportPlain(entries, count: count) }
    }

    /// The stages of a record at once, on the caller's thread (a record `--last` held to the
    /// input's end): it is classified, then summarised.
    func throughStages(_ record: Record) {
        let classified = classified(record)
        summarize(record, classified)
    }

    /// The summarising stage: the summary counts the record, reporters show it. (Whether the
    /// run should stop, `shouldStop`, is asked by the stage once a batch: see `RunStages`.)
    /// `classified` is borrowed (bound to a local of its own, its record would be retained and
    /// released for every record), and the headline's closure reads it through
    /// a pointer: a classification copied (into a binding, a closure's context) retains and
    /// releases the event's payload and the rule, where an event is copied by a switch over
    /// all its cases.
    func summarize(_ record: Record, _ classified: borrowing Classified) {
        let revision = record.revision
        switch classified {
        case .record(let classification):
            // `add`, its two steps apart: the headline's closure is made only for a record the
            // trackers read (see `SummaryBuilder.count`).
            if !revision.isPreview, let tracked = builder.count(record, classification.event) {
                withUnsafePointer(to: classification) { lent in
                    builder.track(record, classification.event, tracked,
                                  message: { Headline.of(ClassifiedRecord(record: record, classification: lent.pointee)) })
                }
            }
            guard filter != nil || !recordReaders.isEmpty else { return }
            report(ClassifiedRecord(record: record, classification: classification))
        case .outsideWindow:
            if !revision.isPreview { builder.countOutsideWindow() }
        case .otherProcess:
            if !revision.isPreview { builder.countOtherProcess() }
        case .held:
            break
        }
    }

    /// Shows `item` to the reporters that read records, if the filter lets it through.
    private func report(_ item: ClassifiedRecord) {
        guard filter?.shows(item) ?? true else { return }
        let revision = item.record.revision
        for reporter in recordReaders where revision.isShown(showingPreviews: reporter.showsPreviews) {
            reporter.report(item)
        }
    }

    func flushReporters() {
        for reporter in reporters { reporter.flush() }
    }

    private func headerParser(for format: InputFormat) -> HeaderParser {
        if let parser = parsers[format] { return parser }
        let parser = HeaderParser(styles: format.headerStyles, markers: markers)
        parsers[format] = parser
        return parser
    }

    private func isInWindow(_ time: LogTime?) -> Bool {
        guard let time else { return since == nil }  // before any time: only without a lower bound
        guard time.year == nil else { return LogRun.isInWindow(time, since: since, until: until) }
        return LogRun.isInWindow(yearless: time, since: since, until: until)
    }

    static func isInWindow(_ time: LogTime, since: LogTime?, until: LogTime?) -> Bool {
        let year = time.year ?? 2000
        if let since, time.microseconds(assumingYear: year) < since.microsecondsSinceEpoch { return false }
        if let until, time.microseconds(assumingYear: year) > until.microsecondsSinceEpoch { return false }
        return true
    }

    /// A header without a year (syslog) is in the window when it is in some year the window
    /// spans: `Dec 31 23:55` and `Jan  1 00:05` are both in a window across New Year. A window
    /// of more than eight years holds every day of the year (29 February too).
    static func isInWindow(yearless time: LogTime, since: LogTime?, until: LogTime?) -> Bool {
        let first = since?.year ?? until?.year ?? 2000
        let last = until?.year ?? since?.year ?? 2000
        if last - first > 8 { return true }
        var dated = time
        for year in first...max(first, last) {
            dated.year = year
            // 29 February of a year that has none is no day of that year.
            if dated.isValid, isInWindow(dated, since: since, until: until) { return true }
        }
        return false
    }

    private struct Stopped: Error {}
}
