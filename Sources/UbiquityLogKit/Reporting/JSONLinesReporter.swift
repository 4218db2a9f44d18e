// `--format jsonl`: one JSON object per record, then one summary object. The schema is
// documented in the README; kind ids are the catalogue's stable ids.

public final class JSONLinesReporter: Reporter {
    /// The schema id in the `begin` message; bumped when a change could break a consumer.
    public static let schema = "parselogs-jsonl/1"

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

    public func report(_ item: ClassifiedRecord) {
        begin()
        let record = item.record
        let event = item.event
        var object = JSONObject()
        object.add("type", "record")
        object.add("input", record.input)
        object.add("line", record.firstLine)
        object.add("lines", record.lineCount)
        object.add("time", record.header?.time?.iso8601)
        object.add("kind", event.kind.id)
        object.add("category", event.kind.category.rawValue)
        object.add("severity", event.kind.severity.rawValue)
        object.add("message", Headline.matchedLine(item))
        if record.isTruncated { object.add("truncated", true) }
        object.addRaw("fields", JSON.object(event.fields))
        object.addRaw("raw", JSON.data(record.text))
        out.line(object.text)
    }

    public func flush() { out.flush() }

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
    public func finish(_ summary: RunSummary) {
        out.line(JSONSummary.text(summary))
        out.flush()
    }
}

/// The summary as one JSON object (the last line of `--format jsonl`, all of `--format json`).
public enum JSONSummary {
    public static func text(_ summary: RunSummary) -> String {
        var object = JSONObject()
        object.add("type", "summary")
        object.add("lines", summary.lines)
        object.add("records", summary.records)
        object.add("ubiquityRecords", summary.ubiquityRecords)
        object.add("unhandled", summary.unhandled)
        object.add("matchLimitHits", summary.matchLimitHits)
        object.add("truncatedRecords", summary.truncatedRecords)
        object.add("outsideTimeWindow", summary.outsideTimeWindow)
        var loads = JSONObject()
        loads.add("attempted", summary.storeLoads.attempted)
        loads.add("succeeded", summary.storeLoads.totalSucceeded)
        loads.add("failed", summary.storeLoads.totalFailed)
        for location in StoreLocation.allCases {
            var pair = JSONObject()
            pair.add("succeeded", summary.storeLoads.succeeded[location] ?? 0)
            pair.add("failed", summary.storeLoads.failed[location] ?? 0)
            loads.addRaw(location.rawValue, pair.text)
        }
        loads.addRaw("attempts", "[" + summary.storeLoadAttempts.map { JSON.object($0.fields) }.joined(separator: ",") + "]")
        object.addRaw("storeLoads", loads.text)
        object.addRaw("localStorageSwitches", "[" + summary.localStorageSwitches.map { JSON.object($0.fields) }.joined(separator: ",") + "]")
        object.addRaw("transactions", exportedImported(summary.transactionsExported, summary.transactionsImported))
        object.addRaw("objectChanges", exportedImported(summary.objectChangesExported, summary.objectChangesImported))
        object.add("importFailures", summary.importFailureCount)
        object.add("corruptionReports", summary.corruptionReportCount)
        object.addRaw("transactionLogs", "[" + summary.transactionLogs.map { JSON.object($0.fields) }.joined(separator: ",") + "]")
        object.addRaw("entities", JSON.object(summary.entities.sorted { $0.key < $1.key }.map { entity in
            Field(entity.key, .object([Field("exported", .int(entity.value.exported)), Field("imported", .int(entity.value.imported))]))
        }))
        object.addRaw("devices", "[" + summary.devices.map { JSON.object($0.fields) }.joined(separator: ",") + "]")
        object.addRaw("correlations", "[" + summary.correlations.map(JSON.quote).joined(separator: ",") + "]")
        object.addRaw("incidents", "[" + summary.incidents.map { JSON.object($0.fields) }.joined(separator: ",") + "]")
        object.add("verdict", summary.verdict.rawValue)
        object.addRaw("verdicts", "[" + summary.verdicts.map { JSON.object($0.fields) }.joined(separator: ",") + "]")
        object.add("errors", summary.errors)
        object.add("warnings", summary.warnings)
        object.addRaw("inputs", "[" + summary.inputs.map(JSON.quote).joined(separator: ",") + "]")
        object.addRaw("unreadableInputs", "[" + summary.unreadableInputs.map { failure in
            var item = JSONObject()
            item.add("input", failure.input)
            item.add("reason", failure.reason)
            return item.text
        }.joined(separator: ",") + "]")
        return object.text
    }
}

