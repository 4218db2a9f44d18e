// Turns records into events. The rules of a channel are joined into one JIT-compiled
// alternation, each branch opening with (*MARK:n): one match attempt per record finds the
// rule, however many rules there are, and the mark says which one matched.
import PCRE2

/// A catalogue error: a rule whose pattern PCRE2 rejects (with PCRE2's message and offset),
/// or two rules with one id.
public struct CatalogError: Error, CustomStringConvertible, Sendable {
    public let ruleID: String
    public let reason: String
    public var description: String { "rule \(ruleID): \(reason)" }
}

/// The compiled form of one channel's rules.
public struct CompiledChannel: Sendable {
    public let channel: Channel
    public let rules: [Rule]
    let regex: Regex
    /// Where each rule's groups start in the joined pattern.
    let groupBases: [Int]
    /// Each rule's own group names and numbers.
    let groupNumbers: [[String: [Int]]]
    /// Each rule's named groups in the order of their numbers: a builder's fields without
    /// walking and sorting the dictionary for every record.
    let orderedGroups: [[RuleMatch.NamedGroup]]
    /// `.method` rules by logging method, each compiled alone: they are tried only when the
    /// joined pattern finds nothing, so they cost nothing on other records.
    let methodRules: [String: [(index: Int, regex: Regex)]]

    init(channel: Channel, rules: [Rule]) throws(CatalogError) {
        self.channel = channel
        self.rules = rules
        var bases = [Int](repeating: 0, count: rules.count)
        var names: [[String: [Int]]] = []
        var compiled: [Regex] = []
        var lineStart: [String] = []
        var afterObject: [String] = []
        var byMethod: [String: [(index: Int, regex: Regex)]] = [:]
        for (index, rule) in rules.enumerated() {
            let alone: Regex
            do { alone = try Regex(rule.pattern, options: .duplicateNames) } catch {
                throw CatalogError(ruleID: rule.id, reason: "pattern does not compile: \(error)")
            }
            names.append(alone.groupNumbers)
            compiled.append(alone)
            switch rule.position {
            case .method:
                if rule.methods.isEmpty { throw CatalogError(ruleID: rule.id, reason: "a method rule names no method") }
                for method in rule.methods { byMethod[method, default: []].append((index, alone)) }
            case .lineStart:
                // Skip the whole rule at once where its first byte cannot be (see LeadingBytes).
                let guardClass = LeadingBytes.of(rule.pattern).map { "(?=" + LeadingBytes.characterClass($0) + ")" } ?? ""
                lineStart.append("\(guardClass)(*MARK:\(index))(?:\(rule.pattern))")
            case .afterObject:
                afterObject.append("(*MARK:\(index))(?:\(rule.pattern))")
            }
        }
        // Groups are numbered in the order the branches stand in the joined pattern: every
        // line-start rule, then every after-object rule.
        var captures = 0
        for position in [RulePosition.lineStart, .afterObject] {
            for (index, rule) in rules.enumerated() where rule.position == position {
                bases[index] = captures
                captures += compiled[index].captureCount
            }
        }
        // After-object phrases share one scan of the line: it jumps from one blank or colon to
        // the next (a possessive run, not a character at a time) and tries all of them there,
        // instead of each rule scanning alone. It stops after 40 separators (a description's
        // last line has a handful), so a hostile line costs one pass, far below the match limit.
        var branches = lineStart
        if !afterObject.isEmpty {
            // Where none of the phrases can start, the scan moves on after one class test.
            let firsts = rules.filter { $0.position == .afterObject }.map { LeadingBytes.of($0.pattern) }
            let union = firsts.contains { $0 == nil } ? nil : firsts.compactMap { $0 }.reduce(into: Set<UInt8>()) { $0.formUnion($1) }
            let guardClass = union.map { "(?=" + LeadingBytes.characterClass($0) + ")" } ?? ""
            branches.append(#"(?:[^ :\n]*+[ :]){0,40}?[ ]?"# + guardClass + "(?:" + afterObject.joined(separator: "|") + ")")
        }
        let alternation = "(?:" + branches.joined(separator: "|") + ")"
        let joined: String
        let options: CompileOptions
        switch channel {
        case .ubiquity, .coreDataError:
            // Any line of the message may hold the text (after a logged object's description).
            joined = #"^[ \t]*+"# + alternation
            options = [.multiline, .duplicateNames]
        case .storeManager:
            // At the message start, after at most one tag an app's logger may add: `[USM] `, `StoreManager: `.
            joined = #"(?:(?:\[[^\]\n]{1,40}\]|[A-Za-z][\w.-]{0,40}:)[ \t]+)?"# + alternation
            options = [.anchored, .duplicateNames]
        }
        do { regex = try Regex(joined, options: options) } catch {
            throw CatalogError(ruleID: "(\(channel.rawValue) channel)", reason: "joined pattern does not compile: \(error)")
        }
        groupBases = bases
        groupNumbers = names
        orderedGroups = names.map { groups in
            groups.map { RuleMatch.NamedGroup(name: $0.key, numbers: $0.value) }
                .sorted { ($0.numbers.first ?? 0) < ($1.numbers.first ?? 0) }
        }
        methodRules = byMethod
    }

    /// `-[A b:]` for `__34-[A b:]_block_invoke_2`: the method as `.method` rules name it.
    static func baseMethod(_ method: String) -> Substring {
        var name = method[...]
        if name.hasPrefix("__"), let bracket = name.firstIndex(where: { $0 == "-" || $0 == "+" }) { name = name[bracket...] }
        if let suffix = name.firstRange(ofASCII: "]_block_invoke") { name = name[..<name.index(after: suffix.lowerBound)] }
        return name
    }
}

/// What the classifier made of a record.
public struct Classification: Sendable {
    public var event: Event
    /// The rule that recognised the record; nil for unhandled and app records.
    public var rule: Rule?
    /// Where in the record's text the rule matched (the line the message starts on).
    public var matchStart: Int?
}

public final class Classifier {
    public let catalog: Catalog
    /// By `Channel.index`: a channel's hash is its raw value's, a string hashed per record.
    private let matchers: [(CompiledChannel, Matcher)?]
    /// Records on which a rule gave up because it hit PCRE2's match limit.
    public private(set) var limitHits = 0

