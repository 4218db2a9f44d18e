// Counts over a whole run and the findings that decide the exit status: lines and
// records read, store loads, transactions, import failures, corruption, unhandled records.

/// An event of error or warning severity, kept with the evidence behind it.
public struct Finding: Sendable, Equatable {
    public var kind: EventKind
    public var input: String
    public var line: Int
    public var time: LogTime?
    /// One line saying what happened, as the timeline shows it.
    public var message: String
}

public struct StoreLoadCounts: Sendable, Equatable {
    public var attempted = 0
    public var succeeded: [StoreLocation: Int] = [:]
    public var failed: [StoreLocation: Int] = [:]

    public var totalSucceeded: Int { succeeded.values.reduce(0, +) }
    public var totalFailed: Int { failed.values.reduce(0, +) }
}

public struct RunSummary: Sendable {
    public var inputs: [String] = []
    public var unreadableInputs: [InputError] = []
    public var lines = 0
    public var records = 0
    /// Records of Core Data or UbiquityStoreManager (everything but the app's own lines).
    public var ubiquityRecords = 0
    public var unhandled = 0
    /// Unhandled records on which a rule hit PCRE2's match limit.
    public var matchLimitHits = 0
    public var truncatedRecords = 0
    /// Records passed over for lying outside `--since`/`--until` (counted in `records`).
    public var outsideTimeWindow = 0
    public var storeLoads = StoreLoadCounts()
    /// Each store load attempt, the first `maxKeptFindings` of them.
    public var storeLoadAttempts: [StoreLoad] = []
    /// Switches from the fallback store to the iCloud store.
    public var localStorageSwitches: [LocalStorageSwitch] = []
    /// Failures and corruption grouped with their outcome, the first `maxKeptFindings`.
    public var incidents: [Incident] = []
    /// Each input's verdict, in input order, and the run's (the worst of them).
    public var verdicts: [InputVerdict] = []
    public var verdict: Verdict = .healthy
    /// Transaction logs: who wrote each and how each import went (the first `maxKeptFindings`).
    public var transactionLogs: [TransactionLogStory] = []
    /// Object changes per entity.
    public var entities: [String: EntityChanges] = [:]
    /// One device per input, and the sentences that tie them together.
    public var devices: [Device] = []
    public var correlations: [String] = []
    public var transactionsExported = 0
    public var transactionsImported = 0
    public var objectChangesExported = 0
    public var objectChangesImported = 0
    /// Import failures and corruption reports: counts are exact, lists keep the first
    /// `maxKeptFindings` as evidence.
    public var importFailureCount = 0
    public var importFailures: [Finding] = []
    public var corruptionReportCount = 0
    public var corruptionReports: [Finding] = []
    public var errors = 0
    public var warnings = 0
    /// Error and warning findings, in log order, the first `maxKeptFindings` of them.
    public var findings: [Finding] = []
    public var countsByKind: [String: Int] = [:]

    /// Findings kept in memory; counts stay exact beyond it.
    public static let maxKeptFindings = 1000

    public init() {}

    /// Unhandled records as a share of ubiquity records, in percent.
    public var unhandledPercent: Double {
        ubiquityRecords == 0 ? 0 : Double(unhandled) * 100 / Double(ubiquityRecords)
    }
}

/// Builds a `RunSummary` from classified records as they arrive.
public struct SummaryBuilder {
    private var counts = RunSummary()
    /// UbiquityStoreManager's detections of import failures. Core Data's own report is the
    /// better evidence (it names the log and the error); a detection stands in for it only
    /// in an input where Core Data reported none (its verbose logging was off).
    private var detectedImportFailures: [Finding] = []
    /// Records per kind, by the kind's ordinal (an array: no hashing per record).
    private var kindCounts: [(kind: EventKind, count: Int)] = []

