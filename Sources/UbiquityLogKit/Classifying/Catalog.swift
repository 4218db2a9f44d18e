// The catalogue: every rule and every event kind, compiled per channel when first read.
import PCRE2
import Synchronization

public struct Catalog: Sendable {
    public let rules: [Rule]
    /// Every kind the catalogue can produce, rule kinds first, each once: made once, as a run
    /// reads it several times (the classifier, --fail-on, the reporters).
    public let kinds: [EventKind]
    /// Every channel of the catalogue's families and rules, in the families' order (the order
    /// records without a marker are tried on them), each once; `channels` holds those with rules.
    public let allChannels: [Channel]
    /// The families the catalogue reads: their trackers tell a run's stories.
    public let families: [Family]
    /// By `allChannels` position: the channel's rules (none for a channel without), their
    /// patterns, and the channel compiled once a record of it is read.
    private let members: [[Rule]]
    private let patterns: [RulePatterns?]
    private let compiledChannels: CompiledChannels
    /// The prefilter of the channels that read records without a marker, made at the first
    /// call of `unmarkedPrefilter`: one for every classifier of the catalogue (a run has two, on
    /// two threads), which may share it once made.
    private let unmarkedPrefilterMade = MadeOnce<UnmarkedPrefilter>()

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

    /// The standard catalogue, once per process. Making it compiles nothing: its kinds and
    /// rules are there at once, a channel's index and patterns are made when a run first
    /// reads a record of it (`compiled(_:)`), so that --help, --version, `explain` and a
    /// usage error cost no compiling, and a short log only the compiling it needs.
    public static func standard() throws(CatalogError) -> Catalog {
        switch cachedStandard {
        case .success(let catalog): return catalog
        case .failure(let error): throw error
        }
    }

    private static let cachedStandard: Result<Catalog, CatalogError> = Result { () throws(CatalogError) in
        try Catalog(rules: standardRules, families: families, compilingPatterns: false)
    }

    /// The catalogue of `families`' rules.
    public init(families: [Family]) throws(CatalogError) {
        try self.init(rules: families.flatMap(\.rules), families: families)
    }

    /// A catalogue of `rules`, whose records are summarised by `families`' trackers. Each
    /// pattern is compiled at once: one PCRE2 rejects throws here.
    public init(rules: [Rule], families: [Family] = Catalog.families) throws(CatalogError) {
        try self.init(rules: rules, families: families, compilingPatterns: true)
    }

    /// `compilingPatterns`: false leaves each pattern to be compiled when a run first needs it.
    init(rules: [Rule], families: [Family], compilingPatterns: Bool) throws(CatalogError) {
        self.families = families
        var seen = Set<String>(minimumCapacity: rules.count)
        for rule in rules where !seen.insert(rule.id).inserted {
            throw CatalogError(ruleID: rule.id, reason: "two rules have this id")
        }
        try CompiledChannel.check(rules)
        self.rules = rules
        kinds = Catalog.firstOfEach(rules.flatMap(\.kinds) + families.flatMap(\.ownKinds) + Catalog.builtInKinds, by: \.ordinal)
        allChannels = Catalog.firstOfEach(families.flatMap(\.channels) + rules.map(\.channel), by: \.index)
        let members = allChannels.map { channel in rules.filter { $0.channel == channel } }
        self.members = members
        patterns = zip(allChannels, members).map { channel, rules in rules.isEmpty ? nil : RulePatterns(channel: channel, rules: rules) }
        compiledChannels = CompiledChannels(count: allChannels.count)
        if compilingPatterns {
            for channelPatterns in patterns {
                guard let channelPatterns else { continue }
                for index in 0..<channelPatterns.count { _ = try channelPatterns.compile(index) }
            }
        }
    }

    /// `items` in order, each once: the first of those with its `number` (small and dense, an
    /// ordinal or index, which tells them apart as their `==` does).
    private static func firstOfEach<Item>(_ items: [Item], by number: (Item) -> Int) -> [Item] {
        var seen = [Bool](repeating: false, count: (items.lazy.map(number).max() ?? -1) + 1)
        return items.filter { item in
            let position = number(item)
            defer { seen[position] = true }
            return !seen[position]
        }
    }

    /// `channel` compiled, made at the first call; nil for a channel without rules (or not
    /// the catalogue's).
    public func compiled(_ channel: Channel) -> CompiledChannel? {
        guard let position = allChannels.firstIndex(of: channel), let channelPatterns = patterns[position] else { return nil }
        return compiledChannels.channel(at: position) {
            CompiledChannel(channel: channel, rules: members[position], patterns: channelPatterns)
        }
    }

    /// The prefilter of the channels that read records without a marker (`UnmarkedPrefilter`),
    /// made from their rules at the first call, without compiling them.
    var unmarkedPrefilter: UnmarkedPrefilter {
        unmarkedPrefilterMade.value { UnmarkedPrefilter(allChannels.filter(\.readsUnmarked).flatMap(rules(of:))) }
    }

    /// `channel`'s rules, in catalogue order, without compiling them; none for a channel
    /// without rules (or not the catalogue's).
    func rules(of channel: Channel) -> [Rule] {
        allChannels.firstIndex(of: channel).map { members[$0] } ?? []
    }

    /// Every channel with rules, compiled (all of them: for tests and tools that read them all).
    public var channels: [CompiledChannel] { allChannels.compactMap(compiled) }

    /// How many channels, and how many patterns, are compiled so far (for tests).
    var compiledChannelCount: Int { compiledChannels.count }
    var compiledPatternCount: Int { patterns.reduce(0) { $0 + ($1?.compiledCount ?? 0) } }

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

/// The catalogue's channels, each compiled at its first use, by `allChannels` position: shared
/// by the threads (and the tests) that read one catalogue.
private final class CompiledChannels: Sendable {
    private let made: Mutex<[CompiledChannel?]>

    init(count: Int) { made = Mutex([CompiledChannel?](repeating: nil, count: count)) }

    var count: Int { made.withLock { $0.count { $0 != nil } } }

    func channel(at position: Int, _ make: () -> CompiledChannel) -> CompiledChannel {
        made.withLock { made in
            if let channel = made[position] { return channel }
            let channel = make()
            made[position] = channel
            return channel
        }
    }
}

/// A value made at the first call of `value` and kept, whichever thread asks first.
private final class MadeOnce<Value: Sendable>: Sendable {
    private let made = Mutex<Value?>(nil)

    func value(_ make: () -> Value) -> Value {
        made.withLock { made in
            if let value = made { return value }
            let value = make()
            made = value
            return value
        }
    }
}
