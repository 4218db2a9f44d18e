// The work a run cannot skip, whatever the design around it, timed alone (scripts/bench-floor):
// reading the lines, telling which start a record and reading their headers, and searching
// each record's message for its rule. Nothing is made that a design could do without: no
// record, event, summary or thread, and each message is gathered in one buffer used again.
// What the run costs beyond this probe is what a redesign of the rest could win; what the
// probe costs is the least any design built on these parts (this header reader, this
// catalogue, PCRE2) must spend.
//
// A development tool: this target is in neither the parselogs executable nor the UbiquityLogKit
// library; it reaches the stages' inner steps through their package-wide declarations.
import UbiquityLogKit

public final class FloorProbe {
    /// How far through the work a run goes; each stage includes those before it.
    public enum Stage: String, Sendable, CaseIterable {
        /// read(2) and the lines found in what it gave.
        case lines
        /// Which lines start a record, and their headers read (style, time, pid, texts, logging
        /// method, marker), as the record assembler reads them.
        case headers
        /// Each record's message gathered and its channel's rules searched, as the classifier
        /// does before it makes an event.
        case search
    }

    /// What a run saw, for a check that it did the work (the counts of a full run's).
    public struct Counts: Equatable, Sendable {
        public var lines = 0
        /// Records started (0 at stage `lines`).
        public var records = 0
        /// Records a rule recognises (0 before stage `search`).
        public var recognised = 0

        public init(lines: Int = 0, records: Int = 0, recognised: Int = 0) {
            self.lines = lines
            self.records = records
            self.recognised = recognised
        }
    }

    private let classifier: Classifier
    private let limits: LogRun.Limits

    public init(catalog: Catalog, limits: LogRun.Limits = LogRun.Limits()) {
        // No kind's facts are read: the search is timed, not what an event is made of.
        classifier = Classifier(catalog: catalog, readsFacts: { _ in false })
        self.limits = limits
    }

    /// Reads `source` to its end, doing the work up to `stage` for each line.
    public func run<Source: ByteSource>(_ source: inout Source, through stage: Stage) throws -> Counts {
        let reader = LineReader(limits: limits.lines)
        var counts = Counts()
        guard stage != .lines else {
            try reader.readLines(from: &source) { _ in }
            counts.lines = reader.linesRead
            return counts
        }
        let parser = HeaderParser()
        var open = OpenRecord(stage: stage, limits: limits.records)
        // Where the parser puts a header, until the open record is closed (as the assembler's does).
        var nextHeader: RecordHead?
        try reader.readLines(from: &source) { line in
            if let bodyStart = parser.parse(line.bytes, into: &nextHeader) {
                open.close(counts: &counts, classifier)
                open.header = nextHeader
                open.start(line.bytes, at: bodyStart)
                counts.records += 1
            } else if counts.records == 0 {
                // Text before any header: a record of its own, without a marker.
                open.header = nil
                open.start(line.bytes, at: 0)
                counts.records = 1
            } else {
                open.continue(line.bytes)
            }
        }
        open.close(counts: &counts, classifier)
        counts.lines = reader.linesRead
        return counts
    }

    /// The open record's message as the assembler would keep it: its first line from the body
    /// start, then each continuation line after a line feed, within the same caps. A value
    /// changed in place (local functions that change captured variables have each access
    /// checked at run time, which the probe would count as the floor's).
    private struct OpenRecord {
        let stage: Stage
        let limits: RecordAssembler.Limits
        var message = ByteBuffer()
        var header: RecordHead?
        /// The logging method's bytes, copied from the header line (the message kept starts
        /// after it): made into a String only if the search asks for it, as the classifier's is.
        var method = ByteBuffer()
        var keptLines = 0
        var keptBytes = 0
        var isOpen = false

        init(stage: Stage, limits: RecordAssembler.Limits) {
            self.stage = stage
            self.limits = limits
        }

        mutating func start(_ line: UnsafeRawBufferPointer, at bodyStart: Int) {
            message.removeAll(keepingRoomUpTo: 1 << 16)
            keptLines = 1
            keptBytes = bodyStart
            method.removeAll(keepingRoomUpTo: 1 << 12)
            if let range = header?.method.range { method.append(UnsafeRawBufferPointer(rebasing: line[range])) }
            isOpen = true
            keep(UnsafeRawBufferPointer(rebasing: line[min(bodyStart, line.count)...]))
        }

        mutating func `continue`(_ line: UnsafeRawBufferPointer) {
            guard keptLines < limits.maxLines, keptBytes < limits.maxBytes else { return }
            if stage == .search { message.append(0x0A) }
            keptLines += 1
            keptBytes += 1
            keep(line)
        }

        private mutating func keep(_ bytes: UnsafeRawBufferPointer) {
            let taken = UnsafeRawBufferPointer(rebasing: bytes.prefix(max(0, limits.maxBytes - keptBytes)))
            if stage == .search { message.append(taken) }
            keptBytes += taken.count
        }

        /// Searches the record's message for its rule.
        mutating func close(counts: inout Counts, _ classifier: Classifier) {
            guard stage == .search, isOpen else { return }
            isOpen = false
            let marker = header?.marker
            let hasMethod = header?.method.range != nil
            let method = self.method
            if message.withBytes({ classifier.recognises(UnsafeRawBufferPointer($0), marker: marker,
                                                         method: hasMethod ? method.withBytes { String(decoding: $0, as: UTF8.self) } : nil) }) {
                counts.recognised += 1
            }
        }
    }
}
