// Counts over a whole run and the findings that decide the exit status: lines and records
// read, records of each family and of each process, findings, unhandled records, verdicts. What
// each family's records told is its own story (`FamilyTracker`, `families`).

/// An event of error or warning severity, kept with the evidence behind it.
public struct Finding: Sendable, Equatable {
    public var kind: EventKind
    public var input: String
    public var line: Int
    public var time: LogTime?
    /// One line saying what happened, as the timeline shows it.
    public var message: String
    /// The process that said it, and its pid, where the header (or one before it) names them.
    public var process: String?
    public var pid: Int?

    public init(kind: EventKind, input: String, line: Int, time: LogTime?, message: String, process: String? = nil, pid: Int? = nil) {
        self.kind = kind
        self.input = input
        self.line = line
        self.time = time
        self.message = message
        self.process = process
        self.pid = pid
    }
}

public struct RunSummary: Sendable {
    public var inputs: [String] = []
    public var unreadableInputs: [InputError] = []
    public var lines = 0
    public var records = 0
    /// Records of any family (everything but the app's own lines).
    public var syncRecords = 0
    public var unhandled = 0
    /// Unhandled records on which a rule hit PCRE2's match limit.
    public var matchLimitHits = 0
    public var truncatedRecords = 0
    /// Records passed over for lying outside `--since`/`--until` or `--last` (counted in `records`).
    public var outsideTimeWindow = 0
    /// The options that chose the time window, as the summary names them.
    public var timeWindow = "--since/--until"
    /// Records passed over for coming from a process `--process` did not name (counted in `records`).
    public var otherProcesses = 0
    /// The processes `--process` named (empty: every process was read).
    public var selectedProcesses: [String] = []
    /// Lines read per input, in input order.
    public var linesPerInput: [String: Int] = [:]
    /// Each process with sync records, per input in order of first appearance.
    public var processes: [ProcessSummary] = []
    /// Stores of system frameworks named in the app's processes, per input in order of first
    /// appearance, each with its own verdict: judged apart, never counted in the run's.
    public var systemStores: [SystemStore] = []
    /// How many processes the headers named (app lines too): above one, the timeline and the
    /// evidence name the process of each line.
    public var processCount = 0
    /// Each input's verdict, in input order (unreadable inputs too), and the run's (the worst
    /// of them) with why it is `no-evidence` or `unknown`.
    public var verdicts: [InputVerdict] = []
    public var verdict: Verdict = .healthy
    public var verdictReason: String?
    /// Whether the run fails `--fail-on`, and why (set when the run ends).
    public var outcome: RunOutcome?
    public var errors = 0
    public var warnings = 0
    /// Error and warning findings, in log order, the first `maxKeptFindings` of them.
    public var findings: [Finding] = []
    public var countsByKind: [String: Int] = [:]
    /// Each family whose records the run holds, in the catalogue's order, with its story.
    public var families: [FamilySummary] = []

    /// Findings kept in memory; counts stay exact beyond it.
    public static let maxKeptFindings = 1000

    public init() {}

    /// `no evidence (no Core Data sync records in 412 lines)`
    public var verdictSentence: String { verdict.words + (verdictReason.map { " (\($0))" } ?? "") }

    /// Whether timeline lines and evidence name their process: the run saw more than one.
    public var namesProcesses: Bool { processCount > 1 }

    /// Whether an input has sync records of more than one process: then the summary gives each
    /// its line and verdict, and store loads and incidents name theirs.
    public var hasSeveralSyncProcesses: Bool { verdicts.contains { !$0.processes.isEmpty } }

    /// Unhandled records as a share of sync records, in percent.
    public var unhandledPercent: Double {
        syncRecords == 0 ? 0 : Double(unhandled) * 100 / Double(syncRecords)
    }
}
