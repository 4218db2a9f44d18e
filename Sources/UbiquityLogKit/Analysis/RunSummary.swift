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
    public var storeLoads = StoreLoadCounts()
    public var transactionsExported = 0
    public var transactionsImported = 0
    public var objectChangesExported = 0
    public var objectChangesImported = 0
    public var importFailures: [Finding] = []
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
    public private(set) var summary = RunSummary()
    /// The store load under way in each input, for attributing outcomes to attempts.
    private var pendingLoad: [String: StoreLocation] = [:]

    public init() {}

    public mutating func beginInput(_ name: String) { summary.inputs.append(name) }
    public mutating func inputFailed(_ error: InputError) { summary.unreadableInputs.append(error) }
    public mutating func countLines(_ count: Int) { summary.lines += count }

    public mutating func add(_ record: Record, _ event: Event, message: @autoclosure () -> String) {
        summary.records += 1
        summary.countsByKind[event.kind.id, default: 0] += 1
        if record.isTruncated { summary.truncatedRecords += 1 }
        if event != .app { summary.ubiquityRecords += 1 }
        countStoreLoad(event, input: record.input)

        switch event {
        case .unhandled(let limitHit):
            summary.unhandled += 1
            if limitHit { summary.matchLimitHits += 1 }
        case .transactionLogWritten:
            summary.transactionsExported += 1
        case .objectsExported(let changes):
            summary.objectChangesExported += changes.count
        case .changesImported(let changes):
            summary.transactionsImported += 1
            summary.objectChangesImported += changes.count
        default:
            break
        }

        let kind = event.kind
        guard kind.severity >= .warning, kind != .unhandled else { return }
        if kind.severity == .error { summary.errors += 1 } else { summary.warnings += 1 }
        let finding = Finding(kind: kind, input: record.input, line: record.firstLine, time: record.header?.time, message: message())
        if summary.findings.count < RunSummary.maxKeptFindings { summary.findings.append(finding) }
        if kind == .importFailed || kind == .importFailureDetected {
            summary.importFailures.append(finding)
        } else if kind.category == .corruption, kind.severity == .error {
            summary.corruptionReports.append(finding)
        }
    }

    /// A load is one attempt from its start to its outcome. Core Data's own add-store failure
    /// during a store manager's attempt belongs to that attempt; on its own it is an attempt.
    private mutating func countStoreLoad(_ event: Event, input: String) {
        switch event {
        case .storeLoadStarted(let location, _):
            summary.storeLoads.attempted += 1
            pendingLoad[input] = location
        case .storeLoadSucceeded(let location):
            if pendingLoad.removeValue(forKey: input) == nil { summary.storeLoads.attempted += 1 }
            summary.storeLoads.succeeded[location, default: 0] += 1
        case .storeLoadFailed(let location, _):
            if pendingLoad.removeValue(forKey: input) == nil { summary.storeLoads.attempted += 1 }
            summary.storeLoads.failed[location, default: 0] += 1
        case .storeAddFailed:
            if pendingLoad[input] == nil {
                summary.storeLoads.attempted += 1
                summary.storeLoads.failed[.unknown, default: 0] += 1
            }
        default:
            break
        }
    }
}
