// One channel's rules compiled: each pattern alone, the index of their leading texts, and
// the options a channel's patterns are compiled with.
import PCRE2
import Synchronization

/// The compiled form of one channel's rules. Made when a run first reads a record of the
/// channel (`Catalog.compiled(_:)`); each pattern compiled when first asked for (`patterns`).
public struct CompiledChannel: Sendable {
    public let channel: Channel
    public let rules: [Rule]
    /// Each rule's pattern compiled alone: anchored, with the channel's options, for the rules
    /// the index runs at one position; as it is for `.method` rules, searched in the message.
    let patterns: RulePatterns
    /// `.lineStart` rules, by the text they start with.
    let lineStart: RuleIndex
    /// `.afterObject` rules, by the text they start with; nil when the channel has none.
    let afterObject: RuleIndex?
    /// `.method` rules by logging method: they are tried only when no other rule matches, so
    /// they cost nothing on other records.
    let methodRules: [String: [Int]]
    /// `.withoutMethod` rules, tried when no other rule matches a record that names no method.
    let withoutMethodRules: [Int]

    init(channel: Channel, rules: [Rule], patterns: RulePatterns) {
        self.channel = channel
        self.rules = rules
        self.patterns = patterns
        var lineStart: [(number: Int, pattern: String)] = []
        var afterObject: [(number: Int, pattern: String)] = []
        var byMethod: [String: [Int]] = [:]
        var withoutMethod: [Int] = []
        for (index, rule) in rules.enumerated() {
            switch rule.position {
            case .method:
                for method in rule.methods { byMethod[method, default: []].append(index) }
            case .withoutMethod:
                withoutMethod.append(index)
            case .lineStart:
                lineStart.append((index, rule.pattern))
            case .afterObject:
                afterObject.append((index, rule.pattern))
            }
        }
        self.lineStart = RuleIndex(rules: lineStart)
        self.afterObject = afterObject.isEmpty ? nil : RuleIndex(rules: afterObject)
        methodRules = byMethod
        withoutMethodRules = withoutMethod
    }

    /// What `init` would find wrong with `rules`, without compiling them.
    static func check(_ rules: [Rule]) throws(CatalogError) {
        for rule in rules where rule.position == .method && rule.methods.isEmpty {
            throw CatalogError(ruleID: rule.id, reason: "a method rule names no method")
        }
    }

    /// `-[A b:]` for `__34-[A b:]_block_invoke_2`: the method as `.method` rules name it.
    static func baseMethod(_ method: String) -> Substring {
        var name = method[...]
        if name.hasPrefix("__"), let bracket = name.firstIndex(where: { $0 == "-" || $0 == "+" }) { name = name[bracket...] }
        if let suffix = name.firstRange(ofASCII: "]_block_invoke") ?? name.firstRange(ofASCII: "]block_invoke") {
            name = name[..<name.index(after: suffix.lowerBound)]
        }
        return name
    }
}

/// One channel's patterns, each compiled (and JIT-compiled) when first asked for: a run
/// compiles the patterns of the rules its records are candidates for, not the catalogue's
/// every one. Shared by the threads that search the channel.
final class RulePatterns: Sendable {
    let rules: [Rule]
    private let options: [CompileOptions]
    private let compiled: Mutex<[Regex?]>

    init(channel: Channel, rules: [Rule]) {
        self.rules = rules
        options = rules.map { rule in
            rule.position == .method || rule.position == .withoutMethod
                ? .duplicateNames : channel.shape.options.union([.anchored, .duplicateNames])
        }
        compiled = Mutex([Regex?](repeating: nil, count: rules.count))
    }

    var count: Int { rules.count }
    /// How many are compiled so far (for tests).
    var compiledCount: Int { compiled.withLock { $0.count { $0 != nil } } }

    /// Rule `index`'s pattern compiled; a pattern PCRE2 rejects throws.
    func compile(_ index: Int) throws(CatalogError) -> Regex {
        let made: Result<Regex, CatalogError> = compiled.withLock { compiled in
            if let regex = compiled[index] { return .success(regex) }
            do {
                let regex = try Regex(rules[index].pattern, options: options[index])
                compiled[index] = regex
                return .success(regex)
            } catch {
                return .failure(CatalogError(ruleID: rules[index].id, reason: "pattern does not compile: \(error)"))
            }
        }
        return try made.get()
    }

    /// Rule `index`'s pattern compiled. The catalogue's patterns all compile (a test compiles
    /// every one, and a catalogue made with `Catalog(rules:)` compiles its own at once).
    subscript(index: Int) -> Regex {
        do { return try compile(index) } catch { fatalError("\(error)") }
    }
}
