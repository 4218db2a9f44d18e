// Groups lines into records: a line that starts a record closes the one before it; every
// other line continues the open record. A record's size is capped so memory stays bounded.

public final class RecordAssembler {
    public struct Limits: Sendable {
        /// Lines kept per record; later lines are counted, not kept.
        public var maxLines: Int
        /// Bytes kept per record.
        public var maxBytes: Int

        public init(maxLines: Int = 20_000, maxBytes: Int = 4 << 20) {
            self.maxLines = max(1, maxLines)
            self.maxBytes = max(1, maxBytes)
        }
    }

    public let input: String
    public let limits: Limits
    private let parser: HeaderParser

    // Only the reader's thread uses an assembler, and no access to these overlaps another:
    // the run-time exclusivity check Swift makes on each access to a class's property cost
    // more than the work on short lines.
    /// The open record's text, gathered in one buffer that is kept from record to record;
    /// a record gets an exact copy (one allocation, where growing an array per record took
    /// two or three).
    @exclusivity(unchecked) private var text = ByteBuffer()
    @exclusivity(unchecked) private var header: Header?
    /// Where the parser puts the header of a line that starts a record, swapped into `header`
    /// once the open record is closed (a swap moves; an assignment copied the header's texts).
    @exclusivity(unchecked) private var nextHeader: Header?
    private var bodyStart = 0
    private var firstLine = 0
    private var lineCount = 0
    private var keptLines = 0
    private var truncated = false
    /// How many lines the open record had when a preview of it was last made; nil when none was.
    private var previewedLines: Int?

    public init(input: String, parser: HeaderParser = HeaderParser(), limits: Limits = Limits()) {
        self.input = input
        self.parser = parser
        self.limits = limits
    }

    /// Adds one line. Returns the record this line closed, if it starts a new one.
    public func append(_ line: Line) -> Record? {
        if let start = parser.parse(line.bytes, into: &nextHeader) {
            let closed = finish()
            swap(&header, &nextHeader)
            open(line, bodyStart: start)
            return closed
        }
        if lineCount == 0 {
            // Text before any header (or a log with none): a record of its own.
            header = nil
            open(line, bodyStart: 0)
            return nil
        }
        lineCount += 1
        truncated = truncated || line.isTruncated
        guard keptLines < limits.maxLines, text.count < limits.maxBytes else {
            truncated = true
            return nil
        }
        text.append(0x0A)
        keep(line.bytes)
        keptLines += 1
        return nil
    }

    /// Closes and returns the open record, if any (at the end of an input).
    public func finish() -> Record? {
        guard lineCount > 0 else { return nil }
        let revision: Revision
        switch previewedLines {
        case nil: revision = .whole
        case lineCount?: revision = .confirmed
        default: revision = .amended
        }
        previewedLines = nil
        // The header moves into the record (take): a copy retained and released each of its strings.
        let record = Record(input: input, firstLine: firstLine, lineCount: lineCount, text: text.array,
                            header: header.take(), bodyStart: bodyStart, isTruncated: truncated, revision: revision)
        // A huge record's room is given back rather than kept for ordinary ones.
        text.removeAll(keepingRoomUpTo: 1 << 16)
        lineCount = 0
        return record
    }

    /// The open record as it stands, left open: on a live pipe whose writer paused, the record
    /// is shown now, and lines that come later still join it (`finish` then says whether they
    /// did). Nil when there is no open record, or nothing new since the last preview.
    public func preview() -> Record? {
        guard lineCount > 0, previewedLines != lineCount else { return nil }
        let revision: Revision = previewedLines == nil ? .preview : .amendedPreview
        previewedLines = lineCount
        return Record(input: input, firstLine: firstLine, lineCount: lineCount, text: text.array,
                      header: header, bodyStart: bodyStart, isTruncated: truncated, revision: revision)
    }

    private func open(_ line: Line, bodyStart: Int) {
        self.bodyStart = bodyStart
        firstLine = line.number
        lineCount = 1
        keptLines = 1
        truncated = line.isTruncated
        keep(line.bytes)
    }

    private func keep(_ bytes: UnsafeRawBufferPointer) {
        let room = limits.maxBytes - text.count
        if bytes.count > room {
            truncated = true
            text.append(UnsafeRawBufferPointer(rebasing: bytes.prefix(max(0, room))))
        } else {
            text.append(bytes)
        }
    }
}
