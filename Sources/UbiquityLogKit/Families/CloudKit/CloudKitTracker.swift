/// Builds the story as events arrive; each process of each input has its own state and verdict.
struct CloudKitTracker {
    private(set) var story = CloudKitStory()
    /// One process's requests and outcomes in one input (a group of `SummaryBuilder`): each
    /// gets its own verdict.
    struct State {
        var input = ""
        var records = 0
        /// Requests seen executing, by id: their type, line, time and place in `openOrder`.
        var open: [String: OpenRequest] = [:]
        /// Requests let go from `open` past `maxOpenRequests`, by type: an end that names no
        /// open request of that type is one of them; those left at the end are unfinished.
        var letGo: [String: Int] = [:]
        /// Requests whose id the log does not show (`Executing: <private>`), by type: how many
        /// are open, and the last one's line and time. Each end of that type ends one of them;
        /// only a lone one is joined to its end for a duration (with two open, which one ended
        /// is not known).
        var unnamedOpen: [String: (count: Int, line: Int, time: LogTime?)] = [:]
        /// Failures, in order (see `Failures`).
        var failures = Failures()
        /// The line of the last success, and how many there were, of each stage or request
        /// type and of any: a failure's place among them is all its verdict depends on (see
        /// `Failures`). One table, found once a success, so that the type is hashed once.
        var successes: [String: (line: Int, count: Int)] = [:]
        var anySuccessLine = 0
        var anySuccessCount = 0
        /// The line of the last throttle, and whether its record also reported a failure.
        var lastThrottleLine: Int?
        var failureAtLastThrottle = false
        /// The first few concerns with texts of their own: the verdict cites at most three
        /// distinct sentences, and the concerns come after every failure, so later ones, and
        /// ones that repeat an earlier text, are never cited.
        var concerns: [(line: Int, text: String)] = []
        static let keptConcerns = 3

        /// `text` is made only while a concern may still be kept: once three are, a log of
        /// many concerns makes no more sentences for them (each a kind's summary cut and
        /// lowercased).
        mutating func addConcern(_ line: Int, _ text: @autoclosure () -> String) {
            guard concerns.count < State.keptConcerns else { return }
            let text = text()
            guard !concerns.contains(where: { $0.text == text }) else { return }
            concerns.append((line, text))
        }

        mutating func addFailure(stage: String, cause: CloudKitCause?, kind: EventKind, line: Int, text: String) {
            if line == lastThrottleLine { failureAtLastThrottle = true }
            let epoch = cause?.impact == .transient ? anySuccessCount : successes[stage]?.count ?? 0
            failures.add(Failure(stage: stage, cause: cause, kind: kind, line: line, text: text), epoch: epoch)
        }

        mutating func addThrottle(_ line: Int) {
            if line != lastThrottleLine { failureAtLastThrottle = false }
            lastThrottleLine = line
        }
    }

    struct OpenRequest {
        var type: String
        var line: Int
        var time: LogTime?
        var sequence: Int
    }

    /// Requests followed open at once, over every process. Requests end in a few seconds, so
    /// an open request is mostly one whose end the log lacks: past the cap the oldest is let go
    /// (counted as unfinished unless its end comes), and a log of requests that never end keeps
    /// this many, not one per record.
    static let maxOpenRequests = RunSummary.maxKeptFindings
    /// Every open request in the order it began, by group and id (with its sequence number,
    /// telling it from a later request of the same id); entries of requests ended since stay
    /// until the front passes them or the list is compacted.
    private var openOrder: [(group: Int, id: String, sequence: Int)] = []
    private var openOrderFront = 0
    private var openCount = 0
    private var nextSequence = 0
    /// Open requests held (for tests: at most `maxOpenRequests`).
    var openRequestCount: Int { openCount }

