// One channel's rules compiled: each pattern alone, the index of their leading texts, and
// the options a channel's patterns are compiled with.
import PCRE2

/// The compiled form of one channel's rules.
public struct CompiledChannel: Sendable {
    public let channel: Channel
    public let rules: [Rule]
    /// Each rule's pattern compiled alone: anchored, with the channel's options, for the rules
    /// the index runs at one position; as it is for `.method` rules, searched in the message.
    let patterns: [Regex]
    /// Each rule's named groups in the order of their numbers: a builder's fields without
    /// walking and sorting the dictionary for every record.
    let orderedGroups: [[RuleMatch.NamedGroup]]
    /// `.lineStart` rules, by the text they start with.
    let lineStart: RuleIndex
    /// `.afterObject` rules, by the text they start with; nil when the channel has none.
    let afterObject: RuleIndex?
    /// `.method` rules by logging method: they are tried only when no other rule matches, so
    /// they cost nothing on other records.
    let methodRules: [String: [Int]]
    /// `.withoutMethod` rules, tried when no other rule matches a record that names no method.
    let withoutMethodRules: [Int]

    init(channel: Channel, rules: [Rule]) throws(CatalogError) {
        self.channel = channel
        self.rules = rules
        var patterns: [Regex] = []
        var lineStart: [(number: Int, pattern: String)] = []
        var afterObject: [(number: Int, pattern: String)] = []
        var byMethod: [String: [Int]] = [:]
        var withoutMethod: [Int] = []
        for (index, rule) in rules.enumerated() {
            let searched = rule.position == .method || rule.position == .withoutMethod
            let options: CompileOptions = searched ? .duplicateNames : channel.shape.options.union([.anchored, .duplicateNames])
            do { patterns.append(try Regex(rule.pattern, options: options)) } catch {
                throw CatalogError(ruleID: rule.id, reason: "pattern does not compile: \(error)")
            }
            switch rule.position {
            case .method:
                if rule.methods.isEmpty { throw CatalogError(ruleID: rule.id, reason: "a method rule names no method") }
                for method in rule.methods { byMethod[method, default: []].append(index) }
            case .withoutMethod:
                withoutMethod.append(index)
            case .lineStart:
                lineStart.append((index, rule.pattern))
            case .afterObject:
                afterObject.append((index, rule.pattern))
            }
        }
        self.patterns = patterns
        self.lineStart = RuleIndex(rules: lineStart)
        self.afterObject = afterObject.isEmpty ? nil : RuleIndex(rules: afterObject)
        orderedGroups = patterns.map { pattern in
            pattern.groupNumbers.map { RuleMatch.NamedGroup(name: $0.key, numbers: $0.value) }
                .sorted { ($0.numbers.first ?? 0) < ($1.numbers.first ?? 0) }
        }
        methodRules = byMethod
        withoutMethodRules = withoutMethod
    }

    /// `-[A b:]` for `__34-[A b:]_block_invoke_2`: the method as `.method` rules name it.
    static func baseMethod(_ method: String) -> Substring {
        var name = method[...]
        if name.hasPrefix("__"), let bracket = name.firstIndex(where: { $0 == "-" || $0 == "+" }) { name = name[bracket...] }
        if let suffix = name.firstRange(ofASCII: "]_block_invoke") { name = name[..<name.index(after: suffix.lowerBound)] }
        return name
    }
}
