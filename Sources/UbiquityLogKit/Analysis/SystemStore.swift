// A store that a system framework opened inside the app's process (the keyboard's user
// dictionary, Photos' library, an Apple app's ubiquitous store): it lies outside the app's
// container, so its failures are not the app's. It is judged apart, as a system daemon's
// process is: a verdict of its own from what its records are (their kinds and
// severities, not demoted), shown with its evidence and never counted in the app's, the
// input's or the run's verdict (docs/verdicts.md).

public struct SystemStore: Sendable, Equatable {
    public var store: String
    public var input: String
    /// The process whose records named it, and that process's first pid.
    public var process: String?
    public var pid: Int?
    /// Where it was first met, and how many of its warnings and errors the run holds.
    public var line: Int
    public var records: Int
    /// The worst severity of its records.
    public var severity: Severity
    /// Its records by the kind each has, by kind id.
    public var kinds: [String: Int] = [:]
    /// The worst severity of its records that no entry of `BenignFindings` always excuses, and
    /// the first record of that severity (line, kind id, message): what decides its verdict.
    public var unexcused: Severity?
    public var worstLine: Int?
    public var worstKind = ""
    public var worstMessage = ""

    public init(store: String, input: String, process: String?, pid: Int? = nil, line: Int, records: Int, severity: Severity) {
        self.store = store
        self.input = input
        self.process = process
        self.pid = pid
        self.line = line
        self.records = records
        self.severity = severity
    }

    /// Its own verdict: `broken` for an error, `degraded` for warnings alone, `healthy` when
    /// every one is benign. What the framework did after it is not followed: it retries or
    /// gives up on its own, and its successes are not told apart from the app's.
    public var verdict: Verdict {
        switch unexcused {
        case .error?: .broken
        case .warning?: .degraded
        default: .healthy
        }
    }

    /// `Journal[210] store /var/mobile/Library/Keyboard/UserDictionary.sqlite`
    public var name: String { ProcessSummary.name(process, pids: pid.map { [$0] } ?? []) + " store " + store }

    /// The line that decides its verdict: `a.log:5 core-data-error: (10) I/O error …`.
    public var evidence: [String] {
        guard let worstLine, verdict != .healthy else { return [] }
        return ["\(input):\(worstLine) \(worstKind): \(worstMessage)"]
    }

    /// `…: degraded, not judged: a system framework's store, outside the app's container`
    public var sentence: String {
        "\(name): \(verdict.words), not judged: a system framework's store, outside the app's container"
    }

    /// Its sentence, then its evidence, a line each: what a CI format reports of it.
    public var report: String { ([sentence] + evidence).joined(separator: "\n") }

    public var fields: [Field] {
        var fields = FieldList()
        fields.add("store", store)
        fields.add("input", input)
        fields.add("process", process)
        fields.add("line", line)
        fields.add("records", records)
        fields.add("severity", severity.rawValue)
        return fields.items
    }

    /// Its judgement, as the summary's `systemStores` lists it.
    public var judgementFields: [Field] {
        var fields = FieldList()
        fields.items = self.fields
        fields.add("pid", pid)
        fields.add("kinds", .object(kinds.sorted { $0.key < $1.key }.map { Field($0.key, .int($0.value)) }))
        fields.add("verdict", verdict.rawValue)
        fields.add("judged", .bool(false))
        fields.add("evidence", .list(evidence.map { .string($0) }))
        return fields.items
    }
}
