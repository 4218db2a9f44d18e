// The ubiquity family: Core Data's iCloud ubiquity logging, its `CoreData: error:` lines and
// UbiquityStoreManager's messages, one story told by three writers. Its tracker follows store
// loads, transaction logs across devices and incidents of failure and corruption.
import CByteScan

extension FamilyID {
    public static let ubiquity = FamilyID("ubiquity")
}

extension EventKind {
    /// A kind of the ubiquity family.
    convenience init(_ id: String, _ category: Category, _ severity: Severity, _ tier: Tier, _ summary: String) {
        self.init(id, category, severity, tier, summary, family: .ubiquity)
    }

    public static let coreDataError = EventKind("core-data-error", .store, .warning, .notable,
        "A `CoreData: error:` line that no more specific rule recognises.")
}

extension Rule {
    /// `Rule.phrases` on the `CoreData: Ubiquity:` channel.
    static func phrases(_ id: String, _ kind: EventKind, _ phrases: [String], position: RulePosition = .lineStart, methods: [String] = [],
                        numeric: Set<String> = [], samples: @autoclosure @escaping @Sendable () -> [String]) -> Rule {
        Rule.phrases(id, kind, phrases, position: position, methods: methods, channel: .ubiquity, numeric: numeric, samples: samples())
    }
}

extension Marker {
    /// `CoreData: Ubiquity:`: Core Data's iCloud code.
    public static let ubiquity = Marker(readerCode: Int32(CBYTESCAN_UBIQUITY), name: "ubiquity")
    /// `CoreData: error:`: Core Data's own error lines.
    public static let coreDataError = Marker(readerCode: Int32(CBYTESCAN_CORE_DATA_ERROR), name: "coredata-error")
    /// `UbiquityStoreManager:`: the open-source store manager.
    public static let storeManager = Marker(readerCode: Int32(CBYTESCAN_STORE_MANAGER), name: "store-manager")
}

extension Channel {
    /// `CoreData: Ubiquity:` records: patterns may start at the beginning of any line of the
    /// message, as older OS versions print the logging object's description first.
    public static let ubiquity = Channel("ubiquity", family: .ubiquity, shape: .lines, marker: .ubiquity)
    /// `CoreData: error:` records; one no rule recognises is a `core-data-error`.
    public static let coreDataError = Channel("coreDataError", family: .ubiquity, shape: .lines, marker: .coreDataError) { record, _ in
        let event = Event.message(.coreDataError, [Field("message", .string(record.firstBodyText))])
        return SystemStores.recast(record, Classification(event: event, rule: nil, matchStart: nil)) ?? event
    }
    /// UbiquityStoreManager's messages: with its own marker, or re-prefixed by an app's logger
    /// (so these rules are also tried, at the message start, on records without a marker).
    public static let storeManager = Channel("storeManager", family: .ubiquity, shape: .startPastLoggerTag, marker: .storeManager,
                                             readsUnmarked: true)
}

extension Family {
    public static let ubiquity = Family(
        id: .ubiquity, recordNoun: "ubiquity",
        markers: [
            MarkerSpelling(.ubiquity, "CoreData: Ubiquity:", repeats: true),
            MarkerSpelling(.coreDataError, "CoreData: error:"),
            MarkerSpelling(.coreDataError, "CoreData: fault:"),
            // Some OS versions spell the framework's name with a space.
            MarkerSpelling(.coreDataError, "Core Data: error:"),
            // Core Data's fault for an error returned without one is known by its words.
            MarkerSpelling(.coreDataError, "CoreData: Illegal attempt ", messageAfter: "CoreData: "),
            MarkerSpelling(.storeManager, "UbiquityStoreManager:"),
        ],
        // The delegate method through which an app hands UbiquityStoreManager's messages to its
        // own logger: such a record holds one of the manager's messages, without its marker.
        markerMethods: [MarkerMethod(.storeManager, endingWith: "ubiquityStoreManager:log:]")],
        channels: [.ubiquity, .coreDataError, .storeManager, .coreDataUnmarked],
        rules: StoreLoadFailureRules.all + StoreRules.all + ExportRules.all + ImportRules.all + BaselineRules.all + SetupRules.all + StoreManagerRules.all
            + BaselineLifecycleRules.all + ImportOperationRules.all + TransactionLogRules.all + FileAndMetadataRules.all
            + SetupAssistantRules.all,
        guidance: Guidance.byKind.merging(StoreLoadFailureRules.guidance) { own, _ in own },
        categoryGuidance: Guidance.byCategory,
        ownKinds: [.coreDataError, .systemStore],
        factKinds: StoreLoadTracker.factKinds + TransactionLogTracker.factKinds + IncidentTracker.factKinds,
        errorCodes: ErrorCode.ubiquityCodes,
        errorCodeFallback: { ErrorCode.ubiquityFallback(domain: $0, code: $1) },
        timelineRoles: UbiquityTimeline.roles,
        makeTracker: { UbiquityTracker() },
        makeReviewer: { UbiquityRecordReviewer() })
}

