// `--format jsonl`: one JSON object per record, then one summary object. The schema is
// documented in docs/json-lines.md (schema: schema/parselogs-jsonl.schema.json); kind ids are the catalogue's stable ids.
import CByteScan

public final class JSONLinesReporter: Reporter {
    /// The schema id in the `begin` message; bumped when a change could break a consumer.
    public static let schema = "parselogs-jsonl/2"

    private let out: OutputWriter
    private let tool: String
    private var begun = false

    /// `tool` names the program and version in the `begin` message.
    public init(output: OutputWriter, tool: String = "parselogs") {
        self.out = output
        self.tool = tool
    }

    private func begin() {
        guard !begun else { return }
        begun = true
        var object = JSONObject()
        object.add("type", "begin")
        object.add("schema", JSONLinesReporter.schema)
        object.add("tool", tool)
        out.line(object.text)
    }

    public func beginInput(_ name: String) { begin() }

    /// One record's object is written with this, straight into the output's buffer
    /// (`JSONText.writing(into:)`): no String is made per member, per key or per escape. (Only
    /// the thread that writes uses it, one record at a time: Swift's run-time exclusivity
    /// check on each access is left out.)
    @exclusivity(unchecked) private var json = JSONText()
    /// `{"type":"record","input":"NAME","line":`, the same for every record of an input: made
    /// again only when the input changes.
    private var input: (name: String, json: Piece)?
    /// By kind ordinal: `,"kind":…,"category":…,"severity":…,"message":`, the same for every
    /// record of a kind. (Read for every record by the writing thread alone: no run-time
    /// exclusivity check.)
    @exclusivity(unchecked) private var kindMembers: [Piece?] = []
    /// `,"process":"Journal"` by the process's bytes: a log's few processes are each made once.
    /// Looked up rather than kept for the last process alone, which would make the piece
    /// again at every switch where processes interleave.
    private let processMembers = Recurring<Piece>(longest: 128)

    /// JSON text made once and written for many records, and whether it holds a `#` (see
    /// `JSONText.seen`).
    private struct Piece {
        var bytes: [UInt8]
        var hasHash: Bool

        init(_ text: JSONText) {
            bytes = text.bytes
            hasHash = text.seen & CBYTESCAN_SEEN_HASH != 0
        }
    }

    public func report(_ item: ClassifiedRecord) {
        begin()
        // The record is written by one method that reads the item through a pointer: values
        // worked out before the closures and captured by them (the pieces, the fields, the
        // matched line, the record), or the event copied to read its kind and fields, would
        // each be retained and released for every record.
        withUnsafePointer(to: item) { item in
            out.line { buffer in
                json.writing(into: &buffer) { json in write(item.pointee, into: &json) }
                // Only a line with a `#` can hold a workflow command (`##[`): JSON escapes
                // every line end, and starts with `{`, not `::`. The strings were looked at for
                // `#` as they were escaped; the line is looked at again only when one had one,
                // so a line without one is not read a second time.
                return json.seen & CBYTESCAN_SEEN_HASH != 0
            }
        }
    }

    /// The members every record has, in a fixed order, are written as literal text around
    /// their values (no key or comma is worked out per record); the fields object and
    /// anything nested go through JSONText's objects.
    private func write(_ item: borrowing ClassifiedRecord, into json: inout JSONText) {
        let record = item.record
        let input = inputJSON(record.input)
        let process = processJSON(record)
        switch item.classification.event {
        case .message(let kind, let fields):
            writeHead(record, input, process, kindJSON(kind), into: &json)
            writeMessage(item, into: &json)
            writeRest(record, fields, into: &json)
        default:
            let event = item.event
            writeHead(record, input, process, kindJSON(event.kind), into: &json)
            writeMessage(item, into: &json)
            writeRest(record, event.fields, into: &json)
        }
        // The pieces' `#`s, as their strings' were gathered when they were made.
        if input.hasHash || process?.hasHash == true { json.seen |= CBYTESCAN_SEEN_HASH }
    }

    private func writeHead(_ record: Record, _ input: Piece, _ process: Piece?, _ kind: Piece, into json: inout JSONText) {
        if kind.hasHash { json.seen |= CBYTESCAN_SEEN_HASH }
        json.recordHead(input.bytes, record: record, process: process?.bytes, kind: kind.bytes)
    }

    /// The matched line as it stands, checked to be UTF-8 only when a byte of it is not ASCII
    /// (most lines are ASCII and need no check), else as `Headline.matchedLine` makes it.
    private func writeMessage(_ item: borrowing ClassifiedRecord, into json: inout JSONText) {
        if let line = Headline.matchedLineBytes(item, checkingUTF8: false),
           line.withUnsafeBufferPointer({ json.quotedIfUTF8($0) }) {
            return
        }
        json.string(Headline.matchedLine(item))
    }

    private func writeRest(_ record: Record, _ fields: [Field], into json: inout JSONText) {
        if record.isTruncated { json.raw(#","truncated":true"#) }
        if record.revision.amendsAnEarlierShowing { json.raw(#","amended":true"#) }
        json.object(fields, opening: #","fields":{"#)
        json.rawMember(record.text)
    }

    private func inputJSON(_ name: String) -> Piece {
        if let input, input.name == name { return input.json }
        var text = JSONText()
        text.raw(#"{"type":"record","input":"#)
        text.string(name)
        text.raw(#","line":"#)
        let piece = Piece(text)
        input = (name, piece)
        return piece
    }

    /// Nil for a record whose header names no process.
    private func processJSON(_ record: Record) -> Piece? {
        record.withBytes(of: .process) { bytes in
            bytes.map { bytes in
                processMembers.value(bytes) {
                    var text = JSONText()
                    text.raw(#","process":"#)
                    text.string(ByteText.string(bytes))
                    return Piece(text)
                }
            }
        }
    }

    private func kindJSON(_ kind: EventKind) -> Piece {
        if kind.ordinal < kindMembers.count, let known = kindMembers[kind.ordinal] { return known }
        var text = JSONText()
        text.raw(#","kind":"#)
        text.string(kind.id)
        text.raw(#","category":"#)
        text.string(kind.category.rawValue)
        text.raw(#","severity":"#)
        text.string(kind.severity.rawValue)
        text.raw(#","message":"#)
        if kind.ordinal >= kindMembers.count {
            kindMembers += Array(repeating: nil, count: kind.ordinal - kindMembers.count + 1)
        }
        let piece = Piece(text)
        kindMembers[kind.ordinal] = piece
        return piece
    }

    public func flush() { out.flush() }
    /// A live reader sees a record when its writer pauses; a record whose lines went on after
    /// that comes again, marked `amended`, and replaces the one with its input and line.
    public var showsPreviews: Bool { true }

    public func finish(_ summary: RunSummary) {
        begin()
        out.line(JSONSummary.text(summary))
        out.flush()
    }
}

/// `--format json`: the summary object alone.
public final class JSONSummaryReporter: Reporter {
    private let out: OutputWriter
    public init(output: OutputWriter) { self.out = output }
    public func report(_ item: ClassifiedRecord) {}
    public var readsRecords: Bool { false }
    public func readsFacts(of kind: EventKind) -> Bool { false }
    public func readsDetails(of kind: EventKind) -> Bool { false }
    public func finish(_ summary: RunSummary) {
        out.line(JSONSummary.text(summary))
        out.flush()
    }
}
