// The CloudKit family's part of the summary: set-up per store, requests by type joined from
// `Executing:` to `Finished request:` by their id, exports and imports, throttles told as
// waiting, the account, teardowns, and each distinct failure cause once with its count and the
// records it affected; and the verdict it gives each input.

/// What the mirroring records of a run say happened.
public struct CloudKitStory: Sendable {
    public struct StoreSetup: Sendable, Equatable {
        public var input: String
        /// The store's file name (from its URL) or its identifier.
        public var store: String
        public var outcome: String  // "succeeded", "failed", "enqueued"
        public var line: Int
        public var cause: String?
    }

    public struct RequestTally: Sendable, Equatable {
        public var type: String
        public var started = 0
        public var succeeded = 0
        public var failed = 0
        public var cancelled = 0
        /// Finished requests whose start was seen, and their durations.
        public var timed = 0
        public var totalMilliseconds = 0
        public var longestMilliseconds = 0
        /// Started and never finished by the end of their input.
        public var unfinished = 0
    }

    public struct Cause: Sendable, Equatable {
        public var cause: CloudKitCause
        /// One sentence: `export blocked: field CD_rating of record type CD_Recipe is not in the production schema`.
        public var text: String
        /// Records that reported it, and the distinct records (partial-error entries) it affected.
        public var reports = 0
        public var records: Set<String> = []
        public var input: String
        public var line: Int
        public var kind: EventKind

        /// `… (3 records)` / `… (reported 2 times)`.
        public var counted: String {
            var parts: [String] = []
            if !records.isEmpty { parts.append("\(records.count) record\(records.count == 1 ? "" : "s")") }
            if reports > 1 { parts.append("reported \(reports) times") }
            return parts.isEmpty ? text : text + " (" + parts.joined(separator: ", ") + ")"
        }
    }

    public var records = 0
    public var echoes = 0
    /// Store set-ups, the first `RunSummary.maxKeptFindings` of them; the counts are exact.
    public var stores: [StoreSetup] = []
    public var setupsSucceeded = 0
    public var setupsFailed = 0
    public var requests: [RequestTally] = []
    public var exportsBegan = 0
    public var exportsFinished = 0
    public var objectsToExport = 0
    public var importsScheduled = 0
    public var importsBegan = 0
    public var importsApplied = 0
    public var pushes = 0
    public var throttles = 0
    public var deferrals = 0
    /// Whether a request succeeded after the last throttle (the wait ended).
    public var throttleCleared = true
    public var retryAfter: String?
    /// The account's states as they changed, and the teardowns: the first
    /// `RunSummary.maxKeptFindings` of each, so that memory does not grow with the log.
    public var account: [String] = []
    public var teardowns: [String] = []
    public var causes: [Cause] = []
}

/// Builds the story as events arrive; each process of each input has its own state and verdict.
struct CloudKitTracker {
    private(set) var story = CloudKitStory()
    /// One process's requests and outcomes in one input (a group of `SummaryBuilder`): each
    /// gets its own verdict.
    struct State {
        var input = ""
        var records = 0
        /// Requests seen executing, by id: their type, line and time.
        var open: [String: (type: String, line: Int, time: LogTime?)] = [:]
        var unnamedOpen: (type: String, line: Int, time: LogTime?)?
        /// Failures, in order (see `Failures`).
        var failures = Failures()
        /// The line of the last success, and how many there were, of each stage or request
        /// type and of any: a failure's place among them is all its verdict depends on (see
        /// `Failures`). One table, found once a success: two (lines, counts) hashed the type
        /// twice, some 7 instructions a record on the default mix (callgrind, 3 MB, -q).
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
        /// many concerns makes no more sentences for them (a kind's summary cut and lowercased
        /// for each: some 26 instructions a record on the default mix, callgrind, 3 MB, -q).
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

    struct Failure {
        var stage: String
        var cause: CloudKitCause?
        var kind: EventKind
        var line: Int
        var text: String
    }

