// Store loads as stories: each attempt from its start to its outcome, with the store, how
// long it took, what led to it (an account change, cloud switched on or off, a new cloud
// store UUID, a retry after a failure) and the error when it failed; and the switch from the
// fallback store to the iCloud store (`Using local storage: 1`, later `0`).

/// One attempt to load a store.
public struct StoreLoad: Sendable, Equatable {
    public enum Outcome: String, Sendable {
        case succeeded, failed
        /// The cloud store cannot load without an iCloud account: the local store is loaded instead.
        case unavailable
        /// The input ended, or another attempt began, before this one had an outcome.
        case unfinished
    }

    public var input: String
    /// The process that loaded it (nil when the headers name none).
    public var process: String?
    /// Where the attempt starts (its first event) and ends (its outcome).
    public var line: Int
    public var endLine: Int?
    public var start: LogTime?
    public var end: LogTime?
    public var store: StoreLocation
    public var storeURL: String?
    public var storeUUID: String?
    public var outcome: Outcome = .unfinished
    public var error: ErrorInfo?
    /// The kinds of the events since the previous attempt that explain this one, each once,
    /// in order: `identity-token-changed`, `cloud-switched`, `store-uuid-changed`, …
    public var after: [String] = []
    /// Whether it follows a failed attempt (or was announced as a retry).
    public var isRetry = false
    /// The delays of Core Data's set-up retries during the attempt (`Retrying after delay: 60`).
    public var setupRetryDelays: [Int] = []

    public init(input: String, line: Int, start: LogTime?, store: StoreLocation) {
        self.input = input
        self.line = line
        self.start = start
        self.store = store
    }

    /// From start to outcome, when both were printed with a time and the clock did not go
    /// backwards between them (a negative duration is no duration: the clock was reset).
    public var durationMilliseconds: Int? {
        guard let start, let end else { return nil }
        let microseconds = end.microseconds(since: start)
        return microseconds >= 0 ? Int(microseconds / 1000) : nil
    }

    /// The facts, named as in the JSON summary.
    public var fields: [Field] {
        var fields = FieldList()
        fields.add("input", input)
        fields.add("process", process)
        fields.add("line", line)
        fields.add("endLine", endLine)
        fields.add("store", store.rawValue)
        fields.add("outcome", outcome.rawValue)
        fields.add("durationMs", durationMilliseconds)
        fields.add("storeURL", storeURL)
        fields.add("storeUUID", storeUUID)
        fields.add(error)
        if !after.isEmpty { fields.add("after", .list(after.map { .string($0) })) }
        if isRetry { fields.add("retry", .bool(true)) }
        if !setupRetryDelays.isEmpty { fields.add("setupRetryDelays", .list(setupRetryDelays.map { .int($0) })) }
        return fields.items
    }
}

/// The fallback (local) store in use until iCloud's initial import finished, then the switch.
public struct LocalStorageSwitch: Sendable, Equatable {
    public var input: String
    /// `Using local storage: 1`
    public var fallbackLine: Int
    /// `Using local storage: 0`
    public var cloudLine: Int
    public var delayMilliseconds: Int?

    public var fields: [Field] {
        var fields = FieldList()
        fields.add("input", input)
        fields.add("fallbackLine", fallbackLine)
        fields.add("cloudLine", cloudLine)
        fields.add("delayMs", delayMilliseconds)
        return fields.items
    }
}

/// Follows store loads through the events of each input, one input at a time and, within it,
/// one process at a time (a daemon's load never takes the app's outcome).
struct StoreLoadTracker {
    /// The counts, with a location's entry only where an attempt there succeeded or failed.
    var counts: StoreLoadCounts {
        var counts = StoreLoadCounts()
        counts.attempted = attempted
        for location in StoreLocation.allCases {
            let place = StoreLoadTracker.place(of: location)
            if succeeded[place] > 0 { counts.succeeded[location] = succeeded[place] }
            if failed[place] > 0 { counts.failed[location] = failed[place] }
        }
        return counts
    }
    /// Attempts, and outcomes by location (`place(of:)`): integers while the
    /// run goes, a `StoreLoadCounts` at its end: counted in the counts' dictionaries, the first
    /// outcomes would grow them, a cost every run pays.
    private var attempted = 0
    private var succeeded = Array(repeating: 0, count: StoreLocation.allCases.count)
    private var failed = Array(repeating: 0, count: StoreLocation.allCases.count)
    /// Attempts, the first `RunSummary.maxKeptFindings` of them (counts stay exact).
    private(set) var loads: [StoreLoad] = []
    private(set) var switches: [LocalStorageSwitch] = []