    /// Request types told apart: past the cap a type is counted under `otherRequestTypes`, so
    /// that a log of made-up request classes keeps this many rows, each found by a lookup.
    static let maxRequestTypes = RunSummary.maxKeptFindings
    static let otherRequestTypes = "other types"
    /// Each type met, with its row in `story.requests` (-1 while it has none).
    private var requestTypes: [String: Int] = [:]
    /// Each cause's place in `story.causes`, by its sentence.
    private var causeIndex: [String: Int] = [:]
    /// Records named by causes (partial-failure entries), kept over every cause at most: past
    /// it a record a cause does not hold already is counted, not kept.
    static let maxCauseRecords = 100_000
    private var causeRecords = 0

    private var group = 0
    /// Each group's state, by group (groups are numbered from 0 as they are met); a group
    /// without records of its own holds an empty state (no input). A state stays in its place,
    /// so that a switch between interleaved processes neither hashes the group nor copies or
    /// moves the state.
    private var states = [State()]
    /// The current group's state.
    private var state: State {
        _read { yield states[group] }
        _modify { yield &states[group] }
    }
    /// The type of requests whose object the log does not show (`<private>`).
    static let unnamed = "unnamed"

    var isEmpty: Bool { story.records == 0 }

    /// The record that follows is of `group` (see `SummaryBuilder.groupOf`), of `input`.
    mutating func switchGroup(to group: Int, input: String) {
        guard group != self.group || state.input != input else { return }
        // A state without an input has no records: it is not kept.
        if state.input.isEmpty { state = State() }
        self.group = group
        if group >= states.count { states.append(contentsOf: repeatElement(State(), count: group + 1 - states.count)) }
        if state.input.isEmpty { state = State(input: input) }
    }

    /// What `add` does with a record, by its kind.
    enum Role {
        case other, echo, setupSucceeded, requestExecuting, requestFinished, exportFinished, exportBegan, exportObjectsFound
        case importScheduled, importBegan, importApplied, pushReceived, activityDeferred, accountFetched, teardown
        case accountUnavailable, throttled
        /// A concern of its own when no cause is given.
        case concern
    }

    /// Kinds whose facts `add` reads below a warning: those with a role (those of warnings and
    /// errors, and the failures' that give a `stage`, are read whatever their kind; see
    /// `SummaryBuilder.readsFacts(of:)`). The facts of other kinds are left out when no
    /// reporter reads them either.
    static var factKinds: [EventKind] { roles.map(\.0) }

    private static let roles: [(EventKind, Role)] = [
        (.cloudKitEcho, .echo), (.cloudKitSetupSucceeded, .setupSucceeded), (.cloudKitRequestExecuting, .requestExecuting),
        (.cloudKitRequestFinished, .requestFinished), (.cloudKitExportFinished, .exportFinished), (.cloudKitExportBegan, .exportBegan),
        (.cloudKitExportObjectsFound, .exportObjectsFound), (.cloudKitImportScheduled, .importScheduled),
        (.cloudKitImportBegan, .importBegan), (.cloudKitImportApplied, .importApplied), (.cloudKitPushReceived, .pushReceived),
        (.cloudKitActivityDeferred, .activityDeferred), (.cloudKitAccountFetched, .accountFetched), (.cloudKitTeardown, .teardown),
        (.cloudKitAccountUnavailable, .accountUnavailable), (.cloudKitThrottled, .throttled), (.cloudKitActivityRateLimited, .throttled),
        (.cloudKitDelegateDeallocated, .concern), (.cloudKitShareSaveFailed, .concern), (.cloudKitObjectsInSeveralZones, .concern),
    ]

    private static let roleTable: [Role] = {
        var table = Array(repeating: Role.other, count: (roles.map(\.0.ordinal).max() ?? 0) + 1)
        for (kind, role) in roles { table[kind.ordinal] = role }
        return table
    }()
    /// Each kind's role by its ordinal, copied from the static once: a switch over the kinds
    /// themselves would read a static (a `swift_once` call, a retain and a release) for each
    /// case it passed.
    private let roles = CloudKitTracker.roleTable

