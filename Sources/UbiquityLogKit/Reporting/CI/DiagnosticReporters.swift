// Diagnostics as other tools print them: `--format xcode` (`path:line: error: message`, as
// clang, swiftc and SwiftLint print, which Xcode makes clickable and problem matchers read) and
// `--format sarif` (SARIF 2.1.0, for GitHub code scanning). Both report `CIFindings.items`, so
// they say what GitHub's annotations say; both end-of-run.

/// `--format xcode`: one diagnostic a line: `fixtures/example.log:85: error: message
/// (import-failed; fails the run)`; the verdict and the outcome without a place, as
/// `parselogs: error: …` (clang's form for a diagnostic with no file).
public final class XcodeReporter: Reporter {
    private let out: OutputWriter
    private var firstRecords = FirstRecords()

    public init(output: OutputWriter) { self.out = output }
    public func report(_ item: ClassifiedRecord) { firstRecords.note(item) }
    public func readsFacts(of kind: EventKind) -> Bool { false }
    public func readsDetails(of kind: EventKind) -> Bool { false }

    public func finish(_ summary: RunSummary) {
        let outcome = summary.outcome ?? RunOutcome(failOn: "none")
        for item in CIFindings.items(summary, outcome: outcome, firstRecords: firstRecords) {
            let place = item.file.map { file in item.line.map { "\(file):\($0)" } ?? file } ?? "parselogs"
            let message = item.message.split(separator: "\n").map { $0.trimmingCharacters(in: " ") }.joined(separator: "; ")
            let note = item.title + (item.failsTheRun ? "; fails the run" : "")
            out.line(StreamEscaping.line("\(place): \(item.level.diagnostic): \(message) (\(note))"))
        }
        out.line(StreamEscaping.line("parselogs: \(outcome.fails ? "error" : "note"): Outcome: \(outcome.sentence)"))
        out.flush()
    }
}

/// `--format sarif`: one SARIF 2.1.0 log with one run: a rule per event kind reported (and
/// `verdict`, `unreadable-input`, `no-evidence`), a result per item with its level, message
/// and location (an input and line; the verdict at the first input), `properties.failsTheRun`,
/// and the outcome in the invocation.
public final class SARIFReporter: Reporter {
    private let out: OutputWriter
    private let catalog: Catalog
    private let version: String
    private var firstRecords = FirstRecords()

    public init(output: OutputWriter, catalog: Catalog, version: String) {
        self.out = output
        self.catalog = catalog
        self.version = version
    }

    public func report(_ item: ClassifiedRecord) { firstRecords.note(item) }
    public func readsFacts(of kind: EventKind) -> Bool { false }
    public func readsDetails(of kind: EventKind) -> Bool { false }

    static let ownRules: [String: (level: AnnotationLevel, text: String)] = [
        "verdict": (.error, "The run's verdict: healthy, degraded, no evidence, unknown or broken (docs/verdicts.md)."),
        "unreadable-input": (.error, "An input could not be opened or read."),
        "no-evidence": (.error, "An input holds no Core Data sync records to judge: every --fail-on but none fails on it."),
    ]

    public func finish(_ summary: RunSummary) {
        let outcome = summary.outcome ?? RunOutcome(failOn: "none")
        let items = CIFindings.items(summary, outcome: outcome, firstRecords: firstRecords)
        var ruleIDs: [String] = []
        for item in items where !ruleIDs.contains(item.rule) { ruleIDs.append(item.rule) }
        let kinds = Dictionary(catalog.kinds.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let rules: [FieldValue] = ruleIDs.map { id in
            var fields = [Field("id", .string(id))]
            if let kind = kinds[id] {
                fields += [Field("shortDescription", .object([Field("text", .string(kind.summary))])),
                           Field("defaultConfiguration", .object([Field("level", .string(AnnotationLevel(kind.severity).diagnostic))])),
                           Field("properties", .object([Field("category", .string(kind.category.rawValue)), Field("severity", .string(kind.severity.rawValue))]))]
            } else if let own = SARIFReporter.ownRules[id] {
                fields += [Field("shortDescription", .object([Field("text", .string(own.text))])),
                           Field("defaultConfiguration", .object([Field("level", .string(own.level.diagnostic))]))]
            }
            return .object(fields)
        }
        let results: [FieldValue] = items.map { item in
            var fields = [Field("ruleId", .string(item.rule)), Field("ruleIndex", .int(ruleIDs.firstIndex(of: item.rule) ?? 0)),
                          Field("level", .string(item.level.diagnostic)), Field("message", .object([Field("text", .string(item.message))]))]
            if let file = item.file ?? (item.rule == "verdict" ? summary.inputs.first : nil) {
                let region = Field("region", .object([Field("startLine", .int(max(1, item.line ?? 1)))]))
                let location = Field("physicalLocation", .object([Field("artifactLocation", .object([Field("uri", .string(SARIFReporter.uri(file)))])), region]))
                fields.append(Field("locations", .list([.object([location])])))
            }
            fields.append(Field("properties", .object([Field("failsTheRun", .bool(item.failsTheRun)), Field("title", .string(item.title))])))
            return .object(fields)
        }
        let invocation: [Field] = [
            Field("executionSuccessful", .bool(outcome.unreadableInputs.isEmpty)),
            Field("exitCode", .int(outcome.unreadableInputs.isEmpty ? (outcome.fails ? 1 : 0) : 2)),
            Field("properties", .object([Field("verdict", .string(summary.verdict.rawValue))] + outcome.fields)),
        ]
        let driver: [Field] = [
            Field("name", .string("parselogs")), Field("version", .string(version)),
            Field("informationUri", .string("https://github.com/parselogs/parselogs")), Field("rules", .list(rules)),
        ]
        let log: [Field] = [
            Field("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            Field("version", .string("2.1.0")),
            Field("runs", .list([.object([
                Field("tool", .object([Field("driver", .object(driver))])),
                Field("invocations", .list([.object(invocation)])),
                Field("results", .list(results)),
            ])])),
        ]
        out.line(JSON.object(log))
        out.flush()
    }

    /// A file name as a URI reference: a relative name stays relative (code scanning reads it
    /// from the repository's root), an absolute one becomes `file://`; every byte outside
    /// RFC 3986's unreserved characters and `/` is percent-encoded.
    static func uri(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }
}