    public var summary: RunSummary {
        var summary = counts
        for (kind, count) in kindCounts where count > 0 { summary.countsByKind[kind.id] = count }
        var loads = self.loads
        loads.endInput()
        summary.storeLoads = loads.counts
        summary.storeLoadAttempts = loads.loads
        summary.localStorageSwitches = loads.switches
        var incidents = self.incidents
        incidents.endInput()
        summary.incidents = incidents.incidents
        summary.verdicts = incidents.verdicts(inputs: counts.inputs)
        summary.verdict = summary.verdicts.map(\.verdict).max() ?? .healthy
        summary.transactionLogs = logs.stories
        summary.entities = logs.entities
        summary.devices = logs.devices
        summary.correlations = logs.correlations()
        let reported = Set(counts.importFailures.map(\.input))
        let standIns = detectedImportFailures.filter { !reported.contains($0.input) }
        guard !standIns.isEmpty else { return summary }
        let order = Dictionary(counts.inputs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        summary.importFailures = (counts.importFailures + standIns)
            .sorted { (order[$0.input] ?? 0, $0.line) < (order[$1.input] ?? 0, $1.line) }
            .prefix(RunSummary.maxKeptFindings).map { $0 }
        summary.importFailureCount += standIns.count
        return summary
    }
    private var loads = StoreLoadTracker()
    private var incidents = IncidentTracker()
    private var logs = TransactionLogTracker()

    public init() {}

    /// Whether the summary reads the facts of events of `kind`: the trackers read those of a
    /// few kinds; findings (warnings and errors) cite an event by its `Headline`, which shows
    /// the error the event carries.
    public static func readsFacts(of kind: EventKind) -> Bool { kind.severity >= .warning || factKinds.contains(kind) }
    private static let factKinds = KindSet(StoreLoadTracker.factKinds + TransactionLogTracker.factKinds + IncidentTracker.factKinds)

    public mutating func beginInput(_ name: String) {
        loads.endInput()
        incidents.endInput()
        logs.beginInput(name)
        counts.inputs.append(name)
    }
    public mutating func inputFailed(_ error: InputError) { counts.unreadableInputs.append(error) }
    public mutating func countLines(_ count: Int) { counts.lines += count }

    public mutating func countOutsideWindow() {
        counts.records += 1
        counts.outsideTimeWindow += 1
    }

    public mutating func add(_ record: Record, _ event: Event, message: @autoclosure () -> String) {
        counts.records += 1
        let kind = event.kind
        if kind.ordinal >= kindCounts.count { kindCounts += Array(repeating: (kind, 0), count: kind.ordinal + 1 - kindCounts.count) }
        if kindCounts[kind.ordinal].count == 0 { kindCounts[kind.ordinal].kind = kind }
        kindCounts[kind.ordinal].count += 1
        if record.isTruncated { counts.truncatedRecords += 1 }
        // A pattern, not `!=`: comparing with `.app` ran the enum's whole equality.
        if case .app = event {} else { counts.ubiquityRecords += 1 }
        loads.add(record, event)
        logs.add(record, event)
        // A finding (its message is costly) is made once, for what keeps one: warnings and
        // errors, and the event that ends an open incident.
        var made: Finding?
        func finding() -> Finding {
            if let made { return made }
            let finding = Finding(kind: kind, input: record.input, line: record.firstLine, time: record.header?.time, message: message())
            made = finding
            return finding
        }
        if kind.severity >= .warning || incidents.isOpen { incidents.add(event, input: record.input, finding: finding) }

        switch event {
        case .unhandled(let limitHit):
            counts.unhandled += 1
            if limitHit { counts.matchLimitHits += 1 }
        case .transactionLogWritten:
            counts.transactionsExported += 1
        case .objectsExported(let changes):
            counts.objectChangesExported += changes.count
        case .changesImported(let changes):
            counts.transactionsImported += 1
            counts.objectChangesImported += changes.count
        default:
            break
        }

        guard kind.severity >= .warning, kind != .unhandled else { return }
        let finding = finding()
        if kind.severity == .error { counts.errors += 1 } else { counts.warnings += 1 }
        if counts.findings.count < RunSummary.maxKeptFindings { counts.findings.append(finding) }
        if kind == .importFailed {
            counts.importFailureCount += 1
            if counts.importFailures.count < RunSummary.maxKeptFindings { counts.importFailures.append(finding) }
        } else if kind == .importFailureDetected {
            if detectedImportFailures.count < RunSummary.maxKeptFindings { detectedImportFailures.append(finding) }
        } else if kind.category == .corruption, kind.severity == .error {
            counts.corruptionReportCount += 1
            if counts.corruptionReports.count < RunSummary.maxKeptFindings { counts.corruptionReports.append(finding) }
        }
    }
}