    /// A process's failures, as many as the verdict can tell apart, in the order they came.
    ///
    /// A failure's verdict depends on its stage, cause, kind and text (its key) and on whether
    /// a success came after it: of its stage, or of anything for a transient cause (its
    /// epoch: that count of successes when it came). Two failures with one key and one epoch
    /// are cited alike, and the verdict cites a sentence where it first comes, so the later one
    /// is left out. Once a later failure of a key comes in a later epoch, every earlier one of
    /// that key has a success after it and is cited like the key's first: only the first and
    /// the newest are kept. So a log that repeats one failure a million times, successes or not
    /// between them, keeps two, and the run's memory does not grow with the log.
    struct Failures {
        private(set) var kept: [Failure?] = []
        private var live = 0
        /// Each key's places (see `Key`), found by its text. Keyed by the text, a String: a
        /// dictionary keyed by a struct of its own cost the run's first failure some 240,000
        /// instructions (the key type's `Hashable` conformance looked up when the table first
        /// grew; callgrind, 3 MB default mix, -q), and the key's stage, kind and cause were
        /// hashed for every failure as well. The few keys of one text are told apart by a scan.
        private var byText: [String: [Places]] = [:]

        /// A failure's key (its stage, cause, kind and text), where the first and newest of its
        /// failures are in `kept`, and the epoch of the newest.
        private struct Places {
            var stage: String
            var cause: CloudKitCause?
            var kind: Int
            var first: Int
            var newest: Int
            var epoch: Int

            func isKey(of failure: Failure) -> Bool {
                kind == failure.kind.ordinal && cause == failure.cause && stage == failure.stage
            }
        }

        var all: some Sequence<Failure> { kept.lazy.compactMap { $0 } }

        mutating func add(_ failure: Failure, epoch: Int) {
            // A key met before is found once and changed where it lies: looked up, then set,
            // it was hashed twice (its texts, the sentence whole), some 12 instructions a
            // record on the default mix (callgrind, 3 MB, -q; 1,100 a failure met before).
            if let slot = byText.index(forKey: failure.text),
               let index = byText.values[slot].firstIndex(where: { $0.isKey(of: failure) }) {
                let known = byText.values[slot][index]
                guard known.epoch != epoch else { return }
                if known.newest != known.first {
                    kept[known.newest] = nil
                    live -= 1
                }
                byText.values[slot][index].newest = kept.count
                byText.values[slot][index].epoch = epoch
            } else {
                byText[failure.text, default: []].append(Places(stage: failure.stage, cause: failure.cause, kind: failure.kind.ordinal,
                                                                first: kept.count, newest: kept.count, epoch: epoch))
            }
            kept.append(failure)
            live += 1
            if kept.count > 64, live * 2 < kept.count { compact() }
        }

