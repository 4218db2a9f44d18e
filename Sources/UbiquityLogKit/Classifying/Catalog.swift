// The catalogue: every rule and every event kind, compiled per channel.
import PCRE2

public struct Catalog: Sendable {
    public let rules: [Rule]
    public let channels: [CompiledChannel]
    /// Every channel of the catalogue's families and rules, in the families' order (the order
    /// records without a marker are tried on them), each once; `channels` holds those with rules.
    public let allChannels: [Channel]
    /// The families the catalogue reads: their trackers tell a run's stories.
    public let families: [Family]

    /// The families of logs the project reads: one line each.
    public static let families: [Family] = [
        .ubiquity,
        .cloudKit,
        .ckError,
    ]

    /// Every rule the project ships, in the order they are tried at one position (earlier wins).
    public static let standardRules: [Rule] = families.flatMap(\.rules)

    /// Kinds no rule produces: the classifier's own verdicts.
    public static let builtInKinds: [EventKind] = [.unhandled, .app]

    /// The standard catalogue, compiled once per process.
    public static func standard() throws(CatalogError) -> Catalog {
        switch cachedStandard {
        case .success(let catalog): return catalog
        case .failure(let error): throw error
        }
    }

    private static let cachedStandard: Result<Catalog, CatalogError> = Result { () throws(CatalogError) in
        try Catalog(rules: standardRules)
    }

    /// The catalogue of `families`' rules.
    public init(families: [Family]) throws(CatalogError) {
        try self.init(rules: families.flatMap(\.rules), families: families)
    }

    /// A catalogue of `rules`, whose records are summarised by `families`' trackers.
    public init(rules: [Rule], families: [Family] = Catalog.families) throws(CatalogError) {
        self.families = families
        var seen = Set<String>()
        for rule in rules where !seen.insert(rule.id).inserted {
            throw CatalogError(ruleID: rule.id, reason: "two rules have this id")
        }
        self.rules = rules
        var seenChannels = Set<Channel>()
        allChannels = (families.flatMap(\.channels) + rules.map(\.channel)).filter { seenChannels.insert($0).inserted }
        var compiled: [CompiledChannel] = []
        for channel in allChannels {
            let members = rules.filter { $0.channel == channel }
            if !members.isEmpty { compiled.append(try CompiledChannel(channel: channel, rules: members)) }
        }
        self.channels = compiled
    }

    /// Every kind the catalogue can produce, rule kinds first, each once.
    public var kinds: [EventKind] {
        var seen = Set<EventKind>()
        return (rules.flatMap(\.kinds) + families.flatMap(\.ownKinds) + Catalog.builtInKinds).filter { seen.insert($0).inserted }
    }
}

extension EventKind {
    public static let unhandled = EventKind("unhandled", .unhandled, .warning, .notable,
        "A Core Data ubiquity message that no rule recognises.", family: .builtIn)
    public static let app = EventKind("app", .app, .info, .detail,
        "A line of the app's own (or another framework's) logging.", family: .builtIn)
}

/// A catalogue error: a rule whose pattern PCRE2 rejects (with PCRE2's message and offset),
/// or two rules with one id.
public struct CatalogError: Error, CustomStringConvertible, Sendable {
    public let ruleID: String
    public let reason: String
    public var description: String { "rule \(ruleID): \(reason)" }
}
