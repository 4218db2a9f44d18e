// Failures and corruption of the ubiquity stack grouped into incidents, each with its evidence
// and its outcome, and the verdict they give each process group.

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

/// Groups problems into incidents as events arrive, one input at a time and, within it, one
/// process at a time: an incident a daemon opens is never recovered by the app's store load.
/// A process group is an index the summary gives each (input, process) pair.
struct IncidentTracker {
    private(set) var incidents: [Incident] = []
    /// The current group's open incident and the corruption strategy last announced in it.
    private struct State {
        var open: Incident?
        var lastStrategy: String?
        /// The stores whose loads failed in the open incident, by file name (`""`: a failure
        /// that names none), at most `maxFailedStores`.
        var failedStores: [String] = []
    }
    private static let maxFailedStores = 8
    /// Changed in place, with `isOpen` set where an incident opens or closes or the state is
    /// swapped: nothing may read `state.open` at every change (a `didSet` would), which copies
    /// the whole incident, its findings and their texts.
    private var state = State()
    private var group = 0
    /// The other groups' states with an open incident while the current one runs (processes
    /// interleave), with their groups: few at a time (nearly always none), so looked for one
    /// by one. Not an array by group, which grows with every group of every earlier input and
    /// which each input's end would walk; not a dictionary, which would hash the group at each
    /// switch and cost the run dearly at its first use.
    private var parked: [(group: Int, state: State)] = []
    /// Per group (groups are numbered from 0 as they are met), its first warning, its first
    /// incident and the first that leaves it broken: kept apart from the capped list, so that
    /// verdicts hold however many incidents a log has. Tables by group (`ByGroup`), not
    /// dictionaries, which would hash the group at each look-up and grow on their first
    /// insertions.
    private var warnings = ByGroup<Finding>()
    private var firstIncident = ByGroup<Incident>()
    private var firstBroken = ByGroup<Incident>()

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

    /// Other families' kinds that an open incident reads as its recovery: a mirroring set-up
    /// that succeeded (Core Data sets mirroring up only for a store it has added).
    static let othersRead = KindSet([.cloudKitSetupSucceeded])

    /// Whether an incident is open: then any event may be its recovery. Kept beside `state`
    /// because it is asked for every record, and reading the optional copies the incident.
    private(set) var isOpen = false

    /// The records that follow belong to process group `next`.
    mutating func switchGroup(to next: Int) {
        guard next != group else { return }
        // `isOpen`, not `state.open != nil`, which copies the whole incident; processes
        // interleave, so switches are frequent.
        // A state without an open incident is empty (`close` empties it; the strategy is
        // only set while one is open), and is left as it is, not replaced by a new one: a
        // state is an incident's worth of bytes, and no switch may write, copy or destroy one
        // that holds nothing.
        if isOpen {
            var leaving = State()
            swap(&leaving, &state)
            parked.append((group, leaving))
            isOpen = false
        }
        group = next
        // Nearly always nothing is parked (no incident is open).
        if !parked.isEmpty, let index = parked.firstIndex(where: { $0.group == next }) {
            state = parked.remove(at: index).state
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
            if let store = IncidentTracker.failedStore(event), !state.failedStores.contains(store),
               state.failedStores.count < IncidentTracker.maxFailedStores {
                state.failedStores.append(store)
            }
            // The finding is made only when kept: its message is costly.
            if (state.open?.problems.count ?? 0) < Incident.maxEvidence { state.open?.problems.append(finding()) }
        } else if kind.severity == .warning, kind != .unhandled, warnings[group] == nil {
            warnings[group] = finding()
        }
        guard isOpen else { return }
        if kind == .corruptionHandling, case .message(_, let fields) = event {
            state.lastStrategy = fields.first { $0.name == "strategy" }?.value.text
        }
        if IncidentTracker.recoveries.contains(kind) || isCloudStoreInUse(event) || setsUpFailedStore(event) {
            state.open?.recovery = finding()
            close(as: .recovered)
        }
    }

    /// The input ended: an incident still open, in any of its processes, is waiting for another
    /// device or unresolved.
    mutating func endInput() {
        closeAtEnd()
        for (other, parkedState) in parked.sorted(by: { $0.group < $1.group }) {
            group = other
            state = parkedState
            isOpen = state.open != nil
            closeAtEnd()
        }
        parked = []
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
        if let failed = firstBroken[group] {
            let how = failed.outcome == .waiting ? "waiting for another device to rebuild the cloud content" : "unresolved at the end of the log"
            return (.broken, [cite(failed.opening) + ", \(how)"])
        }
        if let repaired = firstIncident[group] {
            var evidence = [cite(repaired.opening)]
            if let recovery = repaired.recovery { evidence.append("recovered: " + cite(recovery)) }
            if repaired.outcome != .recovered { evidence[0] += ", \(repaired.outcome == .waiting ? "waiting for another device" : "unresolved")" }
            return (.degraded, evidence)
        }
        if let warning = warnings[group] {
            return (.degraded, [cite(warning)])
        }
        return (.healthy, [])
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

    /// The store a failed load of Core Data's or the app's names, by file name (`""`: none);
    /// nil for any other event. (UbiquityStoreManager's failed loads of its cloud or local
    /// store are not among them: a mirroring set-up says nothing of those.)
    private static func failedStore(_ event: Event) -> String? {
        switch event {
        case .storeAddFailed(_, let url, let error): (url ?? error?.filePath).map(Extract.storeFileName) ?? ""
        case .message(.appStoreLoadFailed, _): event.error?.filePath.map(Extract.storeFileName) ?? ""
        default: nil
        }
    }

    /// Whether `event` is a mirroring set-up that succeeded for a store whose load failed in the
    /// open incident: that store was added after all. As the CloudKit family judges a failed
    /// set-up, a failure that names no store is overcome by any set-up, and a set-up that names
    /// none overcomes any failed load.
    private func setsUpFailedStore(_ event: Event) -> Bool {
        guard case .message(.cloudKitSetupSucceeded, let fields) = event, !state.failedStores.isEmpty else { return false }
        guard let store = CloudKitTracker.setupStore(Facts(fields)) else { return true }
        return state.failedStores.contains("") || state.failedStores.contains(store)
    }

    private mutating func close(as outcome: Incident.Outcome) {
        // Taken out, not copied: the state's copy would be released just after.
        guard var incident = state.open.take() else { return }
        incident.outcome = outcome
        if incidents.count < RunSummary.maxKeptFindings { incidents.append(incident) }
        if firstIncident[group] == nil { firstIncident[group] = incident }
        if outcome != .recovered, incident.hasError, firstBroken[group] == nil {
            firstBroken[group] = incident
        }
        state.open = nil
        state.lastStrategy = nil
        state.failedStores = []
        isOpen = false
    }
}
