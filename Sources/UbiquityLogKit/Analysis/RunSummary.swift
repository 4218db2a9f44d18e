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
    /// Records passed over for coming from a process `--process` did not name (counted in `records`).
    public var otherProcesses = 0
    /// The processes `--process` named (empty: every process was read).
    public var selectedProcesses: [String] = []
    /// Lines read per input, in input order.
    public var linesPerInput: [String: Int] = [:]
    /// Each process with sync records, per input in order of first appearance.
    public var processes: [ProcessSummary] = []
    /// How many processes the headers named (app lines too): above one, the timeline and the
    /// evidence name the process of each line.
    public var processCount = 0
    public var storeLoads = StoreLoadCounts()
    /// Each store load attempt, the first `maxKeptFindings` of them.
    public var storeLoadAttempts: [StoreLoad] = []
    /// Switches from the fallback store to the iCloud store.
    public var localStorageSwitches: [LocalStorageSwitch] = []
    /// Failures and corruption grouped with their outcome, the first `maxKeptFindings`.
    public var incidents: [Incident] = []
    /// Each input's verdict, in input order (unreadable inputs too), and the run's (the worst
    /// of them) with why it is `no-evidence` or `unknown`.
    public var verdicts: [InputVerdict] = []
    public var verdict: Verdict = .healthy
    public var verdictReason: String?
    /// Whether the run fails `--fail-on`, and why (set when the run ends).
    public var outcome: RunOutcome?
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
    /// What the CloudKit mirroring records say; nil when the run has none.
    public var cloudKit: CloudKitStory?

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
    /// Each kind's count of records, what the summary does with its records (`Acts`, empty for
    /// a kind not met yet) and the kind itself, by the kind's ordinal: arrays of plain values,
    /// no hashing and nothing retained per record (see `add`).
    private var kindCounts: [Int] = []
    private var kindActs: [Acts] = []
    private var kindsMet: [EventKind?] = []
    /// The group the trackers were last told of (`switchGroup`): told when it changes, not for
    /// every record.
    private var trackersGroup = -1
    /// Each (input, process) pair's records; the index is the pair's group in the trackers.
    private var groups: [ProcessSummary] = []
    /// Each group's count of records, and of each family's records and unrecognised ones (by
    /// `group * SyncFamily.all.count + family`): counted for every record, so kept as integers
    /// apart from `groups`, whose summaries take them in at the end (`countedGroups`).
    private var groupRecords: [Int] = []
    private var familyRecords: [Int] = []
    private var familyUnhandled: [Int] = []
    /// The groups of the current input, by process (`unnamedGroup`: of records whose headers
    /// name none); emptied when an input begins. Keyed by the process's name alone: keyed by a
    /// struct of input and process, the table's first group cost the run some 237,000
    /// instructions (the key type's `Hashable` conformance looked up; callgrind, 3 MB default
    /// mix, -q).
    private var groupIndex: [String: Int] = [:]
    private var unnamedGroup: Int?
    /// The group of the record before, and the bytes of the process it was found by (when it
    /// had one): records of one process mostly follow each other, and the next one's process
    /// is compared with these where it lies in its header (see `KeptText`) before a String is
    /// made of it. (The group's String is made only when the process changes.)
    private var group: Int?
    private var groupProcessBytes = KeptText()
    /// Groups of this input met lately, by process: processes interleave, and looking the
    /// next one up in `groupIndex` (with `processNames.insert`) hashed its name at every
    /// switch, some 400 instructions (callgrind, 3 MB of ~420-byte records). A few are kept,
    /// each replaced in turn, so that a console of many processes scans no long list.
    /// Each with its process's bytes (see `groupOfOther`).
    private var recentGroups: [(process: String?, bytes: KeptText, group: Int)] = []
    private var nextRecentGroup = 0
    private static let recentGroupCount = 8
    /// `groups[group].process`, kept apart: reading it through the array copied the group's
    /// summary (its lists and texts) out for every record whose header texts changed.
    private var groupProcess: String?
    private var lastPid: Int?
    /// The group of the last sync record in the input: a headerless line is its process's.
    private var lastSyncGroup: Int?
    private var processNames: Set<String> = []

    public var summary: RunSummary {
        var summary = counts
        for (count, kind) in zip(kindCounts, kindsMet) where count > 0 { if let kind { summary.countsByKind[kind.id] = count } }
        var loads = self.loads
        loads.endInput()
        let order = Dictionary(counts.inputs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        summary.storeLoads = loads.counts
        // Loads close in the order their processes' records end; shown in log order. Each
        // one's input is looked up once, not at each comparison: sorted by a comparison that
        // looked up both inputs, the loads and the incidents cost some 350,000 instructions a
        // run (callgrind, 3 MB default mix, -q; a few dozen of each).
        let loadOrder = loads.loads.enumerated().map { (order[$1.input] ?? 0, $1.line, $0) }
        summary.storeLoadAttempts = loadOrder.sorted { $0 < $1 }.map { loads.loads[$0.2] }
        summary.localStorageSwitches = loads.switches
        var incidents = self.incidents
        incidents.endInput()
        let incidentOrder = incidents.incidents.enumerated().map { (order[$1.input] ?? 0, $1.opening.line, $0) }
        summary.incidents = incidentOrder.sorted { $0 < $1 }.map { incidents.incidents[$0.2] }
        summary.processCount = processNames.count
        judge(&summary, incidents: incidents)
        if !cloudKit.isEmpty { summary.cloudKit = cloudKit.finishedStory }
        summary.transactionLogs = logs.stories
        summary.entities = logs.entities
        summary.devices = logs.devices
        summary.correlations = logs.correlations()
        let reported = Set(counts.importFailures.map(\.input))
        let standIns = detectedImportFailures.filter { !reported.contains($0.input) }
        guard !standIns.isEmpty else { return summary }
        summary.importFailures = (counts.importFailures + standIns)
            .sorted { (order[$0.input] ?? 0, $0.line) < (order[$1.input] ?? 0, $1.line) }
            .prefix(RunSummary.maxKeptFindings).map { $0 }
        summary.importFailureCount += standIns.count
        return summary
    }
    private var loads = StoreLoadTracker()
    private var incidents = IncidentTracker()
    private var logs = TransactionLogTracker()
    private var cloudKit = CloudKitTracker()

    public init() {}

    /// Whether the summary reads the facts of events of `kind`: the trackers read those of a
    /// few kinds; findings (warnings and errors) cite an event by its `Headline`, which shows
    /// the error the event carries.
    public static func readsFacts(of kind: EventKind) -> Bool { kind.severity >= .warning || factKinds.contains(kind) }
    /// Whether the summary reads what only a reporter prints of events of `kind`
    /// (`RuleMatch.readsDetails`): never. It counts dumped objects by entity and operation,
    /// without their attributes, and no finding or incident cites a resolved relationship.
    public static func readsDetails(of kind: EventKind) -> Bool { false }
    private static let factKinds = KindSet(StoreLoadTracker.factKinds + TransactionLogTracker.factKinds + IncidentTracker.factKinds
                                           + CloudKitTracker.factKinds)

    public mutating func beginInput(_ name: String) {
        loads.endInput()
        incidents.endInput()
        logs.beginInput(name)
        counts.inputs.append(name)
        group = nil
        groupProcessBytes = KeptText()
        recentGroups.removeAll(keepingCapacity: true)
        nextRecentGroup = 0
        groupIndex.removeAll(keepingCapacity: true)
        unnamedGroup = nil
        lastPid = nil
        lastSyncGroup = nil
    }
    public mutating func inputFailed(_ error: InputError) { counts.unreadableInputs.append(error) }
    public mutating func countLines(_ count: Int) {
        counts.lines += count
        if let input = counts.inputs.last { counts.linesPerInput[input, default: 0] += count }
    }
    /// `--process`: the processes a run reads.
    public mutating func select(processes: [String]) { counts.selectedProcesses = processes }

    public mutating func countOutsideWindow() {
        counts.records += 1
        counts.outsideTimeWindow += 1
    }

    public mutating func countOtherProcess() {
        counts.records += 1
        counts.otherProcesses += 1
    }

    /// The process group of `record`: its header's process, or for a record whose header
    /// names none (a line pasted without its header, a logger's own timestamp) the process of
    /// the last sync record before it in the same input, or of the record before it.
    ///
    /// The usual case, a record of the same process as the one before, is answered here, in
    /// `add`: the process's bytes compared where they lie (`Record.has(_:sameAs:)` as a call of
    /// its own, with the field chosen by a switch, and this function's own call, cost some 110
    /// instructions a record, callgrind, 3 MB default mix).
    @inline(__always)
    private mutating func groupOf(_ record: borrowing Record) -> Int {
        if let group, let range = record.head?.process.range,
           record.text.withUnsafeBytes({ groupProcessBytes.matches(UnsafeRawBufferPointer(rebasing: $0[range])) }) {
            return group
        }
        return groupOfOther(record)
    }

    /// `groupOf` for a record of another process than the one before, or of none.
    @inline(never)
    private mutating func groupOfOther(_ record: Record) -> Int {
        let same = record.has(.process, sameAs: groupProcessBytes)
        if let group, same == true { return group }
        guard same != nil else {
            if let owner = lastSyncGroup ?? group { return owner }
            groupProcessBytes = KeptText()
            return groupNamed(nil, bytes: KeptText())
        }
        groupProcessBytes = record.kept(.process)
        // A process met lately, found by its bytes where the record holds them: a String made
        // of them at every switch between interleaved processes, and compared with the recent
        // ones' names, cost some 600 instructions a switch (callgrind, 3 MB of ~420-byte
        // records: 1,326 switches). Bytes that match no recent process's are looked up by
        // their String as before (two texts can be equal as Strings and not as bytes).
        let recent = record.withBytes(of: .process) { bytes -> Int? in
            guard let bytes else { return nil }
            return recentGroups.indices.first { recentGroups[$0].bytes.matches(bytes) }
        }
        if let recent {
            let found = recentGroups[recent].group
            if let group, found == group { return group }
            group = found
            groupProcess = recentGroups[recent].process
            lastPid = nil
            return found
        }
        return groupNamed(record.string(.process), bytes: groupProcessBytes)
    }

    /// The group of `process` (made into a String), when it is not the last record's bytes.
    private mutating func groupNamed(_ process: String?, bytes: KeptText) -> Int {
        if let group, process == groupProcess { return group }
        if let recent = recentGroups.first(where: { $0.process == process }) {
            group = recent.group
        } else {
            if let known = process.map({ groupIndex[$0] }) ?? unnamedGroup {
                group = known
            } else {
                // A process's name is new to the run only with a group new to it.
                if let process {
                    processNames.insert(process)
                    groupIndex[process] = groups.count
                } else {
                    unnamedGroup = groups.count
                }
                groups.append(ProcessSummary(input: counts.inputs.last ?? "", process: process))
                groupRecords.append(0)
                familyRecords += Array(repeating: 0, count: SyncFamily.all.count)
                familyUnhandled += Array(repeating: 0, count: SyncFamily.all.count)
                group = groups.count - 1
            }
            if recentGroups.count < SummaryBuilder.recentGroupCount {
                recentGroups.append((process, bytes, group ?? 0))
            } else {
                recentGroups[nextRecentGroup] = (process, bytes, group ?? 0)
                nextRecentGroup = (nextRecentGroup + 1) % SummaryBuilder.recentGroupCount
            }
        }
        groupProcess = process
        lastPid = nil
        return group ?? 0
    }

    /// What the summary does with a kind's records, worked out once, when the run first meets
    /// the kind (see `kindActs`).
    fileprivate struct Acts: OptionSet {
        let rawValue: UInt16
        static let storeLoads = Acts(rawValue: 1 << 0)
        static let transactionLogs = Acts(rawValue: 1 << 1)
        /// Read by an open incident (as its recovery, or what tells one).
        static let incidentWhileOpen = Acts(rawValue: 1 << 2)
        static let cloudKit = Acts(rawValue: 1 << 3)
        /// A warning or error: a finding, and an incident's business.
        static let warning = Acts(rawValue: 1 << 4)
        static let ubiquity = Acts(rawValue: 1 << 5)
        /// The app's own lines (`Event.app`): no sync family, no ubiquity record.
        static let app = Acts(rawValue: 1 << 6)
        /// Set for every kind the run has met: an entry of 0 is a kind not met yet.
        static let met = Acts(rawValue: 1 << 7)
        /// A mirroring kind the CloudKit tracker only counts, unless its record has facts
        /// (`CloudKitTracker.countsOnly`); `cloudKitEcho`: counted as an echo.
        static let cloudKitCounted = Acts(rawValue: 1 << 8)
        static let cloudKitEcho = Acts(rawValue: 1 << 9)

        /// Whatever asks for more than the counts every record gets (see `add`).
        static let tracked: Acts = [.storeLoads, .transactionLogs, .incidentWhileOpen, .cloudKit, .warning]
        /// What `track` is called for whatever the record holds; the rest of `tracked` only
        /// on a condition `count` tells (an incident open, a mirroring record with facts).
        static let trackedAlways: Acts = [.storeLoads, .transactionLogs, .warning]

        init(rawValue: UInt16) { self.rawValue = rawValue }

        init(_ kind: EventKind) {
            var acts: Acts = .met
            if StoreLoadTracker.kinds.contains(kind) { acts.insert(.storeLoads) }
            if TransactionLogTracker.kinds.contains(kind) { acts.insert(.transactionLogs) }
            if IncidentTracker.kindsWhileOpen.contains(kind) { acts.insert(.incidentWhileOpen) }
            if kind.family == .cloudKit {
                acts.insert(.cloudKit)
                if kind.severity < .warning, let echo = CloudKitTracker.countsOnly(kind) {
                    acts.insert(echo ? [.cloudKitCounted, .cloudKitEcho] : .cloudKitCounted)
                }
            }
            if kind.family == .ubiquity { acts.insert(.ubiquity) }
            if kind.severity >= .warning { acts.insert(.warning) }
            if kind == .app { acts.insert(.app) }
            self = acts
        }
    }

    /// A record's kind's ordinal, read without taking the kind: a `.message` (most records)
    /// carries its kind, and `Event.kind` retained and released it (and, for the typed
    /// cases, ran a `swift_once` for the static kind).
    /// (`borrowing`: matched as `Event` the case was copied out, its kind and facts retained
    /// and released, 120 instructions a record, callgrind, 3 MB default mix.)
    @inline(__always)
    private func ordinal(of event: borrowing Event) -> Int {
        switch event {
        case .message(let kind, _): return kind.ordinal
        case .app: return appOrdinal
        default: return (copy event).kind.ordinal
        }
    }
    /// `EventKind.app`'s ordinal and the families' indices, read once: a static is a
    /// `swift_once` call at each read.
    private let appOrdinal = EventKind.app.ordinal
    private let ubiquityFamily = SyncFamily.ubiquity.index
    private let cloudKitFamily = SyncFamily.cloudKit.index
    private let familyCount = SyncFamily.all.count

    /// Counts `record`, and has the summary's trackers read it when they need to.
    public mutating func add(_ record: Record, _ event: Event, message: @autoclosure () -> String) {
        if let tracked = count(record, event) { track(record, event, tracked, message: message) }
    }

    /// What `track` needs of a record that `count` found to need more than counts.
    struct Tracked {
        fileprivate var acts: Acts
        fileprivate var group: Int
    }

    /// Counts every record; for the few kinds that need more, what `track` then needs.
    ///
    /// Most records are routine and need nothing but counts: of their kind, of their process
    /// group and its sync family. Those counts are integers in flat arrays indexed by the
    /// kind's ordinal and the group's number, and nothing else is touched: the kind's entry (a
    /// struct holding the kind) and the group's `ProcessSummary` (its families an array in an
    /// array) were changed in place for every record, each a uniqueness check or two, the kind
    /// taken out of the event and released, the family asked of `SyncFamily` (the event's
    /// kind again), and a switch over the event for the four counted kinds.
    ///
    /// Apart from `track`, and inlined into the summarising stage: the message's closure is
    /// made only for the records `track` reads. Made for every record (`add`'s autoclosure, the
    /// classified record it holds retained and released), it cost some 40 instructions a record
    /// (callgrind, 3 MB default mix, -q).
    @inline(__always)
    mutating func count(_ record: borrowing Record, _ event: borrowing Event) -> Tracked? {
        counts.records += 1
        let ordinal = ordinal(of: event)
        if ordinal >= kindActs.count { meetKinds(upTo: ordinal) }
        var acts = kindActs[ordinal]
        if acts.isEmpty { acts = meet((copy event).kind) }
        kindCounts[ordinal] += 1
        if record.isTruncated { counts.truncatedRecords += 1 }
        let group = groupOf(record)
        if group != trackersGroup { switchTrackers(to: group) }
        groupRecords[group] += 1
        if let pid = record.pid, pid != lastPid {
            lastPid = pid
            if !groups[group].pids.contains(pid), groups[group].pids.count < 8 { groups[group].pids.append(pid) }
        }
        if !acts.contains(.app) {
            counts.ubiquityRecords += 1
            // `SyncFamily.index(marker:event:)`, with the kind's family read from its entry.
            let family: Int
            switch record.marker {
            case .cloudKit?: family = cloudKitFamily
            case .ubiquity?, .coreDataError?, .storeManager?: family = ubiquityFamily
            case nil: family = acts.contains(.cloudKit) ? cloudKitFamily : ubiquityFamily
            }
            if lastSyncGroup != group, record.has(.process) { lastSyncGroup = group }
            familyRecords[group &* familyCount &+ family] += 1
            if acts.contains(.warning), SummaryBuilder.isUnhandled(event) { familyUnhandled[group &* familyCount &+ family] += 1 }
        }
        // (The transaction logs' tracker is told of a new input by `beginInput`, not by each
        // record: asking it for every record retained and released the record's input name.)
        if acts.isDisjoint(with: .tracked) { return nil }
        if acts.isDisjoint(with: .trackedAlways), !needsTracking(record, event, acts, group: group) { return nil }
        return Tracked(acts: acts, group: group)
    }

    /// Whether a record of a kind that an open incident or the CloudKit tracker reads needs
    /// `track` (`count` decides it, knowing the kind): an incident's business only while one is
    /// open, and most mirroring records (debug lines without facts: requests queued, history
    /// caught up, an echo) need nothing but their counts, counted here. Sent through `track`
    /// as any tracked record, the ~1,700 of these of the 3 MB default mix's 10,071 records
    /// cost the headline's closure, `track`'s checks and the CloudKit tracker's look-ups of
    /// facts they do not have: the summary, some 50 instructions a record more (callgrind, one
    /// thread, -q; `add` called for 779 mirroring records, not 2,457).
    @inline(never)
    private mutating func needsTracking(_ record: borrowing Record, _ event: borrowing Event, _ acts: Acts, group: Int) -> Bool {
        if acts.contains(.incidentWhileOpen), acts.contains(.ubiquity), incidents.isOpen { return true }
        guard acts.contains(.cloudKit) else { return false }
        guard acts.contains(.cloudKitCounted), SummaryBuilder.hasNoFacts(event) else { return true }
        cloudKit.switchGroup(to: group, input: record.input)
        cloudKit.count(asEcho: acts.contains(.cloudKitEcho))
        return false
    }

    /// Whether `event` is a message without facts (its kind's facts were not made).
    private static func hasNoFacts(_ event: borrowing Event) -> Bool {
        switch event {
        case .message(_, let fields): fields.isEmpty
        default: false
        }
    }

    private static func isUnhandled(_ event: borrowing Event) -> Bool {
        switch event {
        case .unhandled: true
        default: false
        }
    }

    /// Tells the trackers that follow processes that the records that follow are `group`'s.
    @inline(never)
    private mutating func switchTrackers(to group: Int) {
        trackersGroup = group
        loads.switchGroup(to: group) { groups[group].process }
        incidents.switchGroup(to: group)
    }

    /// The first record of `kind`: what the summary does with its records.
    @inline(never)
    private mutating func meet(_ kind: EventKind) -> Acts {
        let acts = Acts(kind)
        kindActs[kind.ordinal] = acts
        kindsMet[kind.ordinal] = kind
        return acts
    }

    /// Grows the tables by kind to hold `ordinal`.
    @inline(never)
    private mutating func meetKinds(upTo ordinal: Int) {
        let more = ordinal + 1 - kindActs.count
        kindActs += Array(repeating: [], count: more)
        kindCounts += Array(repeating: 0, count: more)
        kindsMet += Array(repeating: nil, count: more)
    }

    /// The record's part in the trackers, the counts of its kind, findings and incidents: for
    /// the kinds `Acts.tracked` names (`count` said so). Kept out of `count`, whose routine
    /// records need none of it.
    @inline(never)
    mutating func track(_ record: Record, _ event: Event, _ tracked: Tracked, message: () -> String) {
        let acts = tracked.acts, group = tracked.group
        let kind = event.kind
        if acts.contains(.storeLoads) { loads.add(record, event) }
        if acts.contains(.transactionLogs) { logs.add(record, event) }
        // A family's records are told by its own tracker, which gives its own verdict.
        if acts.contains(.cloudKit) {
            cloudKit.switchGroup(to: group, input: record.input)
            cloudKit.add(record, event)
        }

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

        // An open incident reads routine events only as its recovery.
        let incidentReads = acts.contains(.ubiquity)
            && (acts.contains(.warning) || (incidents.isOpen && acts.contains(.incidentWhileOpen)))
        guard incidentReads || acts.contains(.warning) else { return }

        // A finding (its message is costly) is made once, for what keeps one: warnings and
        // errors, and the event that ends an open incident.
        var made: Finding?
        func finding() -> Finding {
            if let made { return made }
            let finding = Finding(kind: kind, input: record.input, line: record.firstLine, time: record.time, message: message(),
                                  process: groups[group].process, pid: record.pid ?? groups[group].pids.first)
            made = finding
            return finding
        }
        if incidentReads { incidents.add(event, input: record.input, finding: finding) }

        guard kind.severity >= .warning, kind != .unhandled else { return }
        // Made only where a list keeps it: past the caps, a log of many warnings would
        // otherwise compose each one's headline (its error whole) for nothing.
        if kind.severity == .error { counts.errors += 1 } else { counts.warnings += 1 }
        if counts.findings.count < RunSummary.maxKeptFindings { counts.findings.append(finding()) }
        if kind == .importFailed {
            counts.importFailureCount += 1
            if counts.importFailures.count < RunSummary.maxKeptFindings { counts.importFailures.append(finding()) }
        } else if kind == .importFailureDetected {
            if detectedImportFailures.count < RunSummary.maxKeptFindings { detectedImportFailures.append(finding()) }
        } else if kind.category == .corruption, kind.severity == .error {
            counts.corruptionReportCount += 1
            if counts.corruptionReports.count < RunSummary.maxKeptFindings { counts.corruptionReports.append(finding()) }
        }
    }

    /// The groups with their counts of records and of each family's (kept apart while the run
    /// goes, see `groupRecords`).
    private var countedGroups: [ProcessSummary] {
        groups.indices.map { index in
            var group = groups[index]
            group.records = groupRecords[index]
            for family in group.families.indices {
                group.families[family].records = familyRecords[index * SyncFamily.all.count + family]
                group.families[family].unhandled = familyUnhandled[index * SyncFamily.all.count + family]
            }
            return group
        }
    }

    /// The verdict of each process, each input and the run (see `Verdict`):
    /// - a process with no sync records is not judged (it is another program's);
    /// - a process's verdict is broken when an incident with an error did not recover; else
    ///   unknown when at least half of a family's records were not recognised; else what its
    ///   incidents and warnings say;
    /// - an input's is the worst of its judged processes': every one but known system daemons
    ///   (`SystemProcesses`), or those `--process` named; with none, no evidence;
    /// - an input that could not be read has no evidence, or worse if what was read says so;
    /// - the run's is the worst of its inputs'.
    private func judge(_ summary: inout RunSummary, incidents: IncidentTracker) {
        let selected = Set(summary.selectedProcesses)
        var processes: [ProcessSummary] = []
        for (index, var group) in countedGroups.enumerated() where group.syncRecords > 0 {
            let decided = CloudKitTracker.merge(incidents.verdict(ofGroup: index, namesProcesses: summary.namesProcesses),
                                                cloudKit.verdict(ofGroup: index))
            group.verdict = decided.verdict
            group.evidence = decided.evidence
            if decided.verdict != .broken, let family = group.families.first(where: \.isMostlyUnrecognised) {
                group.verdict = .unknown
                group.reason = "\(family.unhandled) of \(family.records) \(family.family.recordNoun) records not recognised"
            }
            group.isJudged = selected.isEmpty ? !SystemProcesses.isDaemon(group.process) : true
            processes.append(group)
        }
        summary.processes = processes

        let unreadable = Dictionary(summary.unreadableInputs.map { ($0.input, $0) }, uniquingKeysWith: { first, _ in first })
        var verdicts: [InputVerdict] = []
        for input in summary.inputs {
            let own = processes.filter { $0.input == input }
            let judged = own.filter(\.isJudged)
            let lines = summary.linesPerInput[input] ?? 0
            var verdict: InputVerdict
            if judged.isEmpty {
                verdict = InputVerdict(input: input, verdict: .noEvidence, evidence: [], reason: SummaryBuilder.noEvidence(lines: lines, selected: summary.selectedProcesses, daemons: own))
            } else if judged.count == 1, own.count == 1 {
                verdict = InputVerdict(input: input, verdict: judged[0].verdict, evidence: judged[0].evidence, reason: judged[0].reason)
            } else {
                let worst = judged.map(\.verdict).max() ?? .healthy
                let deciding = judged.first { $0.verdict == worst }
                verdict = InputVerdict(input: input, verdict: worst, evidence: deciding?.evidence ?? [],
                                       reason: deciding?.reason.map { "\(deciding?.name ?? ""): \($0)" })
            }
            if own.count > 1 { verdict.processes = own }
            if let failure = unreadable[input] {
                verdict.verdict = max(verdict.verdict, .noEvidence)
                if verdict.verdict == .noEvidence { verdict.reason = "read failed after \(lines) line\(lines == 1 ? "" : "s"): \(failure.reason)" }
            }
            verdicts.append(verdict)
        }
        for failure in summary.unreadableInputs where !summary.inputs.contains(failure.input) {
            verdicts.append(InputVerdict(input: failure.input, verdict: .noEvidence, evidence: [], reason: "could not be read: \(failure.reason)"))
        }
        summary.verdicts = verdicts
        summary.verdict = verdicts.map(\.verdict).max() ?? .noEvidence
        if verdicts.isEmpty {
            summary.verdictReason = "no input was read"
        } else if verdicts.count == 1 {
            summary.verdictReason = verdicts[0].reason
        } else if summary.verdict == .noEvidence, verdicts.allSatisfy({ $0.verdict == .noEvidence && $0.processes.isEmpty }),
                  summary.unreadableInputs.isEmpty {
            summary.verdictReason = SummaryBuilder.noEvidence(lines: summary.lines, selected: summary.selectedProcesses, daemons: [])
        } else if let deciding = verdicts.first(where: { $0.verdict == summary.verdict }), let reason = deciding.reason {
            summary.verdictReason = "\(deciding.input): \(reason)"
        }
    }

    /// `no Core Data sync records in 412 lines`, `… from Journal in 412 lines`, or `no Core
    /// Data sync records from an app in 412 lines; system daemons' not judged: kbd[87] (6)`.
    static func noEvidence(lines: Int, selected: [String], daemons: [ProcessSummary]) -> String {
        let linesText = "\(lines) line\(lines == 1 ? "" : "s")"
        if !selected.isEmpty { return "no Core Data sync records from \(selected.joined(separator: ", ")) in \(linesText)" }
        if daemons.isEmpty { return "no Core Data sync records in \(linesText)" }
        let listed = daemons.map { "\($0.name) (\($0.syncRecords))" }.joined(separator: ", ")
        return "no Core Data sync records from an app in \(linesText); system daemons', not judged: \(listed)"
    }
}
