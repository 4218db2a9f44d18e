// When a run fails (exit status 1), the one rule every format follows: `--fail-on LIST` names
// verdicts, severities, categories and kinds. A verdict fails the run when the run's verdict is
// that one or one after it in healthy, degraded, no-evidence, unknown, broken; the others when
// any event matches. An input that cannot be read always fails the run (exit status 2). An
// input with no evidence fails every gate but `none` unless `allowsNoEvidence`: a capture that
// forgot its launch argument, or caught another program's log, must not turn CI green.

public struct FailOn: Sendable, Equatable {
    public enum Term: Sendable, Equatable {
        /// Events of this severity or a higher one.
        case severity(Severity)
        case category(Category)
        case kind(String)
        /// The run's verdict is this one or worse (`Verdict`'s order).
        case verdict(Verdict)
    }

    public let terms: [Term]
    /// The list as given (`degraded`, `corruption,import-failed`), for the outcome's sentence.
    public let text: String
    /// `--allow-no-evidence`: inputs with no sync records to judge neither fail the run by
    /// themselves nor count in the verdict a verdict term is compared with.
    public var allowsNoEvidence = false

    /// The default: any verdict but healthy fails the run, so that exit status 0 means
    /// `Verdict: healthy` and nothing less.
    public static let defaultText = "degraded"
    public static let standard = FailOn(terms: [.verdict(.degraded)], text: defaultText)
    public static let never = FailOn(terms: [], text: "none")

    public init(terms: [Term], text: String? = nil) {
        self.terms = terms
        self.text = text ?? terms.map { term in
            switch term {
            case .severity(let severity): severity.rawValue
            case .category(let category): category.rawValue
            case .kind(let id): id
            case .verdict(let verdict): verdict.rawValue
            }
        }.joined(separator: ",")
    }

    /// Reads `degraded`, `no-evidence,unknown`, `corruption,import-failed`, `none`… Words are
    /// tried as a verdict, a severity, a category, then a kind id of `catalog`.
    public init(parsing list: String, catalog: Catalog) throws(FailOnError) {
        var terms: [Term] = []
        // Made only for a word that is not a verdict, severity or category: the catalogue's
        // kinds cost a run's start-up more than the rest of the list.
        var kindIDs: Set<String>?
        func isKind(_ word: String) -> Bool {
            let ids = kindIDs ?? Set(catalog.kinds.map(\.id))
            kindIDs = ids
            return ids.contains(word)
        }
        for raw in list.split(separator: ",", omittingEmptySubsequences: false) {
            let word = raw.trimmingCharacters(in: " ")
            if word == "none" { continue }
            if let verdict = Verdict(rawValue: word), verdict != .healthy {
                terms.append(.verdict(verdict))
            } else if let severity = Severity(rawValue: word) {
                terms.append(.severity(severity))
            } else if let category = Category(rawValue: word) {
                terms.append(.category(category))
            } else if isKind(word) {
                terms.append(.kind(word))
            } else {
                throw FailOnError(word: word)
            }
        }
        if list.split(separator: ",").contains(where: { $0.trimmingCharacters(in: " ") == "none" }), !terms.isEmpty {
            throw FailOnError(word: "none", reason: "'none' cannot be combined with other values")
        }
        self.terms = terms
        self.text = list
    }

    public func matches(_ kind: EventKind) -> Bool {
        terms.contains { term in
            switch term {
            case .severity(let severity): kind.severity >= severity
            case .category(let category): kind.category == category
            case .kind(let id): kind.id == id
            case .verdict: false
            }
        }
    }

    /// Whether a run with this verdict fails.
    public func fails(verdict: Verdict) -> Bool {
        terms.contains { if case .verdict(let threshold) = $0 { verdict >= threshold } else { false } }
    }

