/// One process's records in one input, and their verdict: a device console interleaves the app
/// under test with system daemons that keep stores of their own.
public struct ProcessSummary: Sendable, Equatable {
    public var input: String
    /// Nil when the headers name no process.
    public var process: String?
    /// The pids its headers gave, in order of appearance (the first few).
    public var pids: [Int] = []
    /// Every record of the process, its own app lines too.
    public var records = 0
    /// Per family (in the catalogue's order), its sync records and how many were not recognised.
    public var families: [FamilyRecords] = []
    public var verdict: Verdict = .healthy
    public var evidence: [String] = []
    /// Why the verdict is `no-evidence` or `unknown`: `3 of 4 ubiquity records not recognised`.
    public var reason: String?
    /// Whether its verdict counts for its input's and the run's: false for a system daemon's
    /// beside an app's, unless `--process` named it.
    public var isJudged = true
    /// Whether it stands for every process of its input met past `SummaryBuilder.maxGroups`
    /// (named `otherProcessesName`): their records are counted and judged together.
    public var isOtherProcesses = false
    public static let otherProcessesName = "(other processes)"

    public init(input: String, process: String?) {
        self.input = input
        self.process = process
    }

    public var syncRecords: Int { families.reduce(0) { $0 + $1.records } }
    public var unhandled: Int { families.reduce(0) { $0 + $1.unhandled } }

    /// `Journal[412]`, `kbd[87, 90]`, `Journal`, or `(no process)`.
    public var name: String { ProcessSummary.name(process, pids: pids) }

    static func name(_ process: String?, pids: [Int]) -> String {
        guard let process else { return "(no process)" }
        return pids.isEmpty ? process : process + "[" + pids.map(String.init).joined(separator: ", ") + "]"
    }

    public var fields: [Field] {
        var fields = FieldList()
        fields.add("input", input)
        fields.add("process", process)
        fields.add("pids", .list(pids.map { .int($0) }))
        fields.add("records", records)
        fields.add("syncRecords", syncRecords)
        fields.add("unhandled", unhandled)
        fields.add("families", .list(families.filter { $0.records > 0 }.map { family in
            .object([Field("family", .string(family.family.rawValue)), Field("records", .int(family.records)),
                     Field("unhandled", .int(family.unhandled))])
        }))
        fields.add("verdict", verdict.rawValue)
        fields.add("reason", reason)
        fields.add("judged", .bool(isJudged))
        if isOtherProcesses { fields.add("otherProcesses", .bool(true)) }
        fields.add("evidence", .list(evidence.map { .string($0) }))
        return fields.items
    }
}