    /// What one process's loads are in the middle of.
    private struct State {
        var current: StoreLoad?
        var context: [String] = []
        var lastFailed = false
        var fallbackSince: (line: Int, time: LogTime?)?
        /// The last attempt ended at a UbiquityStoreManager error: a `Failed to load … store.`
        /// that follows (newer versions print both) reports the same failure.
        var endedByStoreManagerError = false
        /// Where the attempt closed last stands in `loads` (nil when the list was full).
        var lastClosedIndex: Int?
    }
    /// None before the first record.
    private var group = -1
    /// The states of the groups switched to since the input began, each found by its group's
    /// slot (`slots`), the one before the first record in the place of group 0 (it is empty
    /// then). A state stays in its place: put into a dictionary and another taken out at every
    /// switch between interleaved processes, it would cost two hashes of the group and a copy
    /// of the state. An input's end empties them all (`endInput`): a state is hundreds of bytes,
    /// and an array of one by group would grow with every group of every earlier input.
    private var states = [State()]
    /// By group (groups are numbered from 0 as they are met), where its state is in `states`
    /// (-1: it has none, and its state is empty).
    private var slots: [Int32] = [0]
    /// Where the current group's state is in `states`.
    private var place = 0
    /// The groups switched to since the input began, each once (`listed` by group): an input's
    /// end closes and empties these alone. Every other state is empty, and a run of many
    /// inputs would otherwise pay, at each input's end, for the groups of every earlier one.
    private var inputPlaces: [Int] = []
    private var listed = [false]
    private var state: State {
        _read { yield states[place] }
        _modify { yield &states[place] }
    }
    /// The current group's process, given to the loads it begins.
    private var process: String?

    // The current group's parts, read and changed where they lie in `states`: with `get` and
    // `set`, `current?.storeURL = url` would copy the whole load (its texts and lists retained
    // and released) out of the state and back, for every record the tracker reads.
    private var current: StoreLoad? {
        _read { yield state.current }
        _modify { yield &state.current }
    }
    private var context: [String] {
        _read { yield state.context }
        _modify { yield &state.context }
    }
    private var lastFailed: Bool {
        _read { yield state.lastFailed }
        _modify { yield &state.lastFailed }
    }
    private var fallbackSince: (line: Int, time: LogTime?)? {
        _read { yield state.fallbackSince }
        _modify { yield &state.fallbackSince }
    }
    private var endedByStoreManagerError: Bool {
        _read { yield state.endedByStoreManagerError }
        _modify { yield &state.endedByStoreManagerError }
    }
    private var lastClosedIndex: Int? {
        _read { yield state.lastClosedIndex }
        _modify { yield &state.lastClosedIndex }
    }

    /// The records that follow belong to process group `next`, whose process `process` names
    /// (asked only when the group changes).
    mutating func switchGroup(to next: Int, process: () -> String?) {
        guard next != group else { return }
        group = next
        self.process = process()
        if next >= slots.count {
            slots.append(contentsOf: repeatElement(-1, count: next + 1 - slots.count))
            listed.append(contentsOf: repeatElement(false, count: next + 1 - listed.count))
        }
        if slots[next] < 0 {
            slots[next] = Int32(states.count)
            states.append(State())
        }
        place = Int(slots[next])
        if !listed[next] {
            listed[next] = true
            inputPlaces.append(next)
        }
    }