    private func role(of kind: EventKind) -> Role { kind.ordinal < roles.count ? roles[kind.ordinal] : .other }

    /// For a mirroring kind below a warning whose records `add` only counts when they carry no
    /// facts (no role, or an echo's), whether it counts them as echoes; nil for the others.
    /// (With facts, a record may report a failure by its `stage`: it goes through `add`.)
    static func countsOnly(_ kind: EventKind) -> Bool? { countsOnly(ordinal: kind.ordinal) }

    static func countsOnly(ordinal: Int) -> Bool? {
        let role = ordinal < roleTable.count ? roleTable[ordinal] : .other
        switch role {
        case .other: return false
        case .echo: return true
        default: return nil
        }
    }

    /// What `add` does with a record `countsOnly` names that carries no facts, without it.
    mutating func count(asEcho echo: Bool) {
        story.records += 1
        state.records += 1
        if echo { story.echoes += 1 }
    }

    mutating func add(_ record: Record, _ event: Event) {
        let kind = event.kind
        guard kind.family == .cloudKit else { return }
        story.records += 1
        state.records += 1
        guard case .message(_, let fields) = event else { return }
        let line = record.firstLine
        let facts = Facts(fields)
        switch role(of: kind) {
        case .echo:
            story.echoes += 1
            return
        case .setupSucceeded:
            setup(facts, "succeeded", line: line, cause: nil)
            succeeded("setup", line)
            // Also as the set-up of its store (`setupStage`); one that names none, of any store.
            let store = "setup:" + (CloudKitTracker.setupStore(facts) ?? "")
            state.successes[store, default: (0, 0)].line = line
            state.successes[store, default: (0, 0)].count += 1
        case .requestExecuting:
            let type = keptType(facts.string("requestType")) ?? CloudKitTracker.unnamed
            tally(type) { $0.started += 1 }
            if let id = facts.string("requestID") {
                open(id, type: type, line: line, time: record.time)
            } else {
                // `Executing: <private>`: counted open by its type (see `unnamedOpen`).
                let count = (state.unnamedOpen[type]?.count ?? 0) + 1
                state.unnamedOpen[type] = (count, line, record.time)
            }
        case .requestFinished:
            let type = finish(facts, record, line) { $0.succeeded += 1 }
            succeeded(type, line)
        case .exportFinished:
            story.exportsFinished += 1
            succeeded("export", line)
        case .exportBegan: story.exportsBegan += 1
        case .exportObjectsFound: story.objectsToExport.saturatingAdd(facts.int("objects") ?? 0)
        case .importScheduled: story.importsScheduled += 1
        case .importBegan: story.importsBegan += 1
        case .importApplied:
            story.importsApplied += 1
            succeeded("import", line)
        case .pushReceived: story.pushes += 1
        case .activityDeferred: story.deferrals += 1
        case .accountFetched: account("available")
        case .teardown:
            let reason = facts.string("reason") ?? "unknown reason"
            if story.teardowns.count < RunSummary.maxKeptFindings { story.teardowns.append("\(state.input):\(line) \(reason)") }
            state.addConcern(line, "mirroring torn down (\(reason))")
        case .accountUnavailable:
            if facts.string("stage") == nil {
                account(facts.string("accountStatus").map { "unusable (\($0))" } ?? "needs attention")
                state.addConcern(line, "the iCloud account needs attention")
            }
        case .throttled:
            story.throttles += 1
            story.throttleCleared = false
            state.addThrottle(line)
            if let after = facts.string("retryAfter") { story.retryAfter = after }
        case .concern:
            if facts.string("cause") == nil { state.addConcern(line, kind.summary.prefix { $0 != "." && $0 != ";" }.lowercased()) }
        case .other:
            break
        }
        if let stage = facts.string("stage"), facts.bool("success") != true { failure(kind, stage: stage, facts: facts, record: record) }
        else if kind.severity >= .warning, let cause = facts.string("cause").flatMap(CloudKitCause.init(rawValue:)) {
            // A failure told outside a request's end (the app's print of an error, a share
            // refused): judged by its cause as a request's would be.
            let text = CloudKitTracker.sentence(cause, stage: "sync", facts)
            note(cause, kind: kind, stage: "sync", facts: facts, line: line, sentence: text)
            if cause.impact == .transient { state.addThrottle(line); story.throttleCleared = false }
            state.addFailure(stage: "sync", cause: cause, kind: kind, line: line, text: text)
        } else if kind.severity == .error {
            // SwiftData's container that failed to load is a set-up that names no store: any
            // later set-up that succeeded shows a container that loaded.
            let stage = kind == .cloudKitSwiftDataLoadFailed ? "setup" : kind.id
            state.addFailure(stage: stage, cause: nil, kind: kind, line: line, text: kind.summary)
        }
    }

