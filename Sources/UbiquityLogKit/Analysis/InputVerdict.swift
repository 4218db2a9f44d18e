/// An input's verdict with the lines that decide it, and its processes' when it has several.
public struct InputVerdict: Sendable, Equatable {
    public var input: String
    public var verdict: Verdict
    /// One or two sentences, each naming an input and line.
    public var evidence: [String]
    /// Why the verdict is `no-evidence` or `unknown`.
    public var reason: String?
    /// The processes with sync records in it, when there are more than one.
    public var processes: [ProcessSummary] = []
    /// The stores of system frameworks its app processes' records named, each judged apart.
    public var systemStores: [SystemStore] = []

    public init(input: String, verdict: Verdict, evidence: [String], reason: String? = nil, processes: [ProcessSummary] = []) {
        self.input = input
        self.verdict = verdict
        self.evidence = evidence
        self.reason = reason
        self.processes = processes
    }

    /// `no evidence (no Core Data sync records in 412 lines)`
    public var sentence: String { verdict.words + (reason.map { " (\($0))" } ?? "") }

    public var fields: [Field] {
        var fields = FieldList()
        fields.add("input", input)
        fields.add("verdict", verdict.rawValue)
        fields.add("reason", reason)
        fields.add("evidence", .list(evidence.map { .string($0) }))
        return fields.items
    }
}
