// Failures and corruption grouped into incidents, each with its evidence and its outcome,
// and the verdict they give each process, input and the run: healthy, degraded or broken,
// or no evidence and unknown when the records cannot vouch for the store.

/// A run of problems in one input, from the first failure to what became of it.
public struct Incident: Sendable, Equatable {
    public enum Outcome: String, Sendable, CaseIterable {
        /// Something set it right: a store loaded, metadata recovered, a baseline adopted, the
        /// store side-loaded or the iCloud store taken into use.
        case recovered
        /// The corruption is left for another device to rebuild, and none had by the end.
        case waiting
        /// Still open at the end of the input.
        case unresolved
    }

    public var input: String
    /// The process whose records it holds (nil when the headers name none).
    public var process: String?
    /// The problem that opened it.
    public var opening: Finding
    /// The problems in it, in order (the first `maxEvidence`); `problemCount` counts them all.
    public var problems: [Finding]
    public var problemCount: Int
    public var outcome: Outcome = .unresolved
    /// The event that recovered it.
    public var recovery: Finding?

    static let maxEvidence = 20

    /// Whether it holds an error (and not only warnings).
    public var hasError: Bool { problems.contains { $0.kind.severity == .error } || opening.kind.severity == .error }

    public var fields: [Field] {
        var fields = FieldList()
        fields.add("input", input)
        fields.add("process", process)
        fields.add("kind", opening.kind.id)
        fields.add("outcome", outcome.rawValue)
        fields.add("lines", .list(problems.map { .int($0.line) }))
        fields.add("kinds", .list(problems.map { .string($0.kind.id) }))
        fields.add("problems", problemCount)
        if let recovery {
            fields.add("recovery", .object([Field("line", .int(recovery.line)), Field("kind", .string(recovery.kind.id))]))
        }
        return fields.items
    }
}

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
    /// Per family (`SyncFamily.all` order), its sync records and how many were not recognised.
    public var families: [FamilyRecords] = SyncFamily.all.map { FamilyRecords(family: $0) }
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
            .object([Field("family", .string(family.family.id)), Field("records", .int(family.records)),
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

/// Groups problems into incidents as events arrive, one input at a time and, within it, one
/// process at a time: an incident a daemon opens is never recovered by the app's store load.
/// A process group is an index the summary gives each (input, process) pair.
struct IncidentTracker {
    private(set) var incidents: [Incident] = []
    /// The current group's open incident and the corruption strategy last announced in it.
    private struct State {
        var open: Incident?
        var lastStrategy: String?
    }
    /// Changed in place, with `isOpen` set where an incident opens or closes or the state is
    /// swapped: a `didSet` that read `state.open` would copy the whole incident (its findings
    /// and their texts) at every change.
    private var state = State()
    private var group = 0
    /// The other groups' states while the current one runs (processes interleave), by group,
    /// and how many there are. An array by group: a dictionary by group hashes the group at
    /// each switch, and its first use is costly (its key type's conformance looked up).
    private var parked: [State?] = []
    private var parkedCount = 0
    /// Per group (groups are numbered from 0 as they are met), its first warning, its first
    /// incident and the first that leaves it broken: kept apart from the capped list, so that
    /// verdicts hold however many incidents a log has. Arrays by group: dictionaries by group
    /// hash the group at each look-up, and their first insertions (growing them) are costly.
    private var warnings: [Finding?] = []
    private var firstIncident: [Incident?] = []
    private var firstBroken: [Incident?] = []

    /// Warnings that open an incident as errors do: they mean Core Data is repairing something.
    private static let troubleWarnings = KindSet([
        .metadataRecoveryStarted, .baselineRollResponseFailed, .baselineRecoveryScheduled, .containerForked, .storeLoadRetried,
    ])
    /// What sets an incident right.
    private static let recoveries = KindSet(recoveryKinds)
    private static let recoveryKinds: [EventKind] = [
        .storeLoadSucceeded, .metadataRecovered, .baselineAdopted, .sideLoad, .storeUUIDChanged,
    ]

    /// The `.message` kinds whose facts the tracker reads.
    static let factKinds: [EventKind] = [.corruptionHandling]

    /// The kinds below warning that `add` reads while an incident is open: its recoveries and
    /// what they are told by (the strategy announced, the iCloud store taken into use). The
    /// summary passes the others over without calling `add`.
    static let kindsWhileOpen = KindSet([.corruptionHandling, .usingLocalStorage] + recoveryKinds)

    /// Whether an incident is open: then any event may be its recovery. Kept beside `state`
    /// because it is asked for every record, and reading the optional copies the incident.
    private(set) var isOpen = false

    /// The records that follow belong to process group `next`.
    mutating func switchGroup(to next: Int) {
        guard next != group else { return }
        // `isOpen`, not `state.open != nil`, which copies the whole incident (twice a switch
        // between interleaved processes).
        // A state without an open incident is empty (`close` empties it; the strategy is
        // only set while one is open), and is left as it is: replaced by a new one at every
        // switch, the state (an incident's worth of bytes) would be written and destroyed,
        // and a parked one copied in and the current one destroyed.
        if isOpen {
            if group >= parked.count { parked += Array(repeating: nil, count: group + 1 - parked.count) }
            if parked[group] == nil { parkedCount += 1 }
            var leaving = State()
            swap(&leaving, &state)
            parked[group] = leaving
            isOpen = false
        }
        group = next
        // Nearly always nothing is parked (no incident is open).
        if parkedCount > 0, next < parked.count, let waiting = parked[next].take() {
            parkedCount -= 1
            state = waiting
            isOpen = true  // only a state with an open incident is parked
        }
    }

    /// A warning or error, or any event while an incident is open (routine events matter only
    /// as a recovery). `finding` is asked for only when it is kept: its message is costly.
    mutating func add(_ event: Event, input: String, finding: () -> Finding) {
        let kind = event.kind
        if kind.severity == .error || IncidentTracker.troubleWarnings.contains(kind) {
            if state.open == nil {
                let opening = finding()
                state.open = Incident(input: input, process: opening.process, opening: opening, problems: [], problemCount: 0)
                state.lastStrategy = nil
                isOpen = true
            }
            state.open?.problemCount += 1
            // The finding is made only when kept: its message is costly.
            if (state.open?.problems.count ?? 0) < Incident.maxEvidence { state.open?.problems.append(finding()) }
        } else if kind.severity == .warning, kind != .unhandled, IncidentTracker.entry(warnings, group) == nil {
            IncidentTracker.set(&warnings, group, finding())
        }
        guard isOpen else { return }
        if kind == .corruptionHandling, case .message(_, let fields) = event {
            state.lastStrategy = fields.first { $0.name == "strategy" }?.value.text
        }
        if IncidentTracker.recoveries.contains(kind) || isCloudStoreInUse(event) {
            state.open?.recovery = finding()
            close(as: .recovered)
        }
    }

    /// The input ended: an incident still open, in any of its processes, is waiting for another
    /// device or unresolved.
    mutating func endInput() {
        closeAtEnd()
        for (other, parkedState) in parked.enumerated() {
            guard let parkedState else { continue }
            group = other
            state = parkedState
            isOpen = state.open != nil
            closeAtEnd()
        }
        parked = []
        parkedCount = 0
    }

    private mutating func closeAtEnd() {
        let waiting = state.lastStrategy?.hasPrefix("Wait for a remote rebuild") == true
        close(as: waiting ? .waiting : .unresolved)
    }

    /// What the incidents of process group `group` say: broken, degraded or healthy, with the
    /// lines that decide it.
    /// `namesProcesses`: the run saw more than one process, and each line says whose it is.
    func verdict(ofGroup group: Int, namesProcesses: Bool) -> (verdict: Verdict, evidence: [String]) {
        func cite(_ finding: Finding) -> String { IncidentTracker.cite(finding, namesProcess: namesProcesses) }
        if let failed = IncidentTracker.entry(firstBroken, group) {
            let how = failed.outcome == .waiting ? "waiting for another device to rebuild the cloud content" : "unresolved at the end of the log"
            return (.broken, [cite(failed.opening) + ", \(how)"])
        }
        if let repaired = IncidentTracker.entry(firstIncident, group) {
            var evidence = [cite(repaired.opening)]
            if let recovery = repaired.recovery { evidence.append("recovered: " + cite(recovery)) }
            if repaired.outcome != .recovered { evidence[0] += ", \(repaired.outcome == .waiting ? "waiting for another device" : "unresolved")" }
            return (.degraded, evidence)
        }
        if let warning = IncidentTracker.entry(warnings, group) {
            return (.degraded, [cite(warning)])
        }
        return (.healthy, [])
    }

    /// `group`'s entry in a table by group (nil beyond its end).
    private static func entry<Value>(_ table: [Value?], _ group: Int) -> Value? {
        group < table.count ? table[group] : nil
    }

    private static func set<Value>(_ table: inout [Value?], _ group: Int, _ value: Value) {
        if group >= table.count { table += Array(repeating: nil, count: group + 1 - table.count) }
        table[group] = value
    }

    /// `a.log:7 store-add-failed: …`, or `a.log:7 kbd[87] store-add-failed: …` when the run
    /// names processes in its evidence.
    static func cite(_ finding: Finding, namesProcess: Bool) -> String {
        let process = namesProcess ? ProcessSummary.name(finding.process, pids: finding.pid.map { [$0] } ?? []) + " " : ""
        return "\(finding.input):\(finding.line) \(process)\(finding.kind.id): \(finding.message)"
    }

    /// `Using local storage: 0`: Core Data took the iCloud store into use.
    private func isCloudStoreInUse(_ event: Event) -> Bool {
        if case .usingLocalStorage(false, _, _) = event { return true }
        return false
    }

    private mutating func close(as outcome: Incident.Outcome) {
        // Taken out, not copied: the state's copy would be released just after.
        guard var incident = state.open.take() else { return }
        incident.outcome = outcome
        if incidents.count < RunSummary.maxKeptFindings { incidents.append(incident) }
        if IncidentTracker.entry(firstIncident, group) == nil { IncidentTracker.set(&firstIncident, group, incident) }
        if outcome != .recovered, incident.hasError, IncidentTracker.entry(firstBroken, group) == nil {
            IncidentTracker.set(&firstBroken, group, incident)
        }
        state.open = nil
        state.lastStrategy = nil
        isOpen = false
    }
}