    /// Kinds that, since the previous attempt, explain why a store is loaded (again).
    private static let causes = KindSet(causeKinds)
    private static let causeKinds: [EventKind] = [
        .identityTokenChanged, .cloudSwitched, .storeUUIDChanged, .cloudDeleted, .cloudStoreUnavailable,
        .storeLoadRetried, .cloudContentRebuild, .accountChangeFailed,
    ]

    /// The `.message` kinds whose facts `add` reads.
    static let factKinds: [EventKind] = [.storeLoadDetails, .setupRetry, .storeManagerError, .storeManagerErrorDetail]

    /// Every kind `add` acts on: the summary passes the others over without calling it.
    static let kinds = KindSet([.storeLoadStarted, .storeLoadSucceeded, .storeLoadFailed, .storeAddFailed, .appStoreLoadFailed,
                                .usingLocalStorage, .cloudStoreUnavailable] + factKinds + causeKinds)

    /// UbiquityStoreManager's error causes (`UbiquityStoreErrorCause…`) raised by the steps
    /// of a load: after one, the manager gives the attempt up. Deleting a store, clearing
    /// the coordinator, merging imported changes and listing stores are not load steps.
    static let causesEndingLoad: Set<String> = [
        "CreateStorePath", "OpenActiveStore", "OpenSeedStore", "SeedStore", "ConfirmActiveStore", "CorruptActiveStore",
    ]

    /// Whether a cause, as printed (`UbiquityStoreErrorCauseOpenActiveStore`), ends a load.
    static func endsLoad(cause: String) -> Bool {
        var name = Substring(cause.trimmingCharacters(in: " "))
        if name.hasPrefix("UbiquityStoreErrorCause") { name = name.dropFirst("UbiquityStoreErrorCause".count) }
        return causesEndingLoad.contains(String(name))
    }

    mutating func add(_ record: Record, _ event: Event) {
        let time = record.time
        switch event {
        case .storeLoadStarted(let location, let url):
            close(as: .unfinished)
            begin(record, time, location)
            current?.storeURL = url
        case .storeLoadSucceeded(let location):
            // An attempt seen only by its outcome has no start, so no duration.
            if current == nil { begin(record, nil, location) }
            finish(record, time, .succeeded, location: location)
        case .storeLoadFailed(let location, let error):
            if current == nil, endedByStoreManagerError {
                // The attempt already ended at the error that caused this failure.
                endedByStoreManagerError = false
                if let error, let index = lastClosedIndex, loads[index].error == nil { loads[index].error = error }
                return
            }
            if current == nil { begin(record, nil, location) }
            if let error { current?.error = error }
            finish(record, time, .failed, location: location)
        case .storeAddFailed(_, let url, let error):
            // Core Data's own failure during an attempt belongs to it; alone, it is one.
            if var load = current {
                load.error = load.error ?? error
                load.storeURL = load.storeURL ?? url
                current = load
            } else {
                begin(record, nil, .unknown)
                current?.storeURL = url
                current?.error = error
                finish(record, time, .failed, location: .unknown)
            }
        case .usingLocalStorage(let local, _, _):
            if local {
                if fallbackSince == nil { fallbackSince = (record.firstLine, time) }
            } else if let since = fallbackSince {
                var change = LocalStorageSwitch(input: record.input, fallbackLine: since.line, cloudLine: record.firstLine)
                if let from = since.time, let to = time, to.microseconds(since: from) >= 0 {
                    // Not when the clock went backwards in between: that is no delay.
                    change.delayMilliseconds = Int(to.microseconds(since: from) / 1000)
                }
                if switches.count < RunSummary.maxKeptFindings { switches.append(change) }
                fallbackSince = nil
            }
        case .message(.appStoreLoadFailed, _):
            appReportedFailure(record, time, error: event.error)
        case .message(let kind, let fields):
            if kind == .cloudStoreUnavailable, current?.store == .cloud {
                finish(record, time, .unavailable, location: .cloud)
            }
            if kind == .storeManagerErrorDetail, let error = event.error {
                // `- Underlying: …` after a failure: the root cause of that failure.
                if let load = current, load.error == nil {
                    current?.error = error
                } else if current == nil, lastFailed, let index = lastClosedIndex, loads[index].error == nil {
                    loads[index].error = error
                }
            }
            if kind == .storeManagerError, let load = current,
               let cause = fields.first(where: { $0.name == "cause" })?.value.text,
               StoreLoadTracker.endsLoad(cause: cause) {
                // Older UbiquityStoreManager versions print only the error: it ends the attempt.
                if let error = event.error { current?.error = error }
                finish(record, time, .failed, location: load.store)
                endedByStoreManagerError = true
            }
            if kind == .storeLoadDetails {
                for field in fields {
                    guard let value = field.value.text else { continue }
                    if field.name == "storeUUID" { current?.storeUUID = value }
                    if field.name == "storeURL" { current?.storeURL = value }
                }
            } else if kind == .setupRetry, case .int(let delay)? = fields.first(where: { $0.name == "delay" })?.value {
                current?.setupRetryDelays.append(delay)
            } else if StoreLoadTracker.causes.contains(kind), !context.contains(kind.id) {
                context.append(kind.id)
            }
        default:
            if StoreLoadTracker.causes.contains(event.kind), !context.contains(event.kind.id) {
                context.append(event.kind.id)
            }
        }
    }