    /// What of the run fails it: unreadable inputs, the verdict, inputs with no evidence, the
    /// kinds of events matched, and which findings are part of that.
    public func outcome(of summary: RunSummary, catalog: Catalog) -> RunOutcome {
        var outcome = RunOutcome(failOn: text + (allowsNoEvidence ? " --allow-no-evidence" : ""))
        outcome.unreadableInputs = summary.unreadableInputs.map(\.input)
        let unreadable = Set(outcome.unreadableInputs)
        let judged = allowsNoEvidence ? summary.verdicts.filter { $0.verdict != .noEvidence } : summary.verdicts
        let verdict = allowsNoEvidence ? (judged.map(\.verdict).max() ?? .healthy) : summary.verdict
        outcome.verdictFails = fails(verdict: verdict)
        outcome.verdict = verdict == summary.verdict ? summary.verdict.words : verdict.words + " (inputs with no evidence left out)"
        // The gate every other term carries: an input with no evidence fails the run. A verdict
        // term at or before no-evidence fails such a run by its verdict (the worst) as well.
        if !terms.isEmpty, !allowsNoEvidence {
            outcome.noEvidenceInputs = summary.verdicts.filter { $0.verdict == .noEvidence && !unreadable.contains($0.input) }.map(\.input)
            outcome.verdictCoversNoEvidence = fails(verdict: .noEvidence)
        }
        for kind in catalog.kinds where matches(kind) {
            if let count = summary.countsByKind[kind.id], count > 0 { outcome.failingKinds[kind.id] = count }
        }
        // A system framework's store is judged apart, as a daemon's process is: the verdict term
        // never looks at it, but a severity, category or kind matches its records by what they
        // are (the kind and severity each has) or by their own kind, `system-store`.
        if !summary.systemStores.isEmpty {
            let kinds = Dictionary(catalog.kinds.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let matchesStores = matches(.systemStore)
            outcome.failingSystemStores = summary.systemStores.indices.filter { index in
                matchesStores || summary.systemStores[index].kinds.keys.contains { kinds[$0].map(matches) ?? false }
            }
            outcome.failingSystemStoreNames = outcome.failingKinds[EventKind.systemStore.id] != nil ? []
                : outcome.failingSystemStores.map { summary.systemStores[$0].name }
        }
        // Each input's verdict by name, looked up once per finding (a run may read many inputs).
        let verdicts = Dictionary(summary.verdicts.map { ($0.input, $0) }, uniquingKeysWith: { first, _ in first })
        outcome.failingFindings = Set(summary.findings.indices.filter { failsTheRun(summary.findings[$0], verdict: verdicts[summary.findings[$0].input], outcome: outcome) })
        return outcome
    }

    /// Whether a finding is part of what fails the run: `--fail-on` names its kind (by id,
    /// category or severity), or the verdict fails the run and the finding's process (its
    /// input, when the input has one process) has a verdict that fails it: its errors then,
    /// and its warnings too when that verdict is `degraded` (warnings alone make it so).
    private func failsTheRun(_ finding: Finding, verdict input: InputVerdict?, outcome: RunOutcome) -> Bool {
        if outcome.failingKinds[finding.kind.id] != nil { return true }
        guard outcome.verdictFails, let input else { return false }
        var verdict = input.verdict
        if let process = input.processes.first(where: { $0.process == finding.process && (finding.pid.map($0.pids.contains) ?? true) }) {
            guard process.isJudged else { return false }
            verdict = process.verdict
        }
        guard verdict != .noEvidence || !allowsNoEvidence, fails(verdict: verdict) else { return false }
        return finding.kind.severity >= (verdict == .degraded ? .warning : .error)
    }
}

/// Whether a run fails, and what fails it: every format says the same (the text summary's
/// `Outcome:` line, the JSON summary's `outcome`, JUnit's failures, GitHub's `::error`s), and
/// the exit status follows it: 2 when an input could not be read, else 1 when it fails, else 0.
public struct RunOutcome: Sendable, Equatable {
    /// `--fail-on` as given.
    public var failOn: String
    public var unreadableInputs: [String] = []
    public var verdictFails = false
    /// `no evidence`
    public var verdict = ""
    /// Kinds matched by a severity, category or kind of `--fail-on`, with their counts.
    public var failingKinds: [String: Int] = [:]
    /// Readable inputs that fail the run for holding no evidence.
    public var noEvidenceInputs: [String] = []
    /// Whether the verdict term fails a run with no evidence by itself (`--fail-on degraded`),
    /// so that its reason already says it; else the gate does (`--fail-on broken`).
    public var verdictCoversNoEvidence = false
    /// Indices in the summary's findings of those that are part of what fails the run.
    public var failingFindings: Set<Int> = []
    /// Indices in the summary's system stores of those whose records `--fail-on` names, and
    /// their names when no other reason says so (`system-store` itself named).
    public var failingSystemStores: [Int] = []
    public var failingSystemStoreNames: [String] = []

    public init(failOn: String) { self.failOn = failOn }

    public var fails: Bool { !unreadableInputs.isEmpty || verdictFails || !failingKinds.isEmpty || !noEvidenceInputs.isEmpty
        || !failingSystemStores.isEmpty }

    /// `fail` or `pass`.
    public var word: String { fails ? "fail" : "pass" }

    /// What fails the run, each in a few words: `the verdict is broken (--fail-on degraded)`,
    /// `2 import-failed (--fail-on import-failed)`, `x.log could not be read`.
    public var reasons: [String] {
        var reasons = unreadableInputs.map { "\($0) could not be read" }
        if verdictFails { reasons.append("the verdict is \(verdict) (--fail-on \(failOn))") }
        reasons += (verdictCoversNoEvidence ? [] : noEvidenceInputs).map { "no evidence in \($0) (every --fail-on but none fails on it; --allow-no-evidence passes it)" }
        if !failingKinds.isEmpty {
            let kinds = failingKinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            reasons.append(kinds + " (--fail-on \(failOn))")
        }
        if !failingSystemStoreNames.isEmpty {
            let shown = failingSystemStoreNames.prefix(3).joined(separator: ", ")
                + (failingSystemStoreNames.count > 3 ? " and \(failingSystemStoreNames.count - 3) more" : "")
            reasons.append("system stores' records: \(shown) (--fail-on \(failOn))")
        }
        return reasons
    }

    /// `fail: the verdict is broken (--fail-on degraded)` or `pass (--fail-on degraded)`.
    public var sentence: String {
        fails ? "fail: " + reasons.joined(separator: "; ") : "pass (--fail-on \(failOn))"
    }

    public var fields: [Field] {
        [Field("result", .string(word)), Field("failOn", .string(failOn)), Field("reasons", .list(reasons.map { .string($0) }))]
    }
}

public struct FailOnError: Error, CustomStringConvertible, Sendable {
    public let word: String
    public var reason: String?

    public var description: String {
        if let reason { return reason }
        let severities = Severity.allCases.map(\.rawValue).joined(separator: ", ")
        let categories = Category.allCases.map(\.rawValue).joined(separator: ", ")
        let verdicts = Verdict.allCases.filter { $0 != .healthy }.map(\.rawValue).joined(separator: ", ")
        return "'\(word)' is not a verdict (\(verdicts)), a severity (\(severities)), a category (\(categories)), an event kind (`parselogs explain` lists them) or 'none'"
    }
}