        /// Drops the places of failures left out, renumbering the others.
        /// (The new places in an array by old place, not a `[Int: Int]`: the run's first use of
        /// that dictionary type cost some 235,000 instructions, callgrind, 3 MB default mix, -q.)
        private mutating func compact() {
            var moved = Array(repeating: -1, count: kept.count)
            var packed: [Failure?] = []
            packed.reserveCapacity(live * 2)
            for (index, failure) in kept.enumerated() where failure != nil {
                moved[index] = packed.count
                packed.append(failure)
            }
            func place(_ old: Int) -> Int { moved[old] >= 0 ? moved[old] : old }
            for slot in byText.indices {
                for index in byText.values[slot].indices {
                    byText.values[slot][index].first = place(byText.values[slot][index].first)
                    byText.values[slot][index].newest = place(byText.values[slot][index].newest)
                }
            }
            kept = packed
        }
    }
    private var group = 0
    /// Each group's state, by group (groups are numbered from 0 as they are met); a group
    /// without records of its own holds an empty state (no input). A state stays in its place:
    /// the current one was taken out of a dictionary and put back at every switch between
    /// interleaved processes, which hashed the group twice and copied or moved the state
    /// (some 600 instructions a switch, callgrind, 3 MB of ~420-byte records).
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
        if group >= states.count { states += Array(repeating: State(), count: group + 1 - states.count) }
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
    /// Each kind's role by its ordinal, copied from the static once. A switch over the kinds
    /// themselves read a static (a `swift_once` call, a retain and a release) for each case
    /// it passed, and the concern kinds were an array made for every record: with the set-up's
    /// URL below, some 1,000 instructions a CloudKit record (callgrind, 3 MB default mix).
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
        case .requestExecuting:
            let type = facts.string("requestType") ?? CloudKitTracker.unnamed
            tally(type) { $0.started += 1 }
            if let id = facts.string("requestID") {
                state.open[id] = (type, line, record.time)
            } else {
                // `Executing: <private>`: joined to the next `Finished request: <private>`.
                state.unnamedOpen = (type, line, record.time)
            }
        case .requestFinished:
            let type = finish(facts, record, line) { $0.succeeded += 1 }
            succeeded(type, line)
        case .exportFinished:
            story.exportsFinished += 1
            succeeded("export", line)
        case .exportBegan: story.exportsBegan += 1
        case .exportObjectsFound: story.objectsToExport += facts.int("objects") ?? 0
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
            note(cause, kind: kind, stage: "sync", facts: facts, line: line)
        } else if kind.severity == .error {
            state.addFailure(stage: kind.id, cause: nil, kind: kind, line: line, text: kind.summary)
        }
    }

    /// A record that reports a failure (or a request's end without success).
    private mutating func failure(_ kind: EventKind, stage: String, facts: Facts, record: Record) {
        let line = record.firstLine
        let cause = facts.string("cause").flatMap(CloudKitCause.init(rawValue:))
        var type = stage
        if stage == "request" || facts.string("requestID") != nil, facts.string("success") != nil || facts.bool("success") != nil {
            type = finish(facts, record, line) { tally in
                if cause == .cancelledPending { tally.cancelled += 1 } else { tally.failed += 1 }
            }
        } else if stage == "request", let requestType = facts.string("requestType") {
            type = requestType
        }
        if stage == "setup" { setup(facts, "failed", line: line, cause: cause.map { CloudKitTracker.sentence($0, stage: "setup", facts) }) }
        if stage == "recovery", kind == .cloudKitRecoveryAttempted { return }
        if let cause {
            if cause.impact == .transient { state.addThrottle(line); story.throttleCleared = false }
            // The record's sentence, made once for its failure and, where its facts name no
            // entries of their own, for its cause: made twice, some 10 instructions a record on
            // the default mix (callgrind, 3 MB, -q; 1,000 a failure so told).
            let text = CloudKitTracker.sentence(cause, stage: type, facts)
            note(cause, kind: kind, stage: type, facts: facts, line: line, sentence: text)
            state.addFailure(stage: type, cause: cause, kind: kind, line: line, text: text)
        } else if kind.severity >= .warning {
            state.addFailure(stage: type, cause: nil, kind: kind, line: line, text: kind.summary)
        }
    }

    /// `sentence`: the record's own sentence for `cause` at `stage`, when the caller has it.
    private mutating func note(_ cause: CloudKitCause, kind: EventKind, stage: String, facts: Facts, line: Int, sentence: String? = nil) {
        // Harmless ones (a duplicate request dropped, a conflict merged) are no failure cause.
        guard cause.impact > .benign else { return }
        // Each record type and field a schema gap names is a cause of its own.
        var byText: [(text: String, records: [String])] = []
        for entry in facts.entries(of: cause) {
            let text = CloudKitTracker.sentence(cause, stage: stage, entry.facts)
            if let index = byText.firstIndex(where: { $0.text == text }) {
                byText[index].records += entry.record.map { [$0] } ?? []
            } else {
                byText.append((text, entry.record.map { [$0] } ?? []))
            }
        }
        if byText.isEmpty { byText = [(sentence ?? CloudKitTracker.sentence(cause, stage: stage, facts), [])] }
        for (text, records) in byText {
            if let index = story.causes.indices.first(where: { story.causes[$0].text == text }) {
                story.causes[index].reports += 1
                story.causes[index].records.formUnion(records)
            } else if story.causes.count < RunSummary.maxKeptFindings {
                story.causes.append(CloudKitStory.Cause(cause: cause, text: text, reports: 1, records: Set(records), input: state.input, line: line, kind: kind))
            }
        }
    }

    private mutating func setup(_ facts: Facts, _ outcome: String, line: Int, cause: String?) {
        let store = facts.string("url").map { Extract.fileName($0.removingPercentEncodedSpaces) ?? $0 } ?? facts.string("store").flatMap { $0 == "<private>" ? nil : $0 } ?? "(name not logged)"
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
        // (Each tally's type read where it lies: `firstIndex(where:)` handed each tally to its
        // closure as a copy, as `note` did each cause.)
        if let index = story.requests.indices.first(where: { story.requests[$0].type == type }) {
            change(&story.requests[index])
        } else {
            var tally = CloudKitStory.RequestTally(type: type)
            change(&tally)
            story.requests.append(tally)
        }
    }

    /// Ends the request the record names: its type and duration from its `Executing:`.
    private mutating func finish(_ facts: Facts, _ record: Record, _ line: Int, _ outcome: (inout CloudKitStory.RequestTally) -> Void) -> String {
        let id = facts.string("requestID")
        var started = id.flatMap { state.open.removeValue(forKey: $0) }
        if id == nil, facts.string("requestType") == nil, let unnamed = state.unnamedOpen {
            started = unnamed
            state.unnamedOpen = nil
        }
        let type = started?.type ?? facts.string("requestType") ?? CloudKitTracker.unnamed
        tally(type) { tally in
            if started == nil { tally.started += 1 }
            outcome(&tally)
            if let begin = started?.time, let end = record.time {
                let milliseconds = Int(end.microseconds(since: begin) / 1000)
                tally.timed += 1
                tally.totalMilliseconds += milliseconds
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
            if let request = state.unnamedOpen { tracker.tally(request.type) { $0.unfinished += 1 } }
        }
        return tracker.story
    }

    /// The verdict of one process's mirroring records; nil when it has none.
    func verdict(ofGroup group: Int) -> (verdict: Verdict, evidence: [String])? {
        guard group < states.count, states[group].records > 0 else { return nil }
        return CloudKitTracker.verdict(of: states[group])
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
            let laterSuccess = (state.successes[failure.stage]?.line ?? 0) > failure.line
            switch failure.cause?.impact {
            case .broken?:
                let fixesItself = failure.cause == .other || failure.cause == .notInitialized
                if fixesItself && laterSuccess { degraded.append(cite + ", later succeeded") } else { broken.append(cite) }
            case .degraded?:
                degraded.append(cite)
            case .transient?:
                if state.anySuccessLine < failure.line { degraded.append(cite + ", still waiting at the end of the log") }
            case .benign?:
                if failure.cause == .cancelledPending, !laterSuccess {
                    degraded.append(cite + ", and no later request of that type succeeded")
                }
            case nil:
                if failure.kind.severity == .error {
                    if laterSuccess { degraded.append(cite + ", later succeeded") } else { broken.append(cite) }
                }
            }
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
        // cost the run's first verdict some 235,000 instructions, the first use of that set type;
        // callgrind, 3 MB default mix, -q.)
        var seen: [Substring] = []
        var kept: [String] = []
        for citation in citations {
            // The place is `INPUT:LINE `, and an input's name may hold blanks of its own.
            let said = citation.dropFirst(input.count).drop { $0 != " " }
            if !seen.contains(said) {
                seen.append(said)
                kept.append(citation)
            }
            if kept.count == 3 { break }
        }
        return kept
    }

    /// What a record says failed, before its cause: `set-up failed`, `export blocked`, ….
    static func label(_ stage: String, _ kind: EventKind?) -> String {
        if kind == .cloudKitRecoveryAttempted { return "recovering" }
        switch stage {
        case "setup": return "set-up failed"
        case "recovery": return "recovery failed"
        case "teardown": return "mirroring reset"
        case "share": return "share not saved"
        case "request", "sync", CloudKitTracker.unnamed: return "request failed"
        default: return "\(stage) blocked"
        }
    }

    /// One sentence for a cause, named by what failed (`export blocked: …`).
    static func sentence(_ cause: CloudKitCause, stage: String, _ facts: Facts) -> String {
        let what = stage == "setup" ? "set-up failed" : stage == "sync" || stage == "request" ? "sync failed" : "\(stage) blocked"
        let type = facts.string("recordType")
        let field = facts.string("field")
        switch cause {
        case .schemaMissingField:
            return "\(what): field \(field ?? "?") of record type \(type ?? "?") is not in the production schema"
        case .schemaMissingType:
            return "\(what): record type \(type ?? "?") is not in the production schema"
        case .modelOrderedRelationship: return "the model cannot be mirrored: it has an ordered relationship"
        case .modelAttributeRequired: return "the model cannot be mirrored: an attribute is non-optional without a default"
        case .modelRelationshipRequired: return "the model cannot be mirrored: a relationship is non-optional"
        case .containerNotLinked: return "\(what): the iCloud container is not assigned to the app's ID (Invalid bundle ID for container)"
        case .badContainer: return "\(what): CloudKit does not know the container (Bad Container)"
        case .permissionFailure: return "\(what): CloudKit refused permission (Permission Failure)"
        case .missingEntitlement: return "\(what): the app lacks the CloudKit entitlement"
        case .secondInstance: return "a second container mirrors the same store in this process (134410)"
        case .daemonUnreachable: return "\(what): the CloudKit daemon cannot be reached (sandbox)"
        case .notInitialized: return "requests refused: mirroring set-up never succeeded (134406)"
        case .quotaExceeded: return "\(what): the user's iCloud storage is full (Quota Exceeded)"
        case .recordTooLarge: return "\(what): a record\(type.map { " of type \($0)" } ?? "") is over CloudKit's 1 MB limit"
        case .tooManyItems: return "\(what): more than 400 items in one request"
        case .duplicateRecordInRequest: return "\(what): one record saved twice in one request"
        case .noAccount: return "no iCloud account (134400): mirroring is off until the user signs in"
        case .accountTerms: return "the iCloud account must accept new terms"
        case .notAuthenticated: return "CloudKit access denied for the account (Not Authenticated)"
        case .signingFailure: return "no signed-in account can sign CloudKit requests (Internal Error 1/4000)"
        case .throttled: return "throttled by CloudKit, waiting" + (facts.string("retryAfter").map { " (retry after \($0) s)" } ?? "")
        case .network: return "\(what): the network or the server did not answer"
        case .zoneNotFound: return "the record zone\(facts.string("zone").map { " \($0)" } ?? "") does not exist"
        case .userDeletedZone: return "the user deleted the app's iCloud data (zone purged)"
        case .historyExpired: return "persistent history expired (134301)"
        case .objectsInSeveralZones: return "related objects are assigned to several zones"
        case .conflict: return "records changed on the server since fetched (merged)"
        case .duplicateSubscription: return "subscription already exists"
        case .cancelledPending: return "\(stage) request dropped: one of its type was already pending (134417)"
        case .other:
            let name = facts.firstErrorName
            return "\(what): \(name ?? "an error")"
        }
    }
}