private func exportedImported(_ exported: Int, _ imported: Int) -> String {
    var pair = JSONObject()
    pair.add("exported", exported)
    pair.add("imported", imported)
    return pair.text
}

/// JSON text per RFC 8259, written by hand: the output is small objects, and this keeps
/// key order stable and Foundation out of the hot path.
enum JSON {
    /// A JSON string literal. Works on UTF-8 bytes, copying runs that need no escape whole:
    /// record text is most of what --format jsonl writes.
    static func quote(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 2)
            output.append(UInt8(ascii: "\""))
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                // Appended a byte at a time: an array literal per escape cost an allocation,
                // and record texts have a newline on nearly every line.
                output.append(0x5C)
                switch byte {
                case 0x22, 0x5C: output.append(byte)
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                default:
                    let hex: StaticString = "0123456789abcdef"
                    output.append(UInt8(ascii: "u"))
                    output.append(UInt8(ascii: "0"))
                    output.append(UInt8(ascii: "0"))
                    output.append(hex.utf8Start[Int(byte >> 4)])
                    output.append(hex.utf8Start[Int(byte & 0x0F)])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            output.append(UInt8(ascii: "\""))
            return String(decoding: output, as: UTF8.self)
        }
    }

    static func value(_ value: FieldValue) -> String {
        switch value {
        case .string(let text): quote(text)
        case .int(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        case .list(let items): "[" + items.map(JSON.value).joined(separator: ",") + "]"
        case .object(let fields): object(fields)
        }
    }

    /// Bytes as ripgrep carries them: `{"text":"…"}` when they are UTF-8, else
    /// `{"bytes":"BASE64"}`, so nothing is lost or replaced.
    static func data<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if let text = String(validating: bytes, as: UTF8.self) { return #"{"text":"# + quote(text) + "}" }
        return #"{"bytes":""# + Base64.encode(bytes) + #""}"#
    }

    static func object(_ fields: [Field]) -> String {
        "{" + fields.map { quote($0.name) + ":" + value($0.value) }.joined(separator: ",") + "}"
    }
}

struct JSONObject {
    private var members: [String] = []

    mutating func add(_ key: String, _ value: String?) { addRaw(key, value.map(JSON.quote) ?? "null") }
    mutating func add(_ key: String, _ value: Int) { addRaw(key, String(value)) }
    mutating func add(_ key: String, _ value: Bool) { addRaw(key, value ? "true" : "false") }
    mutating func addRaw(_ key: String, _ json: String) { members.append(JSON.quote(key) + ":" + json) }

    var text: String { "{" + members.joined(separator: ",") + "}" }
}

enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 2 < input.count {
            let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            for shift in [18, 12, 6, 0] { output.append(alphabet[Int(value >> UInt32(shift) & 0x3F)]) }
            index += 3
        }
        let rest = input.count - index
        if rest > 0 {
            let value = UInt32(input[index]) << 16 | (rest == 2 ? UInt32(input[index + 1]) << 8 : 0)
            output.append(alphabet[Int(value >> 18 & 0x3F)])
            output.append(alphabet[Int(value >> 12 & 0x3F)])
            output.append(rest == 2 ? alphabet[Int(value >> 6 & 0x3F)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
        return String(decoding: output, as: UTF8.self)
    }
}
