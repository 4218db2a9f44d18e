// Failures and corruption grouped into incidents, each with its evidence and its outcome,
// and the verdict they give each input and the run: healthy, degraded or broken.

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

/// How an input, or the run, looks: the answer a person debugging sync wants first.
public enum Verdict: String, Sendable, Comparable, CaseIterable {
    /// No failure, no corruption, no warning.
    case healthy
    /// Problems that recovered, or warnings.
    case degraded
    /// A failure or corruption that did not recover.
    case broken

    private var rank: Int {
        switch self {
        case .healthy: 0
        case .degraded: 1
        case .broken: 2
        }
    }

    public static func < (lhs: Verdict, rhs: Verdict) -> Bool { lhs.rank < rhs.rank }
}

/// An input's verdict with the lines that decide it.
public struct InputVerdict: Sendable, Equatable {
    public var input: String
    public var verdict: Verdict
    /// One or two sentences, each naming an input and line.
    public var evidence: [String]

    public var fields: [Field] {
        [Field("input", .string(input)), Field("verdict", .string(verdict.rawValue)),
         Field("evidence", .list(evidence.map { .string($0) }))]
    }
}

/// Groups problems into incidents as events arrive, one input at a time.
struct IncidentTracker {
    private(set) var incidents: [Incident] = []
    private var open: Incident? {
        didSet { isOpen = open != nil }
    }
    private var lastStrategy: String?
    private var warnings: [String: Finding] = [:]
    /// Per input, the first incident and the first that leaves it broken: kept apart from the
    /// capped list, so that verdicts hold however many incidents a log has.
    private var firstIncident: [String: Incident] = [:]
    private var firstBroken: [String: Incident] = [:]

    /// Warnings that open an incident as errors do: they mean Core Data is repairing something.
    private static let troubleWarnings = KindSet([
        .metadataRecoveryStarted, .baselineRollResponseFailed, .baselineRecoveryScheduled, .containerForked, .storeLoadRetried,
    ])
    /// What sets an incident right.
    private static let recoveries = KindSet([
        .storeLoadSucceeded, .metadataRecovered, .baselineAdopted, .sideLoad, .storeUUIDChanged,
    ])

    /// The `.message` kinds whose facts the tracker reads.
    static let factKinds: [EventKind] = [.corruptionHandling]

    /// Whether an incident is open: then any event may be its recovery. Kept beside `open`
    /// because it is asked for every record, and reading the optional copies the incident.
    private(set) var isOpen = false

    /// A warning or error, or any event while an incident is open (routine events matter only
    /// as a recovery). `finding` is asked for only when it is kept: its message is costly.
    mutating func add(_ event: Event, input: String, finding: () -> Finding) {
        let kind = event.kind
        if kind.severity == .error || IncidentTracker.troubleWarnings.contains(kind) {
            let finding = finding()
            if open == nil {
                open = Incident(input: input, opening: finding, problems: [], problemCount: 0)
                lastStrategy = nil
            }
            open?.problemCount += 1
            if (open?.problems.count ?? 0) < Incident.maxEvidence { open?.problems.append(finding) }
        } else if kind.severity == .warning, kind != .unhandled, warnings[input] == nil {
            warnings[input] = finding()
        }
        guard isOpen else { return }
        if kind == .corruptionHandling, case .message(_, let fields) = event {
            lastStrategy = fields.first { $0.name == "strategy" }.flatMap { if case .string(let text) = $0.value { text } else { nil } }
        }
        if IncidentTracker.recoveries.contains(kind) || isCloudStoreInUse(event) {
            open?.recovery = finding()
            close(as: .recovered)
        }
    }

    /// The input ended: an incident still open is waiting for another device or unresolved.
    mutating func endInput() {
        let waiting = lastStrategy?.hasPrefix("Wait for a remote rebuild") == true
        close(as: waiting ? .waiting : .unresolved)
    }

    /// The verdict of each input, in the order given.
    func verdicts(inputs: [String]) -> [InputVerdict] {
        inputs.map { input in
            if let failed = firstBroken[input] {
                let how = failed.outcome == .waiting ? "waiting for another device to rebuild the cloud content" : "unresolved at the end of the log"
                return InputVerdict(input: input, verdict: .broken, evidence: [IncidentTracker.cite(failed.opening) + ", \(how)"])
            }
            if let repaired = firstIncident[input] {
                var evidence = [IncidentTracker.cite(repaired.opening)]
                if let recovery = repaired.recovery { evidence.append("recovered: " + IncidentTracker.cite(recovery)) }
                if repaired.outcome != .recovered { evidence[0] += ", \(repaired.outcome == .waiting ? "waiting for another device" : "unresolved")" }
                return InputVerdict(input: input, verdict: .degraded, evidence: evidence)
            }
            if let warning = warnings[input] {
                return InputVerdict(input: input, verdict: .degraded, evidence: [IncidentTracker.cite(warning)])
            }
            return InputVerdict(input: input, verdict: .healthy, evidence: [])
        }
    }

    static func cite(_ finding: Finding) -> String { "\(finding.input):\(finding.line) \(finding.kind.id): \(finding.message)" }

    /// `Using local storage: 0`: Core Data took the iCloud store into use.
    private func isCloudStoreInUse(_ event: Event) -> Bool {
        if case .usingLocalStorage(false, _, _) = event { return true }
        return false
    }

    private mutating func close(as outcome: Incident.Outcome) {
        guard var incident = open else { return }
        incident.outcome = outcome
        if incidents.count < RunSummary.maxKeptFindings { incidents.append(incident) }
        if firstIncident[incident.input] == nil { firstIncident[incident.input] = incident }
        if outcome != .recovered, incident.hasError, firstBroken[incident.input] == nil { firstBroken[incident.input] = incident }
        open = nil
        lastStrategy = nil
    }
}