/// What the ubiquity family's records told a run.
public struct UbiquityStory: Sendable {
    public var storeLoads = StoreLoadCounts()
    /// Each store load attempt, the first `RunSummary.maxKeptFindings` of them.
    public var storeLoadAttempts: [StoreLoad] = []
    /// Switches from the fallback store to the iCloud store.
    public var localStorageSwitches: [LocalStorageSwitch] = []
    /// Failures and corruption grouped with their outcome, the first `RunSummary.maxKeptFindings`.
    public var incidents: [Incident] = []
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
    /// `RunSummary.maxKeptFindings` as evidence.
    public var importFailureCount = 0
    public var importFailures: [Finding] = []
    public var corruptionReportCount = 0
    public var corruptionReports: [Finding] = []
    /// Stores of system frameworks met in the app's processes (`system-store` events), in the
    /// order first met: judged apart, never the app's (the first `maxKeptFindings`).
    public var systemStores: [SystemStore] = []

    public init() {}
}

extension RunSummary {
    /// The ubiquity family's story; empty when the run holds none of its records.
    public var ubiquity: UbiquityStory { story(UbiquityStory.self) ?? UbiquityStory() }
}

public struct StoreLoadCounts: Sendable, Equatable {
    public var attempted = 0
    public var succeeded: [StoreLocation: Int] = [:]
    public var failed: [StoreLocation: Int] = [:]

    public var totalSucceeded: Int { succeeded.values.reduce(0, +) }
    public var totalFailed: Int { failed.values.reduce(0, +) }
}

/// Follows the ubiquity family's records through a run: store loads, transaction logs and
/// incidents, each by process group.
final class UbiquityTracker: FamilyTracker {
    // Used by the summarising stage alone, one call at a time: Swift's run-time exclusivity
    // check on each access (a class's stored properties get one) is left out, as for the
    // summary builder.
    @exclusivity(unchecked) private var loads = StoreLoadTracker()
    @exclusivity(unchecked) private var incidents = IncidentTracker()
    @exclusivity(unchecked) private var logs = TransactionLogTracker()
    @exclusivity(unchecked) private var told = UbiquityStory()
    /// UbiquityStoreManager's detections of import failures. Core Data's own report is the
    /// better evidence (it names the log and the error); a detection stands in for it only
    /// in an input where Core Data reported none (its verbose logging was off).
    @exclusivity(unchecked) private var detectedImportFailures: [Finding] = []
    /// The last import an exception stopped: its input, thread and log.
    @exclusivity(unchecked) private var stoppedImport: (input: String, thread: String?, log: String)?

    func interest(in kind: EventKind) -> TrackerInterest {
        if kind.severity >= .warning || kind == .systemStore || StoreLoadTracker.kinds.contains(kind) || TransactionLogTracker.kinds.contains(kind) { return .every }
        return IncidentTracker.kindsWhileOpen.contains(kind) ? .some : .none
    }

    func reads(other kind: EventKind) -> Bool { IncidentTracker.othersRead.contains(kind) }

    /// Kinds an incident reads only while one is open (as its recovery, or what tells one).
    func wants(_ record: borrowing Record, _ event: borrowing Event, ordinal: Int) -> Bool { incidents.isOpen }

    func beginInput(_ name: String) {
        loads.endInput()
        incidents.endInput()
        logs.beginInput(name)
    }

    func switchGroup(to group: Int, input: String, process: () -> String?) {
        loads.switchGroup(to: group, process: process)
        incidents.switchGroup(to: group)
    }

    func add(_ record: Record, _ event: Event, finding: () -> Finding) {
        let kind = event.kind
        let repeatsFailure = isSecondReport(record, event)
        if StoreLoadTracker.kinds.contains(kind) { loads.add(record, event) }
        if TransactionLogTracker.kinds.contains(kind), !repeatsFailure { logs.add(record, event) }
        switch event {
        case .message(.systemStore, let fields):
            noteSystemStore(record, fields, finding: finding)
        case .transactionLogWritten:
            told.transactionsExported.saturatingAdd(1)
        case .objectsExported(let changes):
            told.objectChangesExported.saturatingAdd(changes.count)
        case .changesImported(let changes):
            told.transactionsImported.saturatingAdd(1)
            told.objectChangesImported.saturatingAdd(changes.count)
        default:
            break
        }
        // An open incident reads routine events only as its recovery.
        let isWarning = kind.severity >= .warning
        if isWarning || (incidents.isOpen && (IncidentTracker.kindsWhileOpen.contains(kind) || IncidentTracker.othersRead.contains(kind))) {
            incidents.add(event, input: record.input, finding: finding)
        }
        guard isWarning, kind != .unhandled else { return }
        if kind == .importFailed {
            if repeatsFailure { return }
            told.importFailureCount.saturatingAdd(1)
            if told.importFailures.count < RunSummary.maxKeptFindings { told.importFailures.append(finding()) }
        } else if kind == .importFailureDetected {
            if detectedImportFailures.count < RunSummary.maxKeptFindings { detectedImportFailures.append(finding()) }
        } else if kind.category == .corruption, kind.severity == .error {
            told.corruptionReportCount.saturatingAdd(1)
            if told.corruptionReports.count < RunSummary.maxKeptFindings { told.corruptionReports.append(finding()) }
        }
    }

