// How a process, an input and the run look at the end: each process's verdict from what its
// families' trackers say, each input's from its judged processes, the run's from its inputs.

/// How a process, an input or the run looks: the answer a person debugging sync wants first.
/// Cases are in order, each worse than the one before for `--fail-on` and for the worst of
/// several: a log that could not vouch for the store is worse than one that shows it recovering,
/// and a store seen broken is worse than anything unread could be.
public enum Verdict: String, Sendable, Comparable, CaseIterable {
    /// Sync records were read and understood: no failure, no corruption, no warning.
    case healthy
    /// Problems that recovered, or warnings.
    case degraded
    /// No sync records to judge: an empty input, another framework's log, logging never
    /// raised, an input that could not be read, or only system daemons' records.
    case noEvidence = "no-evidence"
    /// Sync records were read, but too many of them were not recognised to vouch for the store.
    case unknown
    /// A failure or corruption that did not recover.
    case broken

    private var rank: Int {
        switch self {
        case .healthy: 0
        case .degraded: 1
        case .noEvidence: 2
        case .unknown: 3
        case .broken: 4
        }
    }

    /// As a sentence shows it: `no evidence`.
    public var words: String { self == .noEvidence ? "no evidence" : rawValue }

    public static func < (lhs: Verdict, rhs: Verdict) -> Bool { lhs.rank < rhs.rank }
}

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
        fields.add("evidence", .list(evidence.map { .string($0) }))
        return fields.items
    }
}

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

