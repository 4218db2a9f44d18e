// The `ckerror` family: CKErrors logged outside Core Data's mirroring records, by apps that use
// CloudKit themselves, sync libraries (CKSyncEngine and others) and the CloudKit framework's
// own lines. They carry no marker: its channel reads the app's lines after the families before
// it. Its tracker judges each process by the codes it met; a run whose only CloudKit evidence
// is such errors is judged by them, never "no evidence".

extension FamilyID {
    public static let ckError = FamilyID("ckerror")
}

extension Channel {
    /// The app's lines (no marker), tried at the start of each line of the record, after the
    /// families before it in the catalogue: the error may stand anywhere in the line.
    public static let ckError = Channel("ckError", family: .ckError, shape: .lines, marker: nil, readsUnmarked: true)
}

extension Family {
    public static let ckError = Family(
        id: .ckError, recordNoun: "CloudKit error", markers: [], channels: [.ckError], rules: CKErrorRules.all,
        guidance: CKErrorGuidance.byKind, factKinds: CKErrorJudgement.kinds, makeTracker: { CKErrorTracker() })
}

extension RunSummary {
    /// What the CloudKit errors outside mirroring records said; nil when the run has none.
    public var ckErrors: CKErrorStory? { story(CKErrorStory.self) }
}

/// The CKErrors of a run: each distinct error (kind, code, internal code, name) once, with how
/// often it was logged and where first.
public struct CKErrorStory: FamilyStory, Sendable {
    public struct Entry: Sendable, Equatable {
        public var kind: EventKind
        public var code: Int?
        public var internalCode: Int?
        public var name: String
        public var count: Int
        public var input: String
        public var line: Int
        /// The first record's sentence (what the app said, the error and its message).
        public var text: String
    }

    public var records = 0
    public var entries: [Entry] = []

    public func rows(in summary: RunSummary) -> [SummaryText.Row] {
        let logged = entries.reduce(0) { $0 + $1.count }
        let value = "\(logged) logged outside Core Data's mirroring, \(entries.count) distinct"
        let details = entries.map { entry in
            "\(entry.input):\(entry.line)  \(entry.kind.id)  \(entry.text)" + (entry.count > 1 ? " (logged \(entry.count) times)" : "")
        }
        return [SummaryText.Row(label: "cloudkit errors", value: value, details: details)]
    }

    public var fields: [Field] {
        var fields = FieldList()
        fields.add("errors", .list(entries.map { entry in
            var parts = FieldList()
            parts.add("kind", entry.kind.id)
            parts.add("code", entry.code)
            parts.add("internalCode", entry.internalCode)
            parts.add("name", entry.name)
            parts.add("count", entry.count)
            parts.add("input", entry.input)
            parts.add("line", entry.line)
            parts.add("text", entry.text)
            return .object(parts.items)
        }))
        return fields.items
    }
}

/// Follows the CKErrors of each process group; its verdict of a group is broken for an error
/// of error severity, degraded for a warning, healthy when every one was of those CloudKit or
/// the library handles (a conflict, a cancellation, a duplicate subscription).
final class CKErrorTracker: FamilyTracker {
    private var story = CKErrorStory()
    private var group = 0
    private var input = ""
    /// Each group's findings of warning or error severity: the first three distinct ones cited.
    private var concerns: [Int: [(severity: Severity, cite: String)]] = [:]
    private var groupsWithRecords = Set<Int>()

    func interest(in kind: EventKind) -> TrackerInterest { kind.family == .ckError ? .every : .none }
    func wants(_ record: borrowing Record, _ event: borrowing Event, ordinal: Int) -> Bool { true }
    func beginInput(_ name: String) {}

    func switchGroup(to group: Int, input: String, process: () -> String?) {
        self.group = group
        self.input = input
    }

    func add(_ record: Record, _ event: Event, finding: () -> Finding) {
        guard case .message(let kind, let fields) = event, kind.family == .ckError else { return }
        story.records += 1
        groupsWithRecords.insert(group)
        let facts = Facts(fields)
        let code = facts.int("code")
        let internalCode = facts.int("internalCode")
        let name = facts.string("ckError") ?? kind.id
        let text = facts.string("causeText") ?? kind.summary
        if let index = story.entries.firstIndex(where: { $0.kind == kind && $0.code == code && $0.internalCode == internalCode && $0.name == name }) {
            story.entries[index].count += 1
        } else if story.entries.count < RunSummary.maxKeptFindings {
            story.entries.append(CKErrorStory.Entry(kind: kind, code: code, internalCode: internalCode, name: name, count: 1,
                                                    input: input, line: record.firstLine, text: text))
        }
        guard kind.severity >= .warning else { return }
        var cited = concerns[group, default: []]
        let cite = "\(input):\(record.firstLine) \(kind.id): \(text)"
        if cited.count < 3, !cited.contains(where: { $0.cite.dropFirst(input.count).drop { $0 != " " } == cite.dropFirst(input.count).drop { $0 != " " } }) {
            cited.append((kind.severity, cite))
        } else if kind.severity == .error, !cited.contains(where: { $0.severity == .error }) {
            // An error outranks the warnings cited before it: it is cited in their place.
            cited[cited.count - 1] = (kind.severity, cite)
        }
        concerns[group] = cited
    }

    func ending(inputs: [String]) -> FamilyEnding {
        let groups = groupsWithRecords
        let concerns = concerns
        return FamilyEnding(story: story) { group, _ in
            guard groups.contains(group) else { return nil }
            let cited = concerns[group] ?? []
            if cited.contains(where: { $0.severity == .error }) {
                return (.broken, cited.filter { $0.severity == .error }.map(\.cite) + cited.filter { $0.severity != .error }.map(\.cite))
            }
            return cited.isEmpty ? (.healthy, []) : (.degraded, cited.map(\.cite))
        }
    }
}