    private let limits: MatchLimits
    private let extraction = Extract.Matchers()
    /// Matchers of `.method` rules, made when first needed (by rule id).
    private var methodMatchers: [String: Matcher] = [:]

    public init(catalog: Catalog, limits: MatchLimits = .standard) {
        self.catalog = catalog
        self.limits = limits
        var matchers = [(CompiledChannel, Matcher)?](repeating: nil, count: Channel.allCases.count)
        for compiled in catalog.channels {
            matchers[compiled.channel.index] = (compiled, Matcher(compiled.regex, limits: limits))
        }
        self.matchers = matchers
    }

    public func classify(_ record: Record) -> Classification {
        switch record.marker {
        case .ubiquity?:
            return match(record, on: .ubiquity).classification { .unhandled(limitHit: $0) }
        case .coreDataError?:
            return match(record, on: .coreDataError).classification { _ in
                .message(.coreDataError, [Field("message", .string(record.firstBodyText))])
            }
        case .storeManager?:
            return match(record, on: .storeManager).classification { .unhandled(limitHit: $0) }
        case nil:
            return match(record, on: .storeManager).classification { _ in .app }
        }
    }

    private enum Outcome {
        case matched(Classification)
        /// No rule matched; `limitHit` when one gave up at the match limit.
        case none(limitHit: Bool)

        func classification(otherwise fallback: (Bool) -> Event) -> Classification {
            switch self {
            case .matched(let classification): classification
            case .none(let limitHit): Classification(event: fallback(limitHit))
            }
        }
    }

    private func match(_ record: Record, on channel: Channel) -> Outcome {
        guard let (compiled, matcher) = matchers[channel.index] else { return .none(limitHit: false) }
        let bodyStart = min(record.bodyStart, record.text.count)
        return record.text.withUnsafeBytes { whole -> Outcome in
            let body = UnsafeRawBufferPointer(rebasing: whole[bodyStart...])
            let index: Int
            var used = matcher
            do throws(PCRE2Error) {
                if try matcher.matches(body), let mark = matcher.numericMark, mark < compiled.rules.count {
                    index = mark
                } else if let (mark, methodMatcher) = try matchByMethod(record, compiled, body) {
                    index = mark
                    used = methodMatcher
                } else {
                    return .none(limitHit: false)
                }
            } catch {
                if error.isResourceLimit { limitHits += 1 }
                return .none(limitHit: true)
            }
            let rule = compiled.rules[index]
            let found = RuleMatch(record: record, subject: body, matcher: used,
                                  groupBase: compiled.groupBases[index], groupNumbers: compiled.groupNumbers[index],
                                  orderedGroups: compiled.orderedGroups[index],
                                  extraction: extraction)
            let start = used.range(ofGroup: 0).map { bodyStart + $0.lowerBound }
            return .matched(Classification(event: rule.build(found), rule: rule, matchStart: start))
        }
    }
}

extension Classifier {
    /// The first `.method` rule of the record's logging method whose pattern matches.
    private func matchByMethod(_ record: Record, _ compiled: CompiledChannel, _ body: UnsafeRawBufferPointer)
        throws(PCRE2Error) -> (Int, Matcher)? {
        guard !compiled.methodRules.isEmpty, let method = record.header?.method,
              let candidates = compiled.methodRules[String(CompiledChannel.baseMethod(method))]
        else { return nil }
        for (index, regex) in candidates {
            let id = compiled.rules[index].id
            let matcher = methodMatchers[id] ?? Matcher(regex, limits: limits)
            methodMatchers[id] = matcher
            if try matcher.matches(body) { return (index, matcher) }
        }
        return nil
    }
}

extension Record {
    /// The first line of the message as text (invalid UTF-8 as \\xNN).
    var firstBodyText: String { ByteText.string(firstBodyLine) }
}
