// When a run counts as failed (exit status 1): `--fail-on LIST` names severities, categories
// and kinds, and the run fails when any event matches one of them; or verdicts, and the run
// fails when its verdict is that one or worse.

public struct FailOn: Sendable, Equatable {
    public enum Term: Sendable, Equatable {
        /// Events of this severity or a higher one.
        case severity(Severity)
        case category(Category)
        case kind(String)
        /// The run's verdict is this one or worse (`degraded`, `broken`).
        case verdict(Verdict)
    }

    public let terms: [Term]

    /// The default: fail on anything of error severity.
    public static let errors = FailOn(terms: [.severity(.error)])
    public static let never = FailOn(terms: [])

    public init(terms: [Term]) { self.terms = terms }

    /// Reads `error`, `corruption,import-failed`, `broken`, `none`… Words are tried as a
    /// verdict, a severity, a category, then a kind id of `catalog`.
    public init(parsing list: String, catalog: Catalog) throws(FailOnError) {
        var terms: [Term] = []
        let kindIDs = Set(catalog.kinds.map(\.id))
        for raw in list.split(separator: ",", omittingEmptySubsequences: false) {
            let word = raw.trimmingCharacters(in: " ")
            if word == "none" { continue }
            if let verdict = Verdict(rawValue: word), verdict != .healthy {
                terms.append(.verdict(verdict))
            } else if let severity = Severity(rawValue: word) {
                terms.append(.severity(severity))
            } else if let category = Category(rawValue: word) {
                terms.append(.category(category))
            } else if kindIDs.contains(word) {
                terms.append(.kind(word))
            } else {
                throw FailOnError(word: word)
            }
        }
        if list.split(separator: ",").contains(where: { $0.trimmingCharacters(in: " ") == "none" }), !terms.isEmpty {
            throw FailOnError(word: "none", reason: "'none' cannot be combined with other values")
        }
        self.terms = terms
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

    /// How many events of the run match.
    public func matchCount(in summary: RunSummary, catalog: Catalog) -> Int {
        guard !terms.isEmpty else { return 0 }
        var count = 0
        for case .verdict(let verdict) in terms where summary.verdict >= verdict { count += 1 }
        for kind in catalog.kinds where matches(kind) {
            count += summary.countsByKind[kind.id] ?? 0
        }
        return count
    }
}

public struct FailOnError: Error, CustomStringConvertible, Sendable {
    public let word: String
    public var reason: String?

    public var description: String {
        if let reason { return reason }
        let severities = Severity.allCases.map(\.rawValue).joined(separator: ", ")
        let categories = Category.allCases.map(\.rawValue).joined(separator: ", ")
        return "'\(word)' is not a severity (\(severities)), a category (\(categories)), an event kind (`parselogs explain` lists them), a verdict (degraded, broken) or 'none'"
    }
}
