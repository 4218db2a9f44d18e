// Which rule a message matches, defined as one pattern: a channel's rules joined into one
// alternation, each branch opening with (*MARK:n). The match is at the first line where any
// rule matches and, there, by the first rule in order. The classifier finds the same rule
// without running this pattern (`ChannelSearch`, `RuleIndex`); the tests hold the two to each
// other on every sample and fixture. A run never compiles it.
import PatternLeads
import PCRE2

struct JoinedAlternation {
    let pattern: String
    let options: CompileOptions
    /// Where each rule's groups start in the joined pattern (rule n's group g is `base + g`).
    let groupBases: [Int]

    init(_ compiled: CompiledChannel) {
        let rules = compiled.rules
        var lineStart: [String] = []
        var afterObject: [String] = []
        for (index, rule) in rules.enumerated() {
            switch rule.position {
            case .method, .withoutMethod:
                break
            case .lineStart:
                // Skips the whole rule at once where its first byte cannot be.
                let guardClass = LeadingBytes.of(rule.pattern).map { "(?=" + LeadingBytes.characterClass($0) + ")" } ?? ""
                lineStart.append("\(guardClass)(*MARK:\(index))(?:\(rule.pattern))")
            case .afterObject:
                afterObject.append("(*MARK:\(index))(?:\(rule.pattern))")
            }
        }
        // Groups are numbered in the order the branches stand: every line-start rule, then
        // every after-object rule.
        var bases = [Int](repeating: 0, count: rules.count)
        var captures = 0
        for position in [RulePosition.lineStart, .afterObject] {
            for (index, rule) in rules.enumerated() where rule.position == position {
                bases[index] = captures
                captures += compiled.patterns[index].captureCount
            }
        }
        groupBases = bases
        // After-object phrases may follow the logging object's description on the same line:
        // after up to 40 blanks or colons (a description's last line has a handful).
        var branches = lineStart
        if !afterObject.isEmpty {
            branches.append(#"(?:[^ :\n]*+[ :]){0,40}?[ ]?(?:"# + afterObject.joined(separator: "|") + ")")
        }
        let alternation = "(?:" + branches.joined(separator: "|") + ")"
        switch compiled.channel.shape {
        case .lines:
            // Any line of the message may hold the text (after a logged object's description).
            pattern = #"^[ \t]*+"# + alternation
            options = [.multiline, .duplicateNames]
        case .linesPastDescription:
            // Any line, past the logging object's description when one starts it.
            // The match is told from past the description (`\K`), as the search tells it.
            pattern = #"^[ \t]*+(?:<[^>\n]{1,200}>(?::|[ ]-)?[ ]*\K)?"# + alternation
            options = [.multiline, .duplicateNames]
        case .startPastSubsystemTag:
            pattern = #"(?:\[[^\]\n]{1,80}\][ \t]+\K)?"# + alternation
            options = [.anchored, .duplicateNames]
        case .startPastLoggerTag:
            // At the message start, after at most one tag an app's logger may add: `[USM] `, `StoreManager: `;
            // of its blanks, at most `ChannelSearch.maxBlanksGivenBack` (2) given back.
            pattern = #"(?:(?:\[[^\]\n]{1,40}\]|[A-Za-z][\w.-]{0,40}:)[ \t]+(?=[ \t]{0,2}(?![ \t])))?"# + alternation
            options = [.anchored, .duplicateNames]
        }
    }
}
