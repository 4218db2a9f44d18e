// Groups lines into records: a line that starts a record closes the one before it; every
// other line continues the open record. A record's size is capped so memory stays bounded.
//
// A record is nearly always a range of the chunk its lines were read into (`Line.chunk`): its
// lines lie there one after another, a newline between each, so continuing it moves its end
// and nothing is copied. The bytes are copied, into a chunk of the assembler's own, only for
// a record whose lines do not lie so: one that a chunk's end cut (about once a megabyte), one
// after a line cut at `maxLineLength`, lines made elsewhere than a `LineReader` (tests).

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
    /// What tells a line without a header that the catalogue reads as a record of its own
    /// (see `isRecordOfItsOwn`); nil: every such line continues the open record.
    private let ownLines: (any OwnLineRecognizer)?
    /// `ownLines`, which keeps it alive, read without a retain for each record (`isPlain`).
    private unowned(unsafe) let ownLinesUnretained: (any OwnLineRecognizer)?
    /// How far into the open record `depth` has been read, and how many brackets are open
    /// there (see `isRecordOfItsOwn`): read only when a line asks, so a record whose lines
    /// no rule may recognise is never read.
    private var depthRead = 0
    private var depth = 0

    // Only the reader's thread uses an assembler, and no access to these overlaps another:
    // the run-time exclusivity check Swift makes on each access to a class's property costs
    // more than the work on short lines.
    /// The assembler's own chunks, for the records it copies: each record's bytes follow the
    /// one before, and a record is handed out as a range of the chunk (see `RecordText`).
    @exclusivity(unchecked) private var chunks = TextChunks()
    /// The own chunk copies are written into, once one is needed.
    @exclusivity(unchecked) private var own: TextChunk?
    /// The chunk the open record lies in, from `openStart` to `openEnd`: a reader's chunk, or
    /// `own` (then `openEnd` is its `used`, and lines are copied after it).
    @exclusivity(unchecked) private var chunk: TextChunk
    private var isCopied = false
    /// The chunk of the last record closed as an entry, kept alive until the entry is handed on.
    @exclusivity(unchecked) private var closedChunk: TextChunk
    private var openStart = 0
    private var openEnd = 0
    @exclusivity(unchecked) private var header: RecordHead?
    /// Where the parser puts the header of a line that starts a record, until the open record
    /// is closed.
    @exclusivity(unchecked) private var nextHeader: RecordHead?
    /// The open record's header texts as Strings, when its text was cut shorter than its header
    /// line (see `open`); nil otherwise, nearly always.
    private var givenTexts: HeaderTexts?
    private var bodyStart = 0
    private var firstLine = 0
    private var lineCount = 0
    private var keptLines = 0
    private var truncated = false
    /// How many lines the open record had when a preview of it was last made; nil when none was.
    private var previewedLines: Int?

    public init(input: String, parser: HeaderParser = HeaderParser(), limits: Limits = Limits(),
                ownLines: (any OwnLineRecognizer)? = nil) {
        self.input = input
        self.parser = parser
        self.limits = limits
        self.ownLines = ownLines
        ownLinesUnretained = ownLines
        chunk = TextChunk(capacity: 1)
        closedChunk = chunk
        closedEntry = RecordEntry(chunk: chunk)
    }

    /// Bytes the open record holds so far.
    private var openCount: Int { openEnd - openStart }

    /// A record the assembler closed: as an entry (nearly always), or as an object when its
    /// header's texts are given rather than read from its text (see `open`).
    enum Closed {
        /// The record is `closedEntry`.
        case entry
        case object(Record)
    }

    /// The record the last `appendLine` or `close` closed as `.entry`, until the next call.
    /// Kept here and read in place: an entry returned as a value is copied whole at each step.
    @exclusivity(unchecked) var closedEntry: RecordEntry

    /// Adds one line. Returns the record this line closed, if it starts a new one.
    public func append(_ line: Line) -> Record? { appendLine(line).map(object) }

    /// Closes and returns the open record, if any (at the end of an input).
    public func finish() -> Record? { close().map(object) }

    /// `closed` as an object of its own.
    private func object(_ closed: Closed) -> Record {
        switch closed {
        case .entry: withUnsafePointer(to: &closedEntry) { Record(input: input, $0) }
        case .object(let record): record
        }
    }

    /// Adds one line. Returns the record this line closed, if it starts a new one; an entry's
    /// bytes stay alive until the next call (`closedChunk`).
    func appendLine(_ line: Line) -> Closed? {
        if let start = parser.parse(line.bytes, into: &nextHeader) {
            if let next = nextHeader, continuesWrapped(by: next) { return wrap(line, next, bodyStart: start) }
            let closed = close()
            header = nextHeader
            open(line, bodyStart: start)
            return closed
        }
        if lineCount == 0 {
            // Text before any header (or a log with none): a record of its own.
            header = nil
            open(line, bodyStart: 0)
            return nil
        }
        if let ownLines, isRecordOfItsOwn(line, ownLines) {
            let closed = close()
            header = nil
            open(line, bodyStart: 0)
            return closed
        }
        return continueRecord(line)
    }

    /// Whether `line`, without a header, is a record of its own rather than the open record's
    /// next line: a line the app printed there (an Xcode console paste mixes Core Data's
    /// records with the app's `print` lines, none with a header) that the channels for lines
    /// without a marker recognise, say a CKError. The record's own lines stay: an indented
    /// line (`    - Underlying: …` under UbiquityStoreManager's error) or one that closes a
    /// bracket (`}>`), its text when the lines before gave none yet (a header or a method
    /// alone), a line inside a bracket the record left open (a dictionary, an array, a
    /// description: `partial errors: {`, `userInfo {`), a line after one that ends with a
    /// colon (`… in response to activity:` and the value), the line after an object's
    /// description alone, and a value right after the text's first line, an indented line or
    /// a value: Core
    /// Data's `Failed to set up CloudKit integration for store: %@\n%@` prints its error there
    /// (`<CKError 0x…: …>`, `Error Domain=…`, `(null)`), and `Modify records finished:
    /// %@\n%@\n%@` its three values one after another.
    private func isRecordOfItsOwn(_ line: Line, _ ownLines: some OwnLineRecognizer) -> Bool {
        // The record's structure where it costs a byte or two first (most lines a record
        // continues with are indented or close a bracket), then the rules' quick test, then
        // what walks back over the record; the walk to the last line's start only once.
        guard let first = line.bytes.first, !Self.continues(first), !truncated, keptLines < limits.maxLines else { return false }
        let text = UnsafeBufferPointer(start: UnsafePointer(chunk.base + openStart), count: openCount)
        var textStart = min(bodyStart, text.count)
        while textStart < text.count, Self.isBlank(text[textStart]) { textStart += 1 }
        guard textStart < text.count else { return false }
        var last = text.count - 1
        while last > textStart, Self.isBlank(text[last]) { last -= 1 }
        if text[last] == UInt8(ascii: ":") { return false }
        func lastLineStart() -> Int {
            var start = last
            while start > textStart, text[start - 1] != 0x0A { start -= 1 }
            return start
        }
        var lastLine: Int?
        // A value after the text's first line, after a value (or a value's last line), or
        // after an indented line (`\tstoreName: …` and then the error).
        if Self.startsWithValue(line.bytes) {
            let start = lastLineStart()
            lastLine = start
            if start == textStart || Self.continues(text[start])
                || Self.startsWithValue(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: text[start...])), orEnd: true) { return false }
        }
        guard ownLines.mayRecognise(line.bytes) else { return false }
        // An object's description alone (`<PFUbiquitySetupAssistant: 0x…>`) is no text yet: the
        // ubiquity family's records print their words on the line after it.
        if (lastLine ?? lastLineStart()) == textStart,
           Self.isDescriptionAlone(UnsafeBufferPointer(rebasing: text[textStart...last])) { return false }
        if depthRead < textStart {
            depthRead = textStart
            depth = 0
        }
        if depthRead < text.count {
            depth = Self.depth(after: UnsafeBufferPointer(rebasing: text[depthRead...]), from: depth)
            depthRead = text.count
        }
        return depth == 0 && ownLines.recognises(line.bytes)
    }

    /// Whether a line that starts with `byte` continues the record before it, whatever follows:
    /// an indented line, or one that closes a bracket.
    private static func continues(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, UInt8(ascii: ")"), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ">"): true
        default: false
        }
    }

    /// Whether `text` is one object's description and nothing else: `<` first, and the `>`
    /// that closes it last (`<A: 0x1>` is; `<A: 0x1>: Observed context save: <B: 0x2>` is not).
    static func isDescriptionAlone(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.first == UInt8(ascii: "<") else { return false }
        var depth = 0
        for (index, byte) in text.enumerated() {
            if byte == UInt8(ascii: "<") { depth += 1 }
            if byte == UInt8(ascii: ">") {
                depth -= 1
                if depth == 0 { return index == text.count - 1 }
            }
        }
        return false
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Whether `line` starts, past its blanks, with a value as `%@` prints one: an object's
    /// description (`<…`), a collection or `(null)` (`(`, `{`), an NSError (`Error Domain=`);
    /// `orEnd`: or with a collection's or description's end (`)`, `}`, `>`).
    static func startsWithValue(_ line: UnsafeRawBufferPointer, orEnd: Bool = false) -> Bool {
        var start = 0
        while start < line.count, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        guard start < line.count else { return false }
        switch line[start] {
        case UInt8(ascii: "<"), UInt8(ascii: "("), UInt8(ascii: "{"): return true
        case UInt8(ascii: ")"), UInt8(ascii: "}"), UInt8(ascii: ">"): return orEnd
        default: return UnsafeRawBufferPointer(rebasing: line[start...]).starts(with: "Error Domain=".utf8)
        }
    }

    /// How many brackets (`(`, `[`, `{`, `<`) are open after `bytes`, when `depth` were open
    /// before them; a closing bracket with none open is passed over. Quotes are not read: an
    /// NSError's description quotes its message unescaped, quotes and all (`"… due to error:
    /// <CKError 0x…: "Partial Failure" …; partial errors: {`), so a bracket inside quotes is
    /// counted as any other.
    static func depth(after bytes: UnsafeBufferPointer<UInt8>, from depth: Int) -> Int {
        var depth = depth
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "<"): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ">"): depth = max(0, depth - 1)
            default: break
            }
        }
        return depth
    }

    /// Whether a line that reads as a record of its own, `next`, is the rest of the open record
    /// wrapped onto the lines after its first, as Apple's technotes print records and people
    /// paste them: the open record has no text yet and no logging method, and the line is a
    /// bare one (no header: no process or clock of its own, as a condensed `log show` line
    /// has) that brings the method (`-[…](3633):` on a line of its own, or with the text after
    /// it) or, after a header alone, the marker.
    private func continuesWrapped(by next: RecordHead) -> Bool {
        guard lineCount > 0, next.style == .bare, !next.process.exists, next.clock.isEmpty,
              let open = header, !open.method.exists else { return false }
        if open.marker != nil {
            guard next.marker == nil, next.method.exists else { return false }
        } else {
            guard open.style != .bare || open.process.exists, next.marker != nil || next.method.exists else { return false }
        }
        guard bodyStart <= openCount, openCount < limits.maxBytes else { return false }
        for offset in bodyStart..<openCount {
            let byte = chunk.base[openStart + offset]
            if byte != 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { return false }
        }
        return true
    }

    /// Continues the open record with `line`, the wrapped rest of it (`continuesWrapped`): its
    /// method, source line and marker become the record's, and its text starts after them.
    private func wrap(_ line: Line, _ next: RecordHead, bodyStart start: Int) -> Closed? {
        let offset = openCount + 1
        _ = continueRecord(line)
        guard var head = header, openCount >= offset + start else { return nil }
        if let method = next.method.range { head.method = TextPlace(method.lowerBound + offset..<method.upperBound + offset) }
        head.sourceLine = next.sourceLine ?? head.sourceLine
        head.marker = head.marker ?? next.marker
        header = head
        bodyStart = offset + start
        return nil
    }

    /// Adds `line` to the open record as a continuation line.
    private func continueRecord(_ line: Line) -> Closed? {
        lineCount += 1
        truncated = truncated || line.isTruncated
        guard keptLines < limits.maxLines, openCount < limits.maxBytes else {
            truncated = true
            return nil
        }
        keptLines += 1
        if !isCopied, line.chunk != nil, openEnd + 1 < chunk.capacity,
           line.bytes.baseAddress == UnsafeRawPointer(chunk.base + openEnd + 1) {
            // The line follows the record's end, after the newline between them (see
            // `Line.chunk`). It starts inside the record's chunk, which is alive, so it is a
            // line of that chunk: no reference compared, none retained.
            openEnd += 1
            openEnd += kept(line.bytes.count)
            return nil
        }
        if isCopied { makeRoom(1 + line.bytes.count) } else { copyOpenRecord(extra: 1 + line.bytes.count) }
        chunk.base[openEnd] = 0x0A
        openEnd += 1
        copy(line.bytes)
        return nil
    }

    /// Closes and returns the open record, if any.
    func close() -> Closed? {
        guard lineCount > 0 else { return nil }
        let revision: Revision
        switch previewedLines {
        case nil: revision = .whole
        case lineCount?: revision = .confirmed
        default: revision = .amended
        }
        previewedLines = nil
        let closed: Closed
        if givenTexts == nil {
            // The entry does not keep its chunk alive: this does, until the entry is handed on
            // (`open` may move on to another chunk before then).
            if closedChunk !== chunk { closedChunk = chunk }
            closedEntry.chunk = chunk
            closedEntry.origin = UnsafePointer(chunk.base + openStart)
            closedEntry.count = openCount
            closedEntry.firstLine = firstLine
            closedEntry.lineCount = lineCount
            closedEntry.head = header
            closedEntry.bodyStart = bodyStart
            closedEntry.isTruncated = truncated
            closedEntry.revision = revision
            closedEntry.isPlain = isPlain
            closed = .entry
        } else {
            closed = .object(Record(input: input, firstLine: firstLine, lineCount: lineCount, text: openText, head: header,
                                    givenTexts: givenTexts, bodyStart: bodyStart, isTruncated: truncated, revision: revision))
        }
        lineCount = 0
        return closed
    }

    /// The open record as it stands, left open: on a live pipe whose writer paused, the record
    /// is shown now, and lines that come later still join it (`finish` then says whether they
    /// did). Nil when there is no open record, or nothing new since the last preview.
    public func preview() -> Record? {
        guard lineCount > 0, previewedLines != lineCount else { return nil }
        let revision: Revision = previewedLines == nil ? .preview : .amendedPreview
        previewedLines = lineCount
        // Lines that come later are written after the bytes this preview shows, which stay.
        return Record(input: input, firstLine: firstLine, lineCount: lineCount, text: openText, head: header,
                      givenTexts: givenTexts, bodyStart: bodyStart, isTruncated: truncated, revision: revision)
    }

    /// Whether the open record is one the classifier makes the app's line whatever its rules
    /// (see `RecordEntry.isPlain`): no marker, and a message in which no rule for messages
    /// without a marker may match, as the classifier's own prefilter tells it.
    private var isPlain: Bool {
        guard header?.marker == nil else { return false }
        let start = min(bodyStart, openCount)
        let message = UnsafeRawBufferPointer(start: chunk.base + openStart + start, count: openCount - start)
        return ownLinesUnretained?.mayRecognise(message) == false
    }

    /// The open record's bytes as they stand.
    private var openText: RecordText {
        RecordText(chunk: chunk, origin: chunk.base + openStart, bounds: 0..<openCount)
    }

    private func open(_ line: Line, bodyStart: Int) {
        self.bodyStart = bodyStart
        depthRead = bodyStart
        depth = 0
        firstLine = line.number
        lineCount = 1
        keptLines = 1
        truncated = line.isTruncated
        // The header's texts are places in the record's text, whose first line is this one:
        // where the byte cap cuts the line before a text ends, the texts are made now instead.
        givenTexts = nil
        if line.bytes.count > limits.maxBytes, let head = header, head.reaches(past: limits.maxBytes) {
            givenTexts = head.texts(in: line.bytes)
            header = RecordHead(style: head.style, marker: head.marker, clock: head.clock, pid: head.pid, sourceLine: head.sourceLine)
        }
        if let lineChunk = line.chunk, let start = line.bytes.baseAddress {
            // The record is the line where it was read (a reference retained once a chunk).
            if Unmanaged.passUnretained(chunk).toOpaque() != lineChunk.toOpaque() { chunk = lineChunk.takeUnretainedValue() }
            isCopied = false
            openStart = UnsafeRawPointer(chunk.base).distance(to: start)
            openEnd = openStart
            openEnd += kept(line.bytes.count)
        } else {
            startCopy()
            makeRoom(line.bytes.count)
            copy(line.bytes)
        }
    }

    /// How many of `count` more bytes the open record keeps, under the byte cap.
    @inline(__always)
    private func kept(_ count: Int) -> Int {
        let room = limits.maxBytes - openCount
        guard count > room else { return count }
        truncated = true
        return max(0, room)
    }

    /// Makes the open record, empty, a copy in the own chunk: its bytes will follow the bytes
    /// written there before, which stay as they are.
    private func startCopy() {
        let target = own ?? chunks.fresh(roomFor: 0)
        own = target
        if chunk !== target { chunk = target }
        isCopied = true
        openStart = target.used
        openEnd = openStart
    }

    /// Copies the open record, from the chunk its first lines were read into, to the own chunk
    /// with room for `extra` more bytes.
    @inline(never)
    private func copyOpenRecord(extra: Int) {
        let source = chunk
        let start = openStart
        let count = openCount
        startCopy()
        makeRoom(count + extra)
        (chunk.base + openEnd).initialize(from: source.base + start, count: count)
        openEnd += count
        chunk.used = openEnd
    }

    /// Makes room for `extra` more bytes of the open record in the own chunk. When the chunk is
    /// full, the open record moves to the start of a fresh one (the records before it stay
    /// where they are, with whoever holds them); a record bigger than a chunk gets a chunk of
    /// its own that grows by doubling, up to the record's cap.
    @inline(__always)
    private func makeRoom(_ extra: Int) {
        let extra = min(extra, limits.maxBytes + 1)  // `copy` drops what is past the cap
        if openEnd + extra > chunk.capacity { moveOpenRecord(extra) }
    }

    @inline(never)
    private func moveOpenRecord(_ extra: Int) {
        let count = openCount
        let fresh = chunks.fresh(roomFor: count + extra + min(count, limits.maxBytes))
        fresh.base.initialize(from: chunk.base + openStart, count: count)
        fresh.used = count
        own = fresh
        chunk = fresh
        openStart = 0
        openEnd = count
    }

    /// Writes `bytes` after the open record's in the own chunk, up to the byte cap; room was
    /// made for them.
    private func copy(_ bytes: UnsafeRawBufferPointer) {
        let count = kept(bytes.count)
        if count > 0, let source = bytes.baseAddress {
            UnsafeMutableRawPointer(chunk.base + openEnd).copyMemory(from: source, byteCount: count)
            openEnd += count
        }
        chunk.used = openEnd
    }
}

/// What tells the assembler that a line without a header, after a record with a marker, is a
/// record of its own (see `RecordAssembler.isRecordOfItsOwn`): the classifier's channels for
/// lines without a marker. Used on the reading thread alone.
public protocol OwnLineRecognizer: AnyObject {
    /// False when no rule can recognise `line` (a quick test that most lines fail).
    func mayRecognise(_ line: UnsafeRawBufferPointer) -> Bool
    /// Whether a rule recognises `line`.
    func recognises(_ line: UnsafeRawBufferPointer) -> Bool
}
