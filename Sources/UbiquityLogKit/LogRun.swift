// Wires the stages for one run over several inputs:
// bytes → LineReader → RecordAssembler → Classifier → summary and reporters.

public final class LogRun {
    public struct Limits: Sendable {
        public var lines = LineReader.Limits()
        public var records = RecordAssembler.Limits()
        /// On a live input (a pipe), a record whose writer has gone quiet this long is shown
        /// without waiting for the next record to start.
        public var idleFlushMilliseconds: Int32 = 200
        public init() {}
    }

    private let classifier: Classifier
    private let reporters: [Reporter]
    private let reader: LineReader
    /// How lines become records; `auto` decides per input from its first line.
    public var inputFormat: InputFormat = .auto
    private var parsers: [InputFormat: HeaderParser] = [:]
    private let limits: Limits
    private var builder = SummaryBuilder()
    /// Set when reading should stop early (the output's reader went away).
    public var shouldStop: () -> Bool = { false }
    /// Which records the reporters see (all when nil); the summary counts every record.
    public var filter: DisplayFilter?
    /// Records before `since` or after `until` are passed over entirely (only their lines are
    /// counted). A record without a time takes the time of the record before it.
    public var since: LogTime?
    public var until: LogTime?
    private var lastTime: LogTime?

    public init(catalog: Catalog, reporters: [Reporter], limits: Limits = Limits()) {
        self.classifier = Classifier(catalog: catalog)
        self.reporters = reporters
        self.limits = limits
        self.reader = LineReader(limits: limits.lines)
    }

    /// Reads one input to its end. A read error part-way is reported and thrown; the records
    /// read before it are kept.
    public func process<Source: ByteSource>(_ source: inout Source, name: String) throws {
        builder.beginInput(name)
        lastTime = nil
        for reporter in reporters { reporter.beginInput(name) }
        var format: InputFormat? = inputFormat == .auto ? nil : inputFormat
        let parser = headerParser(for: inputFormat)
        let assembler = RecordAssembler(input: name, parser: parser, limits: limits.records)
        let events = NDJSONRecords(input: name, parser: parser)
        defer {
            if let last = assembler.finish() { handle(last) }
            builder.countLines(reader.linesRead)
        }
        do {
            let idle = LineReader.IdlePolicy(milliseconds: limits.idleFlushMilliseconds) { [self] in
                if let pending = assembler.finish() { handle(pending) }
                for reporter in reporters { reporter.flush() }
            }
            try reader.readLines(from: &source, idle: idle) { line in
                if format == nil { format = InputFormat.detect(firstLine: line.bytes) }
                let record = format == .ndjson ? events.record(line) : assembler.append(line)
                if let record {
                    handle(record)
                    if shouldStop() || Interruption.requested { throw Stopped() }
                }
            }
        } catch is Stopped {
            return
        } catch let error as InputError {
            failed(error)
            throw error
        }
    }

    /// Records an input that could not be opened.
    public func failed(_ error: InputError) {
        builder.inputFailed(error)
        for reporter in reporters { reporter.inputFailed(error) }
    }

    /// Ends the run: the summary goes to every reporter and is returned.
    @discardableResult
    public func finish() -> RunSummary {
        let summary = builder.summary
        for reporter in reporters { reporter.finish(summary) }
        return summary
    }

    private func handle(_ record: Record) {
        if since != nil || until != nil {
            if let time = record.header?.time { lastTime = time }
            if !isInWindow(lastTime) {
                builder.countOutsideWindow()
                return
            }
        }
        let item = ClassifiedRecord(record: record, classification: classifier.classify(record))
        builder.add(record, item.event, message: Headline.of(item))
        if let filter, !filter.shows(item) { return }
        for reporter in reporters { reporter.report(item) }
    }

    private func headerParser(for format: InputFormat) -> HeaderParser {
        if let parser = parsers[format] { return parser }
        let parser = HeaderParser(styles: format.headerStyles)
        parsers[format] = parser
        return parser
    }

    private func isInWindow(_ time: LogTime?) -> Bool {
        guard let time else { return since == nil }  // before any time: only without a lower bound
        // A header without a year (syslog) is read in the bound's year.
        if let since, time.microseconds(assumingYear: since.year ?? 2000) < since.microsecondsSinceEpoch { return false }
        if let until, time.microseconds(assumingYear: until.year ?? 2000) > until.microsecondsSinceEpoch { return false }
        return true
    }

    private struct Stopped: Error {}
}