    /// A record that reports a failure (or a request's end without success).
    private mutating func failure(_ kind: EventKind, stage: String, facts: Facts, record: Record) {
        let line = record.firstLine
        let cause = facts.string("cause").flatMap(CloudKitCause.init(rawValue:))
        var type = stage
        if stage == "request" || facts.string("requestID") != nil, facts.string("success") != nil || facts.bool("success") != nil {
            type = finish(facts, record, line) { tally in
                // A request cancelled did not fail; one a throttle stopped waits for its retry.
                switch cause {
                case .cancelledPending?, .operationCancelled?: tally.cancelled += 1
                case .throttled?: tally.waiting += 1
                default: tally.failed += 1
                }
            }
        } else if stage == "request", let requestType = keptType(facts.string("requestType")) {
            type = requestType
        }
        if stage == "setup" { setup(facts, "failed", line: line, cause: cause.map { CloudKitTracker.sentence($0, stage: "setup", facts) }) }
        if stage == "recovery", kind == .cloudKitRecoveryAttempted { return }
        let judgedAt = type == "setup" ? CloudKitTracker.setupStage(facts) : type
        if let cause {
            if cause.impact == .transient { state.addThrottle(line); story.throttleCleared = false }
            // The record's sentence, made once for its failure and, where its facts name no
            // entries of their own, for its cause: a sentence is dear to make twice.
            let text = CloudKitTracker.sentence(cause, stage: type, facts)
            note(cause, kind: kind, stage: type, facts: facts, line: line, sentence: text)
            state.addFailure(stage: judgedAt, cause: cause, kind: kind, line: line, text: text)
        } else if kind.severity >= .warning {
            state.addFailure(stage: judgedAt, cause: nil, kind: kind, line: line, text: kind.summary)
        }
    }

    /// `sentence`: the record's own sentence for `cause` at `stage`, when the caller has it.
    private mutating func note(_ cause: CloudKitCause, kind: EventKind, stage: String, facts: Facts, line: Int, sentence: String? = nil) {
        // Harmless ones (a duplicate request dropped, a conflict merged) are no failure cause.
        guard cause.impact > .benign else { return }
        // Each record type and field a schema gap names is a cause of its own.
        // (Found by a lookup: a partial failure holds hundreds of entries, each compared with
        // every text before it in a list.)
        var byText: [(text: String, records: [String], retryAfter: String?)] = []
        var textIndex: [String: Int] = [:]
        for entry in facts.entries(of: cause) {
            let text = CloudKitTracker.sentence(cause, stage: stage, entry.facts)
            if let index = textIndex[text] {
                byText[index].records += entry.record.map { [$0] } ?? []
            } else {
                textIndex[text] = byText.count
                byText.append((text, entry.record.map { [$0] } ?? [], entry.facts.string("retryAfter")))
            }
        }
        if byText.isEmpty { byText = [(sentence ?? CloudKitTracker.sentence(cause, stage: stage, facts), [], facts.retryAfter(of: cause))] }
        for (text, records, retryAfter) in byText {
            let index: Int
            if let known = causeIndex[text] {
                index = known
                story.causes[index].reports += 1
                if let retryAfter { story.causes[index].retryAfter = retryAfter }
            } else if story.causes.count < RunSummary.maxKeptFindings {
                index = story.causes.count
                causeIndex[text] = index
                story.causes.append(CloudKitStory.Cause(cause: cause, text: text, reports: 1, input: state.input, line: line, kind: kind,
                                                        retryAfter: retryAfter))
            } else {
                story.causeReportsNotListed += 1
                continue
            }
            for record in records where !story.causes[index].records.contains(record) {
                if causeRecords < CloudKitTracker.maxCauseRecords {
                    story.causes[index].records.insert(record)
                    causeRecords += 1
                } else {
                    story.causes[index].recordsNotKept += 1
                }
            }
        }
    }

