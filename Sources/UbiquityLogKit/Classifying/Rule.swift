// A classification rule: a PCRE2 pattern with named groups, the kind it recognises, the
// Swift code that builds the typed event from a match, and sample records for the tests.
import PCRE2

/// Where in a message a rule's pattern is tried.
public enum RulePosition: Sendable {
    /// At the start of any line of the message (after leading blanks).
    case lineStart
    /// Also after text on the same line: messages that start with the logging object's
    /// description (`%@ successfully rolled baseline: %@`) print their words after its
    /// last line. These rules share one scan of each line (see `CompiledChannel`).
    case afterObject
    /// Only on records printed by one of the rule's `methods`, when no text rule matched:
    /// for messages that are all values (`%@`) or whose words say nothing alone (`%@\nError: %@`).
    case method
    /// Only on records that print no logging method (iOS 5 and 6), when no text rule matched:
    /// the same messages as `.method` rules', told by the object they start with.
    case withoutMethod
}

/// A class: every classified record keeps its rule, and a copy of a struct would retain (and
/// later release) each of its strings, arrays and its builder.
public final class Rule: Sendable {
    /// Unique id of the rule (several rules can produce one kind).
    public let id: String
    public let channel: Channel
    public let kind: EventKind
    /// PCRE2 syntax. Named groups only; no numbered back-references (rules are joined
    /// into one pattern, which renumbers groups).
    public let pattern: String
    public let position: RulePosition
    /// For `.method` rules: the logging methods, as printed without `_block_invoke` suffixes.
    public let methods: [String]
    public let build: @Sendable (RuleMatch) -> Event
    /// Whole records, as a log would print them, that this rule must recognise: made when
    /// asked (the tests, the benchmark's generator), not with the rule, as every start makes
    /// every rule.
    public var samples: [String] { makeSamples() }
    private let makeSamples: @Sendable () -> [String]
    /// Whether `build` makes `.message(kind, facts)` and nothing else (`message` and `phrases`
    /// rules): then, when no part of the run reads the facts of `kind`, the classifier makes
    /// `.message(kind, [])` without calling it (see `Classifier.init(catalog:limits:readsFacts:readsDetails:)`).
    let buildsFactsOnly: Bool
    /// Kinds besides `kind` that `build` may make (a failure reported by its cause's kind).
    public let alsoProduces: [EventKind]

    public convenience init(
        _ id: String, _ channel: Channel, _ kind: EventKind, _ pattern: String,
        position: RulePosition = .lineStart, methods: [String] = [],
        samples: @autoclosure @escaping @Sendable () -> [String], build: @escaping @Sendable (RuleMatch) -> Event
    ) {
        self.init(id, channel, kind, pattern, position: position, methods: methods, makeSamples: samples, buildsFactsOnly: false, build: build)
    }

    private init(
        _ id: String, _ channel: Channel, _ kind: EventKind, _ pattern: String, position: RulePosition, methods: [String],
        makeSamples: @escaping @Sendable () -> [String], buildsFactsOnly: Bool, alsoProduces: [EventKind] = [],
        build: @escaping @Sendable (RuleMatch) -> Event
    ) {
        self.alsoProduces = alsoProduces
        self.id = id
        self.channel = channel
        self.kind = kind
        self.pattern = pattern
        self.position = position
        self.methods = methods
        self.makeSamples = makeSamples
        self.buildsFactsOnly = buildsFactsOnly
        self.build = build
    }

    /// A rule whose `build` makes `.message(kind, facts)` and nothing else, as `message` and
    /// `phrases` rules do (`buildsFactsOnly`): a family's own way of making its facts.
    static func factsOnly(
        _ id: String, _ channel: Channel, _ kind: EventKind, _ pattern: String,
        position: RulePosition = .lineStart, methods: [String] = [],
        samples: @autoclosure @escaping @Sendable () -> [String], build: @escaping @Sendable (RuleMatch) -> Event
    ) -> Rule {
        Rule(id, channel, kind, pattern, position: position, methods: methods, makeSamples: samples, buildsFactsOnly: true, build: build)
    }

    /// This rule, declaring that its builder may also make events of `kinds`.
    public func producing(_ kinds: [EventKind]) -> Rule {
        Rule(id, channel, kind, pattern, position: position, methods: methods, makeSamples: makeSamples, buildsFactsOnly: buildsFactsOnly,
             alsoProduces: alsoProduces + kinds.filter { $0 != kind }, build: build)
    }

    /// Every kind the rule's events can have.
    public var kinds: [EventKind] { [kind] + alsoProduces }

    /// A rule whose event is its kind plus every named group that matched, as text fields
    /// (groups named in `numeric` become numbers). Warnings and errors also carry the facts
    /// found in the message (as `phrases` rules do): the error printed anywhere in the
    /// record, parsed, stands for a group's text of it.
    public static func message(
        _ id: String, _ channel: Channel, _ kind: EventKind, _ pattern: String,
        numeric: Set<String> = [], samples: @autoclosure @escaping @Sendable () -> [String]
    ) -> Rule {
        let withFacts = kind.severity >= .warning
        return Rule(id, channel, kind, pattern, position: .lineStart, methods: [], makeSamples: samples, buildsFactsOnly: true) { match in
            var fields = match.fields(numeric: numeric, spare: withFacts ? FieldList.roomForFacts : 0)
            guard withFacts else { return .message(kind, fields) }
            let facts = Extract.facts(in: match.messageBytes, after: match.matchEnd)
            if facts.contains(where: { $0.name == "error" }) { fields.removeAll { $0.name == "error" } }
            fields += facts.filter { fact in !fields.contains { $0.name == fact.name } }
            return .message(kind, fields)
        }
    }

    /// A rule that recognises any of several phrases (PCRE2 fragments, tried in order) and
    /// whose event names the phrase that matched as `what`. Warnings and errors also carry
    /// the facts found in the rest of the message: the error, log file, store URL, peer.
    public static func phrases(
        _ id: String, _ kind: EventKind, _ phrases: [String],
        position: RulePosition = .lineStart, methods: [String] = [], channel: Channel,
        numeric: Set<String> = [], samples: @autoclosure @escaping @Sendable () -> [String]
    ) -> Rule {
        // Appended one by one: `joined(separator:)` cost some 30,000 instructions for a list of
        // forty phrases, and every run makes the catalogue's rules.
        var pattern = "(?<what>"
        pattern.reserveCapacity(phrases.reduce(10) { $0 + $1.utf8.count + 1 })
        for (index, phrase) in phrases.enumerated() {
            if index > 0 { pattern += "|" }
            pattern += phrase
        }
        pattern += ")"
        let withFacts = kind.severity >= .warning
        return Rule(id, channel, kind, pattern, position: position, methods: methods, makeSamples: samples, buildsFactsOnly: true) { match in
            // `what` is the outermost group: it comes first, and only its first line is kept
            // (found on the bytes: it can span a whole message).
            let what = match.range("what").map { Field("what", .span(match.span(Extract.phraseRange(match.messageBytes, $0)))) }
            var fields = match.fields(numeric: numeric, skipping: "what", leading: what, spare: withFacts ? FieldList.roomForFacts : 0)
            if withFacts { fields += Extract.facts(in: match.messageBytes, after: match.matchEnd) }
            return .message(kind, fields)
        }
    }
}