    /// The app printed the error a load failed with. Right after Core Data's own record of that
    /// failure (the same code, or one of the two without a code) it is that failure told
    /// again; during an attempt it ends it; alone, it is a failed attempt of its own.
    private mutating func appReportedFailure(_ record: Record, _ time: LogTime?, error: ErrorInfo?) {
        if current == nil, lastFailed, let index = lastClosedIndex,
           error == nil || loads[index].error == nil || loads[index].error?.code == error?.code {
            if loads[index].error == nil { loads[index].error = error }
            return
        }
        if current == nil { begin(record, nil, .unknown) }
        if let error, current?.error == nil { current?.error = error }
        finish(record, time, .failed, location: current?.store ?? .unknown)
    }

    /// The input ended: an attempt still under way, in any of its processes, stays unfinished.
    mutating func endInput() {
        // The current group's first, then the others of the input in the order of their groups.
        let current = place
        close(as: .unfinished)
        inputPlaces.sort()
        for other in inputPlaces where Int(slots[other]) != current {
            place = Int(slots[other])
            close(as: .unfinished)
        }
        // Every state is empty now: they are let go, but for the current group's place,
        // which holds an empty state again.
        for index in inputPlaces {
            slots[index] = -1
            listed[index] = false
        }
        inputPlaces.removeAll(keepingCapacity: true)
        states.removeAll(keepingCapacity: states.count <= 64)
        states.append(State())
        place = 0
        if group >= 0 { slots[group] = 0 }
    }

    private mutating func begin(_ record: Record, _ time: LogTime?, _ location: StoreLocation) {
        var load = StoreLoad(input: record.input, line: record.firstLine, start: time, store: location)
        load.process = process
        load.after = context
        load.isRetry = lastFailed || context.contains(EventKind.storeLoadRetried.id)
        context = []
        endedByStoreManagerError = false
        attempted += 1
        current = load
    }

    private mutating func finish(_ record: Record, _ time: LogTime?, _ outcome: StoreLoad.Outcome, location: StoreLocation) {
        current?.endLine = record.firstLine
        current?.end = time
        if current?.store == .unknown { current?.store = location }
        switch outcome {
        case .succeeded: succeeded[StoreLoadTracker.place(of: location)] += 1
        case .failed: failed[StoreLoadTracker.place(of: location)] += 1
        case .unavailable, .unfinished: break
        }
        close(as: outcome)
    }

    /// `location`'s place in `succeeded` and `failed`.
    private static func place(of location: StoreLocation) -> Int {
        switch location {
        case .local: 0
        case .cloud: 1
        case .unknown: 2
        }
    }

    private mutating func close(as outcome: StoreLoad.Outcome) {
        guard var load = current else { return }
        load.outcome = outcome
        lastFailed = outcome == .failed
        lastClosedIndex = nil
        if loads.count < RunSummary.maxKeptFindings {
            lastClosedIndex = loads.count
            loads.append(load)
        }
        current = nil
    }
}