    private mutating func setup(_ facts: Facts, _ outcome: String, line: Int, cause: String?) {
        let store = CloudKitTracker.setupStore(facts) ?? facts.string("store").flatMap { $0 == "<private>" ? nil : $0 } ?? "(name not logged)"
        if outcome == "succeeded" { story.setupsSucceeded += 1 } else if outcome == "failed" { story.setupsFailed += 1 }
        guard story.stores.count < RunSummary.maxKeptFindings else { return }
        story.stores.append(CloudKitStory.StoreSetup(input: state.input, store: store, outcome: outcome, line: line, cause: cause))
    }

    private mutating func account(_ state: String) {
        if story.account.last != state, story.account.count < RunSummary.maxKeptFindings { story.account.append(state) }
    }

    private mutating func succeeded(_ type: String, _ line: Int) {
        func count(_ success: inout (line: Int, count: Int)) {
            success.line = line
            success.count += 1
        }
        count(&state.successes[type, default: (0, 0)])
        state.anySuccessLine = line
        state.anySuccessCount += 1
        if state.lastThrottleLine != nil { story.throttleCleared = true }
    }

    private mutating func tally(_ type: String, _ change: (inout CloudKitStory.RequestTally) -> Void) {
        if let index = requestTypes[type], index >= 0 {
            change(&story.requests[index])
        } else {
            var tally = CloudKitStory.RequestTally(type: type)
            change(&tally)
            requestTypes[type] = story.requests.count
            story.requests.append(tally)
        }
    }

    /// `type` where the run still tells types apart, else `otherRequestTypes`.
    private mutating func keptType(_ type: String?) -> String? {
        guard let type else { return nil }
        if requestTypes[type] != nil { return type }
        guard requestTypes.count < CloudKitTracker.maxRequestTypes else { return CloudKitTracker.otherRequestTypes }
        requestTypes[type] = -1
        return type
    }

    /// Follows request `id` of the current group as open, letting the oldest go past the cap.
    private mutating func open(_ id: String, type: String, line: Int, time: LogTime?) {
        nextSequence += 1
        // The same id begun again replaces its start.
        if state.open.updateValue(OpenRequest(type: type, line: line, time: time, sequence: nextSequence), forKey: id) == nil { openCount += 1 }
        openOrder.append((group, id, nextSequence))
        while openCount > CloudKitTracker.maxOpenRequests, openOrderFront < openOrder.count {
            let oldest = openOrder[openOrderFront]
            openOrderFront += 1
            if let request = states[oldest.group].open[oldest.id], request.sequence == oldest.sequence {
                states[oldest.group].open[oldest.id] = nil
                states[oldest.group].letGo[request.type, default: 0] += 1
                openCount -= 1
            }
        }
        // Entries of ended requests and those passed are dropped once they are half the list:
        // each compaction follows as many appends as it keeps entries.
        if openOrder.count > 2 * openCount + 64 {
            openOrder = openOrder[openOrderFront...].filter { states[$0.group].open[$0.id]?.sequence == $0.sequence }
            openOrderFront = 0
        }
    }