    /// Whether `event` is the importer's report (error 134060, linked to its log by
    /// `UbiquityRecordReviewer`) of a failure the import operation reported just before as
    /// an exception: one failed import, told once in the counts and the log's story.
    private func isSecondReport(_ record: Record, _ event: Event) -> Bool {
        switch event {
        case .message(.importFailed, let fields):
            let log = fields.first { $0.name == "log" }?.value.text
            stoppedImport = log.map { (record.input, record.string(.thread), $0) }
            return false
        case .importFailed(let log?, _):
            guard let stopped = stoppedImport, stopped.input == record.input, stopped.thread == record.string(.thread),
                  stopped.log == log else { return false }
            stoppedImport = nil
            return true
        default:
            return false
        }
    }

    /// A system framework's store: counted under its path (per input and process) and by the
    /// kind each record has, its first place kept, and its first record of the worst severity no entry of
    /// `BenignFindings` always excuses, as the evidence of its own verdict.
    private func noteSystemStore(_ record: Record, _ fields: [Field], finding: () -> Finding) {
        guard let store = fields.first(where: { $0.name == "store" })?.value.text else { return }
        let severity = fields.first { $0.name == "severity" }?.value.text.flatMap(Severity.init(rawValue:)) ?? .warning
        let kind = fields.first { $0.name == "kind" }?.value.text ?? EventKind.systemStore.id
        let process = record.string(.process)
        let index: Int
        if let found = told.systemStores.firstIndex(where: { $0.store == store && $0.input == record.input && $0.process == process }) {
            index = found
            told.systemStores[index].records.saturatingAdd(1)
            told.systemStores[index].severity = max(told.systemStores[index].severity, severity)
        } else if told.systemStores.count < RunSummary.maxKeptFindings {
            index = told.systemStores.count
            told.systemStores.append(SystemStore(store: store, input: record.input, process: process, pid: record.pid,
                                                 line: record.firstLine, records: 1, severity: severity))
        } else {
            return
        }
        told.systemStores[index].kinds[kind, default: 0].saturatingAdd(1)
        guard !SystemStores.isAlwaysBenign(kind), severity > told.systemStores[index].unexcused ?? .info else { return }
        told.systemStores[index].unexcused = severity
        told.systemStores[index].worstLine = record.firstLine
        told.systemStores[index].worstKind = kind
        told.systemStores[index].worstMessage = SystemStores.ownMessage(finding().message, store: store)
    }

    func ending(inputs: [String]) -> FamilyEnding {
        let order = Dictionary(inputs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var story = told
        var loads = self.loads
        loads.endInput()
        story.storeLoads = loads.counts
        // Loads close in the order their processes' records end; shown in log order, each
        // one's input looked up once rather than at each comparison.
        let loadOrder = loads.loads.enumerated().map { (order[$1.input] ?? 0, $1.line, $0) }
        story.storeLoadAttempts = loadOrder.sorted { $0 < $1 }.map { loads.loads[$0.2] }
        story.localStorageSwitches = loads.switches
        var incidents = self.incidents
        incidents.endInput()
        let incidentOrder = incidents.incidents.enumerated().map { (order[$1.input] ?? 0, $1.opening.line, $0) }
        story.incidents = incidentOrder.sorted { $0 < $1 }.map { incidents.incidents[$0.2] }
        story.transactionLogs = logs.stories
        story.entities = logs.entities
        story.devices = logs.devices
        story.correlations = logs.correlations()
        let reported = Set(story.importFailures.map(\.input))
        let standIns = detectedImportFailures.filter { !reported.contains($0.input) }
        if !standIns.isEmpty {
            story.importFailures = (story.importFailures + standIns)
                .sorted { (order[$0.input] ?? 0, $0.line) < (order[$1.input] ?? 0, $1.line) }
                .prefix(RunSummary.maxKeptFindings).map { $0 }
            story.importFailureCount.saturatingAdd(standIns.count)
        }
        let closed = incidents
        return FamilyEnding(story: story, verdict: { group, namesProcesses in closed.verdict(ofGroup: group, namesProcesses: namesProcesses) },
                            systemStores: story.systemStores)
    }
}