/// A message event's facts by name.
struct Facts {
    let fields: [Field]
    init(_ fields: [Field]) { self.fields = fields }

    /// Each field read where it lies, its name's length compared before its bytes: `first(where:)`
    /// handed every field to its closure as a copy (its name and value retained and released),
    /// and most names differ in length. Some 60 instructions fewer a look-up (callgrind, 3 MB
    /// default mix, -q: 6,700 look-ups, most of them for a record's `stage` it does not have).
    func value(_ name: String) -> FieldValue? {
        let length = name.utf8.count
        for index in fields.indices where fields[index].name.utf8.count == length && fields[index].name == name {
            return fields[index].value
        }
        return nil
    }
    func string(_ name: String) -> String? { value(name)?.text }
    func int(_ name: String) -> Int? { if case .int(let number)? = value(name) { number } else { nil } }
    func bool(_ name: String) -> Bool? { if case .bool(let flag)? = value(name) { flag } else { nil } }

    /// The CKErrors of `cause` among the event's, each with its record (a partial-error entry's).
    func entries(of cause: CloudKitCause) -> [(record: String?, facts: Facts)] {
        guard case .list(let errors)? = value("ckErrors") else { return [] }
        return errors.compactMap { error -> (String?, Facts)? in
            guard case .object(let parts) = error else { return nil }
            // What `CloudKitErrors.cause(of:)` reads of the entry, and its record, taken in one
            // pass over its fields (each name is there once, `CKErrorDescription.value`), its
            // name left out (the cause does not read it): looked up one by one, each a search
            // of the entry's fields, they cost some 570 instructions an entry more, 67,000 of
            // the 3 MB default mix's 117 entries (callgrind, -q, one thread).
            // Each field read where it lies and told by its name's length first (the five
            // names' lengths differ), then its bytes: matched as `(name, value)` against the
            // five, each field was copied and its name compared with each in turn, some 1,500
            // instructions an entry (callgrind, 3 MB default mix, -q: 117 entries).
            var description = CKErrorDescription(name: "")
            var record: String?
            for index in parts.indices {
                let name = parts[index].name
                switch name.utf8.count {
                case 4:
                    if name == "code", case .int(let code) = parts[index].value { description.code = code }
                case 12:
                    if name == "internalCode", case .int(let code) = parts[index].value { description.internalCode = code }
                case 7:
                    if name == "message" { description.message = parts[index].value.text }
                case 13:
                    if name == "serverMessage" { description.serverMessage = parts[index].value.text }
                case 6:
                    if name == "record" { record = parts[index].value.text }
                default:
                    break
                }
            }
            return CloudKitErrors.cause(of: description) == cause ? (record, Facts(parts)) : nil
        }
    }