    /// Ends the request the record names: its type and duration from its `Executing:`.
    private mutating func finish(_ facts: Facts, _ record: Record, _ line: Int, _ outcome: (inout CloudKitStory.RequestTally) -> Void) -> String {
        let id = facts.string("requestID")
        let named = keptType(facts.string("requestType"))
        var started: (type: String, line: Int, time: LogTime?)?
        // Whether its start was counted: seen open, let go, or one of the unnamed.
        var begun = false
        if let id, let request = state.open.removeValue(forKey: id) {
            started = (request.type, request.line, request.time)
            openCount -= 1
            begun = true
        } else if id != nil, let type = named, let count = state.letGo[type], count > 0 {
            state.letGo[type] = count - 1
            begun = true
        } else if id == nil, case let type = named ?? CloudKitTracker.unnamed, let unnamed = state.unnamedOpen[type], unnamed.count > 0 {
            if unnamed.count == 1 { started = (type, unnamed.line, unnamed.time) }
            state.unnamedOpen[type] = unnamed.count == 1 ? nil : (unnamed.count - 1, unnamed.line, unnamed.time)
            begun = true
        }
        let type = started?.type ?? named ?? CloudKitTracker.unnamed
        tally(type) { tally in
            if !begun { tally.started += 1 }
            outcome(&tally)
            // A negative duration is no duration (the clock was reset), as a store load's; the
            // total holds at `Int.max` (requests stamped at years 1 and 9999 pass it).
            if let begin = started?.time, let end = record.time, case let microseconds = end.microseconds(since: begin), microseconds >= 0 {
                let milliseconds = Int(microseconds / 1000)
                tally.timed += 1
                tally.totalMilliseconds.saturatingAdd(milliseconds)
                tally.longestMilliseconds = max(tally.longestMilliseconds, milliseconds)
            }
        }
        return type
    }

    /// The story, with the requests still open at the end counted as unfinished.
    var finishedStory: CloudKitStory {
        var tracker = self
        for state in states {
            for (_, request) in state.open.sorted(by: { $0.value.line < $1.value.line }) { tracker.tally(request.type) { $0.unfinished += 1 } }
            for (type, count) in state.letGo.sorted(by: { $0.key < $1.key }) where count > 0 { tracker.tally(type) { $0.unfinished += count } }
            for (type, unnamed) in state.unnamedOpen.sorted(by: { $0.key < $1.key }) { tracker.tally(type) { $0.unfinished += unnamed.count } }
        }
        return tracker.story
    }

    /// The verdict of one process's mirroring records; nil when it has none.
    func verdict(ofGroup group: Int) -> (verdict: Verdict, evidence: [String])? {
        guard group < states.count, states[group].records > 0 else { return nil }
        return CloudKitTracker.verdict(of: states[group])
    }

    /// The stage a set-up failure is judged at: `setup:STORE` when its record names the store,
    /// which only a later set-up of that store (or one that names none) overcomes; `setup`
    /// when it names none, which any later set-up overcomes.
    private static func setupStage(_ facts: Facts) -> String {
        setupStore(facts).map { "setup:" + $0 } ?? "setup"
    }

    /// The store a set-up record names by its URL's file name.
    static func setupStore(_ facts: Facts) -> String? {
        facts.string("url").map(Extract.storeFileName)
    }

    /// The line of the last success that overcomes a failure at `stage` (0: none).
    private static func lastSuccessLine(overcoming stage: String, in state: State) -> Int {
        let own = state.successes[stage]?.line ?? 0
        return stage.hasPrefix("setup:") ? max(own, state.successes["setup:"]?.line ?? 0) : own
    }

    /// The line of the last success in a process's mirroring records; nil when none.
    func lastSuccessLine(ofGroup group: Int) -> Int? {
        guard group < states.count, states[group].anySuccessCount > 0 else { return nil }
        return states[group].anySuccessLine
    }

