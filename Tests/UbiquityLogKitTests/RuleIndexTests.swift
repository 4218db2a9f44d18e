// The classifier finds a message's rule from the rules' literal prefixes instead of running the
// channel's joined alternation. These tests hold the two to each other: the same rule, the
// same match and the same groups, on every sample, fixture and reference record and on bent
// copies of them, in every channel.
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit
import PatternLeads
import PCRE2

@Suite struct LiteralPrefixTests {
    func prefixes(_ pattern: String) -> Set<String> {
        Set(LeadingBytes.prefixes(of: pattern).map { String(decoding: $0, as: UTF8.self) })
    }

    @Test func literalsGroupsAndAlternations() {
        expectEqual(prefixes(#"Using local storage: (?<local>[01])"#), ["Using local storage: 0", "Using local storage: 1"])
        expectEqual(prefixes(#"(?<what>Error: A|Unable to|\(x\)|It)"#), ["Error: A", "Unable to", "(x)", "It"])
        expectEqual(prefixes(#"(?:Scheduling|adding) root scan|Fin"#), ["Scheduling root scan", "adding root scan", "Fin"])
        expectEqual(prefixes(String(repeating: "x", count: 200)), [String(repeating: "x", count: LeadingBytes.prefixLimit)])
    }

    @Test func optionalAndRepeatedItems() {
        expectEqual(prefixes(PatternPiece.objectPrefix + "Done"), ["<", "Done"])
        expectEqual(prefixes(#"[ ]*iCloud"#), [" ", "iCloud"])
        expectEqual(prefixes(#"(?:Truncated )?[Pp]ath: "#), ["Truncated path: ", "Truncated Path: ", "path: ", "Path: "])
        expectEqual(prefixes(#"ab+c"#), ["ab"], "what follows a repeated item is unknown")
        expectEqual(prefixes(#"a{2}b"#), ["a"])
        expectEqual(prefixes(#"a{x}"#), ["a{x}"], "a brace that opens no quantifier is itself")
        expectEqual(prefixes(#"(?s:x.*)y"#), ["x"])
    }

    @Test func anythingHarderEndsThePrefix() {
        expectEqual(prefixes(#"ab\d+"#), ["ab"])
        expectEqual(prefixes(#"[^ ]x"#), [""])
        expectEqual(prefixes(#"(?i)not enough"#), [""])
        expectEqual(prefixes(#"(?i:ab)c"#), ["abc", "aBc", "Abc", "ABc"])
        expectEqual(prefixes(#"(?i:abcdef)"#).count, 16, "four letters in both cases, then the prefix ends")
        expectEqual(prefixes(#"x?"#), [""], "a pattern that may match nothing may start anywhere")
    }

    func required(_ pattern: String) -> Set<String> {
        Set(LeadingBytes.requiredTexts(of: pattern).map { String(decoding: $0, as: UTF8.self) })
    }

    @Test func requiredTexts() {
        expectEqual(required(#"(?:(?<p>[^:]+):\n)?Using local: (?<l>[01])"#), ["Using local: "])
        expectEqual(required(#"(?<r>[^\n]*?)\.  ?Notify(?<a>x|y)"#), ["Notify"])
        expectEqual(required(#"ab+cde\d"#), ["cde"], "a repeated item ends a run after its first")
        expectEqual(required(#"x(?i)abc"#), [], "options set inside the pattern")
        expectEqual(required(#"abc|de"#), ["abc", "de"], "one text of each alternative")
        expectEqual(required(#"abc|[^x]+"#), [], "an alternative that requires nothing")
        expectEqual(required(#"[^\n]{0,30}?(?:\(Err |Error Domain=Foo Code=(?<c>\d+)|<Err 0x)"#), ["(Err ", "Error Domain=Foo Code=", "<Err 0x"], "a group's starts, cut where its prefixes are")
        expectEqual(required(#"[^\n]*?(?:Fail|Abort)ed to x"#), ["ed to x"], "the longer of a run and a group's texts")
        expectEqual(required(#"[^\n]*?(?:Failure|Abort)ed"#), ["Failure", "Abort"])
        expectEqual(required(#"\d+(?:a|)z"#), ["z"], "a group that can match nothing requires nothing")
        expectEqual(required(#"\d+(?:ab)?z"#), ["z"], "nor an optional group")
        expectEqual(required(#"\d+(?=Look)x"#), ["x"], "nor a lookahead")
    }

    @Test func pastSeparatorsLeadingColonsAndBlanksAreLeftOut() {
        func past(_ pattern: String) -> Set<String> {
            Set(LeadingBytes.prefixesPastSeparators(of: pattern).map { String(decoding: $0, as: UTF8.self) })
        }
        expectEqual(past(#"(?::[ ]*Successfully wrote|Checking)"#), ["Successfully wrote", "Checking"])
        expectEqual(past(#":?[ ]*Done"#), ["Done"])
        expectEqual(past(#"a(?::b|c)"#), ["a:b", "ac"], "only at the match's start")
        expectEqual(past(#"(?:x)?:Done"#), ["x:Done", ":Done"], "after an item that can match nothing, a colon stays")
    }

    /// The leads of `pattern` that are sure, as text.
    func sure(_ pattern: String, pastSeparators: Bool = false) -> Set<String> {
        let leads = pastSeparators ? LeadingBytes.leadsPastSeparators(of: pattern) : LeadingBytes.leads(of: pattern)
        return Set(leads.filter(\.sure).map { String(decoding: $0.bytes, as: UTF8.self) })
    }

    @Test func aTextFollowedByWhatMatchesAnythingIsSure() {
        expectEqual(sure(#"Stack Changes:"#), ["Stack Changes:"])
        expectEqual(sure(#"We are forked from baseline\.\.\.force it"#), ["We are forked from baseline...force it"])
        expectEqual(sure(#"Lit: (?<x>[^\n]*)"#), ["Lit: "])
        expectEqual(sure(#"Post store setup succee?ded\.[ ]*(?<store>[^\n]*)"#), ["Post store setup succeeded.", "Post store setup succeded."])
        expectEqual(sure(#"Lit(?: for token (?<t>[^\n]*)| or \d{2})?[ ]?"#), ["Lit"], "an optional group of fixed texts, each then anything")
        expectEqual(sure(#"(?<what>Moving on|Finished)[^\n]*"#), ["Moving on", "Finished"])
        expectEqual(sure(#"(?:a|b)c(?<x>[^\n]*?)"#), ["ac", "bc"], "lazy, but what follows matches anything")
        expectEqual(sure(#"(?i:ab)c"#), ["abc", "aBc", "Abc", "ABc"])
        expectEqual(sure(#"(?:Lit)??Done"#), ["Done"], "a lazy item is left out first")
    }

    @Test func aTextIsNotSureWhereThePatternRequiresMore() {
        expect(sure(#"Lit\d+"#).isEmpty)
        expectEqual(sure(#"Finished check: (?<result>-?\d+)|Done"#), ["Done"])
        expectEqual(sure(#"Lit(?:x)"#), ["Litx"])
        expect(sure(#"Lit(?:x)+"#).isEmpty)
        expect(sure(#"Lit(?=x)"#).isEmpty, "a lookahead")
        expect(sure(#"Lit$"#).isEmpty)
        expect(sure(#"Lit(?:(?<a>[A-Za-z]+)>)?"#).isEmpty, "what follows may fail")
        expect(sure(String(repeating: "x", count: 200)).isEmpty, "cut at the limit")
    }

    @Test func aTextIsNotSureWherePCRE2MayRunIntoItsLimitFirst() {
        // Each of these runs into the match limit (or the JIT's stack) on a long enough line
        // where its text stands, so a match is not certain.
        expect(sure(#"Lit[^\n]*?(?:\(URL: (?<u>[^)\n]+)\)|$)"#).isEmpty, "a lazy search for what follows")
        expect(sure(#"Lit(?:[^\n]*?x(?<d>\w+))?"#).isEmpty, "an optional group that searches")
        expect(sure(#"Lit(?:\n\t[^\n]*)*"#).isEmpty, "a repeated group")
        expect(sure(#"(?:[^\n]*?x)?Lit"#).isEmpty, "an optional item tried first, at any cost")
        expect(sure(#"(?:[^\n]*?x|Lit)"#).isEmpty, "an alternative tried first, at any cost")
        expectEqual(sure(#"(?:x[^\n]*?y)?Lit"#), ["Lit"], "tried first, but failing at once where the text stands")
        expect(sure(#"(?:L[^\n]*?y)?Lit"#).isEmpty, "not where its first byte is the text's")
        expectEqual(sure(#"(?:Truncated )?[Pp]ath: (?<p>[^\n]*)"#), ["Truncated path: ", "Truncated Path: ", "path: ", "Path: "])
        expectEqual(sure(#"(?:Scheduling|Store name: )?Store: "#), ["SchedulingStore: ", "Store name: Store: ", "Store: "], "items of bounded cost tried first")
        expectEqual(sure(#"(?:ab)?(?:x[^\n]*?y)?Lit"#), ["abLit"], "after an item that may have matched, one that relies on failing at once")
    }

    @Test func pastSeparatorsATextAfterARequiredColonIsNotSure() {
        expectEqual(sure(#"(?::[ ]*Done|Fine)"#, pastSeparators: true), ["Fine"])
        expectEqual(sure(#":?[ ]*Done"#, pastSeparators: true), ["Done"])
    }

    @Test func manyPrefixesAreShortenedNotDropped() {
        // 2^12 spellings: shortened until at most maxPrefixes remain, each still a prefix.
        let pattern = String(repeating: "[ab]", count: 12)
        let found = LeadingBytes.prefixes(of: pattern)
        expect(found.count <= LeadingBytes.maxPrefixes)
        expect(found.count > 1)
        expect(found.contains(Array("abab".utf8.prefix(found[0].count))) || found.allSatisfy { !$0.isEmpty })
    }

    /// Every sure lead of the catalogue's rules matches, whatever follows it: alone, at a line's
    /// end, before text, before a long line, before each of the rule's samples.
    @Test func everySureLeadOfTheCatalogueMatchesWhateverFollows() throws {
        var checked = 0
        for rule in Catalog.standardRules where rule.position == .lineStart || rule.position == .afterObject {
            let regex = try Regex(rule.pattern, options: rule.channel.shape.options.union([.anchored, .duplicateNames]))
            let matcher = Matcher(regex)
            var leads = LeadingBytes.leads(of: rule.pattern).filter(\.sure).map(\.bytes)
            if rule.pattern.hasPrefix(PatternPiece.objectPrefix) {
                let text = String(rule.pattern.dropFirst(PatternPiece.objectPrefix.count))
                leads += LeadingBytes.leads(of: text).filter(\.sure).map(\.bytes)
                leads += LeadingBytes.leadsPastSeparators(of: text).filter(\.sure).map { Array("<Obj: 0x1>: ".utf8) + $0.bytes }
            }
            let tails = ["", "\n", " (x) - y: z\nmore", String(repeating: "z", count: 5000), ")>'\"\t"] + rule.samples
            for lead in leads where lead.first != UInt8(ascii: "<") || rule.pattern.hasPrefix(PatternPiece.objectPrefix) {
                for tail in tails {
                    let subject = lead + Array(tail.utf8)
                    let matched = try subject.withUnsafeBytes { try matcher.matches($0) }
                    expect(matched, "\(rule.id): \(String(decoding: subject.prefix(200), as: UTF8.self))")
                    checked += 1
                }
            }
        }
        expect(checked > 1000)
    }

    @Test func everySampleMatchStartsWithOneOfItsRulesPrefixes() throws {
        for rule in Catalog.standardRules where rule.position != .method {
            let regex = try Regex(rule.pattern, options: rule.channel.shape.options.union(.duplicateNames))
            let matcher = Matcher(regex)
            let prefixes = LeadingBytes.prefixes(of: rule.pattern)
            for sample in rule.samples {
                let body = Array(try require(assemble(sample).first).body)
                try body.withUnsafeBytes { bytes in
                    var start = 0
                    while start <= bytes.count, try matcher.matches(bytes, from: start), let found = matcher.range(ofGroup: 0) {
                        expect(prefixes.contains { body[found.lowerBound...].starts(with: $0) }, "\(rule.id) at \(found.lowerBound)")
                        start = found.lowerBound + 1
                    }
                }
            }
        }
    }
}

@Suite struct RuleIndexTests {
    /// Rule numbers the index offers at the start of `text`, in order.
    func offered(_ index: RuleIndex, _ text: String) -> [Int] {
        var offered: [Int] = []
        Array(text.utf8).withUnsafeBytes { bytes in
            var absence = RuleIndex.Absence()
            var cursor = index.cursor(in: bytes, at: 0)
            while let candidate = index.next(&cursor, in: bytes, at: 0, &absence) { offered.append(candidate.rule) }
        }
        return offered
    }

    @Test func candidatesComeInRuleOrderEachOnce() {
        let index = RuleIndex(rules: [(0, "Foo"), (1, #"\d"#), (2, "F"), (3, "(?:Fo|Fx)o"), (4, "Bar"), (5, ".")])
        expectEqual(offered(index, "Foo bar"), [0, 1, 2, 3, 5])
        expectEqual(offered(index, "Fxo"), [1, 2, 3, 5])
        expectEqual(offered(index, "Bar"), [1, 4, 5])
        expectEqual(offered(index, "F"), [1, 2, 5], "one byte left: one-byte prefixes and the rules tried everywhere")
        expectEqual(offered(index, ""), [1, 5])
    }

    @Test func rulesTriedEverywhereNeedTheirTextInTheMessage() {
        let index = RuleIndex(rules: [(0, "Foo"), (1, #"[^x]*Needle"#), (2, #"\d+ Pin"#), (3, "Fo")])
        expectEqual(offered(index, "Foo Needle"), [0, 1, 3])
        expectEqual(offered(index, "Foo 12 Pin"), [0, 2, 3])
        expectEqual(offered(index, "Foo"), [0, 3], "neither required text is there")
        // What a message lacks is found out once and holds for its other positions.
        Array("ab Needle".utf8).withUnsafeBytes { bytes in
            var absence = RuleIndex.Absence()
            for position in [0, 3, 1] {
                var cursor = index.cursor(in: bytes, at: position)
                var rules: [Int] = []
                while let candidate = index.next(&cursor, in: bytes, at: position, &absence) { rules.append(candidate.rule) }
                expectEqual(rules, [1], "at \(position)")
            }
        }
    }

    @Test func aRuleFiledUnderAShorterLeadNeedsItsTextInTheMessage() {
        // Led by `[` (a tag may open its match) and by its text; every match holds the text.
        let index = RuleIndex(rules: [(0, #"(?:\[[^\]\n]{1,40}\][ ])?addPersistentStore failed"#), (1, #"\[x"#)])
        expectEqual(offered(index, "[tag] addPersistentStore failed"), [0])
        expectEqual(offered(index, "[x] other text"), [1], "`[` stands, the required text does not")
        expectEqual(offered(index, "[x] other text; addPersistentStore failed"), [0, 1], "looked for in the whole message")
        expectEqual(offered(index, "addPersistentStore failed"), [0])
        expectEqual(offeredSure(index, "addPersistentStore failed"), true)
        // A slot of its own, looked for apart from the one pass of the rules tried everywhere.
        expectEqual(index.tables.allSlotCount, 1)
        expectEqual(index.tables.slotCount, 0)
    }

    @Test func aNeedleIsFoundWhereverItStands() {
        func found(_ text: String, in subject: String) -> Bool {
            Array(text.utf8).withUnsafeBytes { text in
                Array(subject.utf8).withUnsafeBytes { RareByteSearch.firstOffset(of: text, in: $0) != nil }
            }
        }
        expectEqual(Array(" received Push".utf8).withUnsafeBytes { RareByteSearch.anchor(of: $0) }, 10, "looked for by its capital")
        expect(found(" received Push", in: " received Push"))
        expect(found(" received Push", in: "x received Pus received Push y"))
        expect(!found(" received Push", in: " received Pus"), "cut at the subject's end")
        expect(!found(" received Push", in: "received Push"))
        expect(!found(" received Push", in: "Push received push"), "a capital before the text does not count")
        expect(found("ab", in: "xxab"))
        expect(!found("ab", in: "a"))
        expect(found("", in: ""))
    }

    @Test func aTextIsFoundByItsRareByteAtItsFirstOccurrence() {
        func offset(_ text: String, in subject: String) -> Int? {
            Array(text.utf8).withUnsafeBytes { text in
                Array(subject.utf8).withUnsafeBytes { RareByteSearch.firstOffset(of: text, in: $0) }
            }
        }
        expectEqual(Array("does Not".utf8).withUnsafeBytes { RareByteSearch.anchor(of: $0) }, 5)
        expectEqual(Array("<CKError 0x".utf8).withUnsafeBytes { RareByteSearch.anchorInLogs(of: $0) }, 2, "K, rarer in logs than C")
        expectEqual(Array("does not".utf8).withUnsafeBytes { RareByteSearch.anchor(of: $0) }, 0, "no rarer byte than its first")
        expectEqual(offset("does Not", in: "does does Not does Not"), 5)
        expectEqual(offset("ab", in: "aab ab"), 1)
        expect(offset("ab", in: "aa") == nil)
        expectEqual(offset("", in: "x"), 0)
        // Through the String search every catalogue phrase uses.
        expectEqual("a does not support ordered relationships".firstRange(ofASCII: "ordered relationships").map {
            "a does not support ordered relationships".utf8.distance(from: "a does not support ordered relationships".startIndex, to: $0.lowerBound)
        }, 19)
    }

    @Test func afterAnObjectsDescriptionTheTextAfterItIsLookedUp() {
        let index = RuleIndex(rules: [(0, PatternPiece.objectPrefix + "Done"), (1, "Do")])
        expectEqual(offered(index, "<NSObject: 0x1>: Done"), [0])
        expectEqual(offered(index, "Done"), [0, 1])
        expectEqual(offered(index, "<unclosed Done"), [])
    }

    /// Whether the index offers its one rule at the start of `text` as sure.
    func offeredSure(_ index: RuleIndex, _ text: String) -> Bool? {
        Array(text.utf8).withUnsafeBytes { bytes in
            var absence = RuleIndex.Absence()
            var cursor = index.cursor(in: bytes, at: 0)
            return index.next(&cursor, in: bytes, at: 0, &absence)?.sure
        }
    }

    @Test func aDescribedTextIsSureOnlyAfterWhatTheDescriptionTakes() {
        let index = RuleIndex(rules: [(0, PatternPiece.objectPrefix + #"(?::[ ]*Done|Fine)"#)])
        expectEqual(offeredSure(index, "<NSObject: 0x1>: Fine"), true)
        expectEqual(offeredSure(index, "<NSObject: 0x1>Fine"), true)
        expectEqual(offeredSure(index, "<NSObject: 0x1>:: Fine"), false, "two colons: the description takes one")
        expectEqual(offeredSure(index, "<NSObject: 0x1> : Fine"), false)
        expectEqual(offeredSure(index, "<NSObject: 0x1>: Done"), false, "read past a colon the pattern requires")
        expectEqual(offeredSure(index, "Fine"), true)
        expectEqual(offeredSure(RuleIndex(rules: [(0, PatternPiece.objectPrefix + #"<private> Done"#)]), "<private> Done"), false, "the description is tried first where a `<` stands")
    }

    @Test func aTextThatStartsWithColonsOrBlanksIsLookedUpPastThem() {
        let index = RuleIndex(rules: [(0, PatternPiece.objectPrefix + #"(?::[ ]*Done|Fine)"#), (1, "Do")])
        expectEqual(offered(index, "<NSObject: 0x1>: Done"), [0])
        expectEqual(offered(index, "<NSObject: 0x1>:: Done"), [0])
        expectEqual(offered(index, "<NSObject: 0x1> : Fine"), [0])
        expectEqual(offered(index, ": Done"), [0])
        expectEqual(offered(index, "Done"), [1])
        expectEqual(offered(index, "<NSObject: 0x1>: Other"), [], "not every line that starts with a description")
    }
}

@Suite struct JoinedAlternationTests {
    /// What the joined alternation and the classifier's search each made of one message.
    struct Outcome: Equatable, CustomStringConvertible {
        var rule: Int?
        var start: Int?
        var end: Int?
        var groups: [Range<Int>?] = []
        var description: String { "rule \(rule.map(String.init) ?? "-") \(start ?? -1)..<\(end ?? -1) \(groups)" }
    }

    final class Pair {
        let compiled: CompiledChannel
        let joined: JoinedAlternation
        let oracle: Matcher
        let search: ChannelSearch
        /// A search for a run that reads no facts: its rules that are plain text run no pattern.
        let quiet: ChannelSearch

        init(_ compiled: CompiledChannel) throws {
            self.compiled = compiled
            joined = JoinedAlternation(compiled)
            oracle = Matcher(try Regex(joined.pattern, options: joined.options))
            search = ChannelSearch(compiled, limits: .standard, readsFacts: { _ in true })
            quiet = ChannelSearch(compiled, limits: .standard, readsFacts: { _ in false })
        }

        func outcomes(_ message: UnsafeRawBufferPointer) throws -> (joined: Outcome, searched: Outcome) {
            var joinedOutcome = Outcome()
            if try oracle.matches(message), let rule = oracle.numericMark {
                let whole = oracle.range(ofGroup: 0)
                joinedOutcome = Outcome(rule: rule, start: whole?.lowerBound, end: whole?.upperBound,
                                        groups: (0..<compiled.patterns[rule].captureCount).map {
                                            oracle.range(ofGroup: joined.groupBases[rule] + $0 + 1)
                                        })
            }
            var searched = Outcome()
            if let (rule, start) = try search.first(in: message) {
                let matcher = search.matcher(rule)
                searched = Outcome(rule: rule, start: start, end: matcher.range(ofGroup: 0)?.upperBound,
                                   groups: (0..<compiled.patterns[rule].captureCount).map { matcher.range(ofGroup: $0 + 1) })
            }
            let quietly = try quiet.first(in: message)
            if quietly?.rule != searched.rule || (quietly?.start ?? nil) != searched.start {
                searched.rule = -1  // a difference the comparison shows
            }
            return (joinedOutcome, searched)
        }
    }

    /// Messages to compare on: every rule's samples, every fixture's records and the
    /// reference tables' records, each also bent: indented, cut, behind an object's
    /// description, behind a logger's tag, after 38 to 41 words.
    func messages() throws -> [String] {
        var texts = Catalog.standardRules.flatMap(\.samples)
        let fixtures = Binary.packageRoot.appendingPathComponent("fixtures")
        for name in try FileManager.default.subpathsOfDirectory(atPath: fixtures.path) where name.hasSuffix(".log") {
            texts.append(String(decoding: try Data(contentsOf: fixtures.appendingPathComponent(name)), as: UTF8.self))
        }
        for row in try ReferenceTables.load() {
            texts.append(row.record(style: 0, filler: FormatFiller(variant: 0)))
        }
        var messages: [String] = []
        for text in texts {
            for record in try assemble(text) {
                let body = record.bodyString
                messages.append(body)
                messages.append("  \t" + body)
                messages.append(String(body.prefix(body.count / 2)))
                messages.append(String(body.dropFirst(3)))
                messages.append("<PFUbiquitySetupAssistant: 0x15d4e0a0>: " + body)
                messages.append("<PFUbiquitySetupAssistant: 0x15d4e0a0>: : " + body)
                messages.append("<_PFUbiquityRecordsExporter: 0x1>\n\tkey: a b:c\n" + body + "\n")
                messages.append("[USM]  \t" + body)
                messages.append("StoreManager: " + body)
                messages.append("Tag:" + body)
                // At the edge of the after-object scan's 40 separators.
                for words in 38...41 { messages.append(String(repeating: "w ", count: words) + body) }
            }
        }
        return messages
    }

    @Test func theSearchFindsWhatTheJoinedPatternFinds() throws {
        let pairs = try Catalog.standard().channels.map(Pair.init)
        var matched: [Channel: Int] = [:]
        var differences: [String] = []
        for message in try messages() {
            try Array(message.utf8).withUnsafeBytes { bytes in
                for pair in pairs {
                    let (joined, searched) = try pair.outcomes(bytes)
                    if joined.rule != nil { matched[pair.compiled.channel, default: 0] += 1 }
                    if joined != searched, differences.count < 5 {
                        differences.append("\(pair.compiled.channel): joined \(joined), searched \(searched)\n\(message)")
                    }
                }
            }
        }
        expect(differences.isEmpty, "\(differences.joined(separator: "\n\n"))")
        for channel in (try Catalog.standard()).allChannels {
            expect(matched[channel, default: 0] >= 100, "\(channel): \(matched[channel, default: 0]) messages matched a rule")
        }
    }
}

/// The rules tried everywhere run only where one of their required texts stands: looked for
/// in one pass over a short subject (`RuleIndex.Tables.absences`), slot by slot in a long one.
/// The two must agree on every slot of every index, texts at the subject's edges included.
@Suite struct RequiredTextScanTests {
    func subjects() -> [[UInt8]] {
        var subjects: [[UInt8]] = [[], Array("x".utf8)]
        var random = SystemRandomNumberGenerator()
        for rule in Catalog.standardRules {
            for sample in rule.samples {
                let bytes = Array(sample.utf8)
                subjects.append(bytes)
                // Cut at both ends, so that texts stand at a subject's first and last bytes and
                // are cut short there.
                for _ in 0..<4 where bytes.count > 2 {
                    let start = Int.random(in: 0..<bytes.count / 2, using: &random)
                    let end = Int.random(in: max(start + 1, bytes.count / 2)...bytes.count, using: &random)
                    subjects.append(Array(bytes[start..<end]))
                }
            }
        }
        return subjects
    }

    @Test func onePassAgreesWithEachSlotsSearch() throws {
        let catalog = try Catalog.standard()
        let subjects = subjects()
        var checked = 0
        for channel in catalog.channels {
            for index in [channel.lineStart, channel.afterObject].compactMap({ $0 }) {
                let tables = index.tables
                for subject in subjects {
                    subject.withUnsafeBytes { bytes in
                        let absence = tables.absences(in: bytes), narrow = tables.absences(in: bytes, narrow: true)
                        for slot in 0..<tables.slotCount {
                            let expected = tables.lacksRequiredTextsOneByOne(slot: slot, in: bytes)
                            expect(absence.isAbsent(slot: slot) == expected && narrow.isAbsent(slot: slot) == expected, "\(channel.channel.id) slot \(slot): \(String(decoding: subject, as: UTF8.self).prefix(200))")
                            checked += 1
                        }
                    }
                }
            }
        }
        expect(checked > 10_000)
    }

    /// The unmarked prefilter's texts, in 64 slots, found in one pass where a plain search finds
    /// them. Each has four bytes or more from its anchor on, so the pass looks at the four bytes
    /// of each candidate as one word (`cbytescan_required_texts.quads`) before the texts.
    @Test func onePassAgreesWithAPlainSearchByFourBytes() throws {
        let catalog = try Catalog.standard()
        let rules = catalog.allChannels.filter(\.readsUnmarked).compactMap { catalog.compiled($0) }.flatMap(\.rules)
        let texts = Array(Set(rules.compactMap(UnmarkedPrefilter.texts(of:)).joined())).sorted { $0.lexicographicallyPrecedes($1) }
        let slotted = texts.enumerated().map { (bytes: $0.element, slot: $0.offset % 64) }
        let scan = RequiredTextScan(slotted)
        expectEqual(scan.tables.pointee.has_quads, 1)
        let datas = slotted.map { (Data($0.bytes), $0.slot) }
        var subjects = self.subjects()
        for text in texts {
            subjects += [text, Array("x".utf8) + text + Array(" y".utf8), Array(text.dropLast()), Array(text.dropFirst())]
        }
        for subject in subjects {
            var expected: UInt64 = 0
            let data = Data(subject)
            for (text, slot) in datas where data.range(of: text) != nil { expected |= 1 << UInt64(slot) }
            subject.withUnsafeBytes { bytes in
                let wide = RequiredTextScan.present(in: bytes, scan.tables), narrow = RequiredTextScan.present(in: bytes, scan.tables, narrow: true)
                expect(wide == expected && narrow == expected, "\(String(decoding: subject, as: UTF8.self).prefix(200))")
            }
        }
    }
}