    /// `Partial Failure (2/1011)`: the first CKError's name and codes, or the NSError's.
    var firstErrorName: String? {
        if case .list(let errors)? = value("ckErrors"), case .object(let parts)? = errors.first {
            let entry = Facts(parts)
            let codes = [entry.int("code"), entry.int("internalCode")].compactMap { $0 }.map(String.init).joined(separator: "/")
            return (entry.string("name") ?? "CKError") + (codes.isEmpty ? "" : " (\(codes))")
        }
        if case .object(let parts)? = value("error") {
            let error = Facts(parts)
            return [error.string("domain"), error.int("code").map(String.init)].compactMap { $0 }.joined(separator: " ")
        }
        return nil
    }
}

extension String {
    /// `Application%20Support` → `Application Support`: store URLs print spaces escaped.
    var removingPercentEncodedSpaces: String {
        // On the bytes of an ASCII text (each byte a character of its own), and the text itself
        // when it has none (most URLs): `replacing` (Swift's string processing, by Characters)
        // cost some 60,000 instructions a call, nearly all of a set-up record's cost.
        let replaced = utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            func spaceAt(_ index: Int) -> Bool {
                index + 2 < bytes.count && bytes[index] == UInt8(ascii: "%") && bytes[index + 1] == UInt8(ascii: "2") && bytes[index + 2] == UInt8(ascii: "0")
            }
            guard bytes.indices.contains(where: spaceAt) else { return self }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                if spaceAt(index) {
                    out.append(UInt8(ascii: " "))
                    index += 3
                } else {
                    out.append(bytes[index])
                    index += 1
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
        return (replaced ?? nil) ?? replacing("%20", with: " ")
    }
}
