// A classification rule: a PCRE2 pattern with named groups, the kind it recognises, the
// Swift code that builds the typed event from a match, and sample records for the tests.
import PCRE2

/// Which records a rule is tried on, by the marker that starts their message.
public enum Channel: String, Sendable, CaseIterable {
    /// `CoreData: Ubiquity:` records. Patterns may start at the beginning of any line of
    /// the message: older OS versions print the logging object's description first.
    case ubiquity
    /// `CoreData: error:` records.
    case coreDataError
    /// UbiquityStoreManager's messages: with its own marker, or re-prefixed by an app's logger
    /// (so these rules are also tried, at the message start only, on the app's records).
    case storeManager
    /// `CoreData+CloudKit:` records (Core Data's CloudKit mirroring). Patterns are tried at the
    /// start of each line of the message and after the logging object's description that
    /// most messages start with (`<NSCloudKitMirroringDelegate: 0x…>: `, `<private> - `).
    case cloudKit
    /// Lines of CloudKit's own framework and daemons (`dasd`, `apsd`, the CloudKit framework
    /// in the app) that carry no marker: tried on the app's records, at the message start
    /// (after one `[subsystem:category]`), when no store manager rule matched.
    case cloudKitFramework

    /// Dense, from 0: for tables by channel.
    var index: Int {
        switch self {
        case .ubiquity: 0
        case .coreDataError: 1
        case .storeManager: 2
        case .cloudKit: 3
        case .cloudKitFramework: 4
        }
    }
}

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
    /// Whole records, as a log would print them, that this rule must recognise.
    public let samples: [String]
    /// Whether `build` makes `.message(kind, facts)` and nothing else (`message` and `phrases`
    /// rules): then, when no part of the run reads the facts of `kind`, the classifier makes
    /// `.message(kind, [])` without calling it (see `Classifier.init(catalog:limits:readsFacts:readsDetails:)`).
    let buildsFactsOnly: Bool
    /// Kinds besides `kind` that `build` may make (a failure reported by its cause's kind).
    public let alsoProduces: [EventKind]

    public convenience init(
        _ id: String, _ channel: Channel, _ kind: EventKind, _ pattern: String,
        position: RulePosition = .lineStart, methods: [String] = [],
        samples: [String], build: @escaping @Sendable (RuleMatch) -> Event
    ) {
        self.init(id, channel, kind, pattern, position: position, methods: methods, samples: samples, buildsFactsOnly: false, build: build)
    }

    private init(
        _ id: String, _ channel: Channel, _ kind: EventKind, _ pattern: String, position: RulePosition, methods: [String],
        samples: [String], buildsFactsOnly: Bool, alsoProduces: [EventKind] = [], build: @escaping @Sendable (RuleMatch) -> Event
    ) {
        self.alsoProduces = alsoProduces
        self.id = id
        self.channel = channel
        self.kind = kind
        self.pattern = pattern
        self.position = position
        self.methods = methods
        self.samples = samples
        self.buildsFactsOnly = buildsFactsOnly
        self.build = build
    }

    /// A rule whose `build` makes `.message(kind, facts)` and nothing else, as `message` and
    /// `phrases` rules do (`buildsFactsOnly`): a family's own way of making its facts.
    static func factsOnly(
        _ id: String, _ channel: Channel, _ kind: EventKind, _ pattern: String,
        position: RulePosition = .lineStart, methods: [String] = [],
        samples: [String], build: @escaping @Sendable (RuleMatch) -> Event
    ) -> Rule {
        Rule(id, channel, kind, pattern, position: position, methods: methods, samples: samples, buildsFactsOnly: true, build: build)
    }

    /// This rule, declaring that its builder may also make events of `kinds`.
    public func producing(_ kinds: [EventKind]) -> Rule {
        Rule(id, channel, kind, pattern, position: position, methods: methods, samples: samples, buildsFactsOnly: buildsFactsOnly,
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
        numeric: Set<String> = [], samples: [String]
    ) -> Rule {
        let withFacts = kind.severity >= .warning
        return Rule(id, channel, kind, pattern, position: .lineStart, methods: [], samples: samples, buildsFactsOnly: true) { match in
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
        position: RulePosition = .lineStart, methods: [String] = [], channel: Channel = .ubiquity,
        numeric: Set<String> = [], samples: [String]
    ) -> Rule {
        let pattern = "(?<what>" + phrases.joined(separator: "|") + ")"
        let withFacts = kind.severity >= .warning
        return Rule(id, channel, kind, pattern, position: position, methods: methods, samples: samples, buildsFactsOnly: true) { match in
            // `what` is the outermost group: it comes first, and only its first line is kept
            // (found on the bytes: it can span a whole message).
            let what = match.range("what").map { Field("what", .span(match.span(Extract.phraseRange(match.messageBytes, $0)))) }
            var fields = match.fields(numeric: numeric, skipping: "what", leading: what, spare: withFacts ? FieldList.roomForFacts : 0)
            if withFacts { fields += Extract.facts(in: match.messageBytes, after: match.matchEnd) }
            return .message(kind, fields)
        }
    }
}

/// What a rule's builder sees of a match: its named groups as text, and the record.
/// Valid only during the builder call.
public struct RuleMatch {
    public let record: Record
    let subject: UnsafeRawBufferPointer
    /// Where `subject` starts in the record's text.
    let subjectStart: Int
    /// The rule's own matcher, holding the match.
    let matcher: Matcher
    /// The rule's named groups ordered by their first number.
    let orderedGroups: [NamedGroup]
    /// Whether any part of the run reads the parts of this rule's event that only a reporter
    /// prints (`Reporter.readsDetails(of:)`): the attributes of dumped objects, a resolved
    /// relationship's value. When none does, a builder leaves them empty: making them is most
    /// of what it costs, and `-q` or the default timeline never show them.
    public let readsDetails: Bool

    /// The first error printed in the message from byte `start` (with its reason, file and
    /// underlying error).
    public func error(from start: Int = 0) -> ErrorInfo? {
        Extract.error(in: subject, from: min(start, subject.count))
    }

    /// The first error printed after the match, else the first in the message
    /// (`Extract.error(in:after:)`).
    func errorAfterMatch() -> ErrorInfo? {
        Extract.error(in: subject, after: matchEnd)
    }

    /// The text of a named group, or nil when it did not take part in the match.
    public subscript(_ name: String) -> String? {
        guard let range = range(name) else { return nil }
        return ByteText.string(UnsafeRawBufferPointer(rebasing: subject[range]))
    }

    /// A named group read as a whole number.
    public func int(_ name: String) -> Int? {
        guard let range = range(name) else { return nil }
        return decimal(subject, range)
    }

    /// The whole message (the record after its header and marker), for rules that parse
    /// more than their pattern captures (object dumps, errors).
    public var message: String { ByteText.string(subject) }

    /// The message as bytes, for parsers that scan long dumps.
    public var messageBytes: UnsafeRawBufferPointer { subject }

    /// Where the match ends in the message.
    public var matchEnd: Int { matcher.range(ofGroup: 0)?.upperBound ?? subject.count }

    /// The bytes from the end of the match to the end of the message.
    public var restBytes: UnsafeRawBufferPointer {
        guard let whole = matcher.range(ofGroup: 0) else { return UnsafeRawBufferPointer(rebasing: subject[subject.count...]) }
        return UnsafeRawBufferPointer(rebasing: subject[whole.upperBound...])
    }

    /// The text from the end of the match to the end of the message.
    public var rest: String {
        guard let whole = matcher.range(ofGroup: 0) else { return "" }
        return ByteText.string(UnsafeRawBufferPointer(rebasing: subject[whole.upperBound...]))
    }

    /// Found among the rule's own few groups, names compared as they stand (short names are
    /// compared as two words): the pattern's table by name hashes the name for each lookup,
    /// too costly when builders ask for a group or two per record.
    func range(_ name: String) -> Range<Int>? {
        for group in orderedGroups where group.name == name { return matcher.range(ofFirstOf: group.numbers) }
        return nil
    }

    /// The record's text at `range` of the message: a fact as a slice, no String made.
    func span(_ range: Range<Int>) -> RecordText {
        let start = record.text.startIndex + subjectStart
        return record.text[start + range.lowerBound..<start + range.upperBound]
    }

    /// Whether a named group matched the text `literal` (nil when it did not take part),
    /// compared on the bytes.
    func group(_ name: String, is literal: StaticString) -> Bool? {
        guard let range = range(name) else { return nil }
        return range.count == literal.utf8CodeUnitCount
            && UnsafeRawBufferPointer(rebasing: subject[range]).elementsEqual(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    struct NamedGroup: Sendable {
        let name: String
        let numbers: [Int]
    }

    /// Every named group that matched, in the order of the group numbers (of a name used by
    /// several groups, the first that matched says where it stands).
    /// `leading` comes first; the group named `skipped` is left out. (The groups found are
    /// gathered on the stack and the fields made in one array of the right size: this runs
    /// for most records.)
    /// `spare`: room for the fields the builder adds after these (its facts, an error), made
    /// with the array: an array grown by appending past its room is allocated again and
    /// copied (see `FieldList.roomForFacts`).
    func fields(numeric: Set<String>, skipping skipped: String? = nil, leading: Field? = nil, spare: Int = 0) -> [Field] {
        withUnsafeTemporaryAllocation(of: (number: Int, group: Int, range: Range<Int>).self,
                                      capacity: orderedGroups.count) { named in
            var count = 0
            for (index, group) in orderedGroups.enumerated() where group.name != skipped {
                for number in group.numbers {
                    if let range = matcher.range(ofGroup: number) {
                        named.initializeElement(at: count, to: (number, index, range))
                        count += 1
                        break
                    }
                }
            }
            var found = UnsafeMutableBufferPointer(rebasing: named[..<count])
            if count > 1 { found.sort { $0.number < $1.number } }
            var fields: [Field] = []
            fields.reserveCapacity(count + (leading == nil ? 0 : 1) + spare)
            if let leading { fields.append(leading) }
            for (_, index, range) in found {
                let name = orderedGroups[index].name
                // An empty set is not asked: Set.contains hashes the name all the same (most
                // rules have no numeric group).
                if !numeric.isEmpty, numeric.contains(name), let value = decimal(subject, range) {
                    fields.append(Field(name, .int(value)))
                } else {
                    fields.append(Field(name, .span(span(range))))
                }
            }
            _ = found.deinitialize()
            return fields
        }
    }
}