    /// Broken when a failure cannot clear by itself (schema, model, container, a second
    /// container) or a kind of request kept failing to the end; degraded for the user's
    /// account or storage, teardowns, sharing, throttles that did not clear, state.failures that a
    /// later success of their kind overcame; healthy when the cycles finished.
    private static func verdict(of state: State) -> (verdict: Verdict, evidence: [String]) {
        var broken: [String] = []
        var degraded: [String] = []
        for failure in state.failures.all {
            let cite = "\(state.input):\(failure.line) \(failure.kind.id): \(failure.text)"
            let laterSuccess = lastSuccessLine(overcoming: failure.stage, in: state) > failure.line
            let isSetup = failure.stage == "setup" || failure.stage.hasPrefix("setup:")
            switch failure.cause?.impact {
            case .broken?:
                let fixesItself = failure.cause == .other || failure.cause == .notInitialized
                if fixesItself && laterSuccess { degraded.append(cite + ", later succeeded") } else { broken.append(cite) }
            case .degraded?:
                degraded.append(cite)
            case .transient?:
                if state.anySuccessLine < failure.line { degraded.append(cite + ", still waiting at the end of the log") }
            case .benign?:
                // A request dropped for a pending one of its type (134417), or an operation
                // the container cancelled (CKError 20), is never a failure on its own
                // (docs/verdicts.md). A conflict or a duplicate subscription is handled by Core
                // Data, which retries: the request that failed of it must be followed by a
                // success of its kind, or sync did not get past it (set-up never done: broken).
                guard failure.cause != .cancelledPending, failure.cause != .operationCancelled, !laterSuccess else { break }
                let stage = failure.stage == "sync" || failure.stage == CloudKitTracker.unnamed ? "request" : isSetup ? "setup" : failure.stage
                let cited = cite + ", and no later \(stage) succeeded"
                if isSetup { broken.append(cited) } else { degraded.append(cited) }
            case nil:
                if failure.kind.severity == .error {
                    if laterSuccess { degraded.append(cite + ", later succeeded") } else { broken.append(cite) }
                }
            }
        }
        // A set-up that began and never ended: nothing says the store syncs.
        let setupsOpen = state.open.values.filter { $0.type == "setup" }.map(\.line) + (state.unnamedOpen["setup"].map { [$0.line] } ?? [])
        if let begun = setupsOpen.min(), (state.successes["setup"]?.line ?? 0) < begun {
            degraded.append("\(state.input):\(begun) set-up began and did not finish by the end of the log")
        }
        if let last = state.lastThrottleLine, state.anySuccessLine < last, !state.failureAtLastThrottle {
            degraded.append("\(state.input):\(last) throttled, still waiting at the end of the log")
        }
        degraded += state.concerns.map { "\(state.input):\($0.line) \($0.text)" }
        if !broken.isEmpty { return (.broken, CloudKitTracker.distinct(broken, input: state.input)) }
        if !degraded.isEmpty { return (.degraded, CloudKitTracker.distinct(degraded, input: state.input)) }
        return (.healthy, [])
    }

    /// The first three sentences that say different things (the place cited is left out of
    /// the comparison: a failure that repeats is cited where it first happened).
    static func distinct(_ citations: [String], input: String) -> [String] {
        // (What was said, kept as the at most three kept citations' own: a `Set<Substring>`
        // would be the run's first use of that set type, whose set-up is dear, for three items.)
        var seen: [Substring] = []
        var kept: [String] = []
        // An ASCII name is as many Characters as bytes: the place's end is found by its bytes,
        // not by counting the name's Characters again for each citation.
        let isASCII = input.utf8.allSatisfy { $0 < 0x80 }
        let inputBytes = input.utf8.count
        for citation in citations {
            // The place is `INPUT:LINE `, and an input's name may hold blanks of its own.
            let afterInput = isASCII ? citation[citation.utf8.index(citation.startIndex, offsetBy: min(inputBytes, citation.utf8.count))...]
                : citation.dropFirst(input.count)
            let said = afterInput.drop { $0 != " " }
            if !seen.contains(said) {
                seen.append(said)
                kept.append(citation)
            }
            if kept.count == 3 { break }
        }
        return kept
    }
}
