// The literal texts a pattern's matches start with, worked out from its text where that is
// easy (literal phrases, groups, alternations, classes of plain characters, optional and
// repeated items) and "anything" otherwise. The classifier indexes rules by them (see
// RuleIndex), so that at a line start only the rules whose text is there run their pattern.
// Some of them are also enough for a match (`PatternLead.sure`): where one stands, a run that
// does not read the match runs no pattern at all.

package enum LeadingBytes {
    /// Longest prefix worked out. Longer than any phrase of the catalogue (the longest is 90
    /// bytes), so that a whole phrase followed by nothing the pattern requires is a sure prefix.
    package static let prefixLimit = 128
    /// Most prefixes kept for one pattern; past it they are shortened until they fit.
    package static let maxPrefixes = 512

    /// For a pattern that starts with an optional first line, `(?:X\n[ \t]*)?Rest` where X
    /// matches no line end (`(?:(?<peer>[^\s:<>]+):(?<storeName>[^\n]*)\n[ \t]*)?Using local
    /// storage: …`): the prefixes of Rest, one of which starts the next line (past its blanks)
    /// wherever the pattern matches taking that line; nil for any other pattern. Read as
    /// `prefixes(of:)`, the pattern may start with anything, and its rule would be tried
    /// everywhere.
    package static func nextLineLeads(of pattern: String) -> [[UInt8]]? {
        let reader = PatternReader(bytes: Array(pattern.utf8))
        let bytes = reader.bytes
        guard bytes.starts(with: Array("(?:".utf8)), let (contentStart, close) = reader.group(at: 0),
              close + 1 < bytes.count, bytes[close + 1] == UInt8(ascii: "?"),
              close + 2 == bytes.count || (bytes[close + 2] != UInt8(ascii: "?") && bytes[close + 2] != UInt8(ascii: "+")) else { return nil }
        let ending = Array(#"\n[ \t]*"#.utf8)
        guard close - contentStart > ending.count, Array(bytes[(close - ending.count)..<close]) == ending,
              reader.matchesNoLineEnd(contentStart..<(close - ending.count)) else { return nil }
        let rest = String(decoding: bytes[(close + 2)...], as: UTF8.self)
        let leads = prefixes(of: rest)
        guard !leads.isEmpty, leads.allSatisfy({ $0.first.map { $0 != 0x20 && $0 != 0x09 } ?? false }) else { return nil }
        return leads
    }

    /// Byte strings one of which starts every match of `pattern`. An empty one means a match
    /// may start with anything. Never too narrow: where the text is hard to read, a prefix
    /// ends early.
    package static func prefixes(of pattern: String) -> [[UInt8]] {
        leads(of: pattern).map(\.bytes)
    }

    /// `prefixes(of:)` with what each tells (see `PatternLead`).
    package static func leads(of pattern: String) -> [PatternLead] {
        var reader = PatternReader(bytes: Array(pattern.utf8))
        return reader.alternation()
    }

    /// Like `leads(of:)`, past leading colons and blanks (see `prefixesPastSeparators(of:)`).
    /// A lead read past a colon the pattern requires is never sure (`PatternLead.reachable`): where
    /// it is looked up, the colon may be missing.
    package static func leadsPastSeparators(of pattern: String) -> [PatternLead] {
        var reader = PatternReader(bytes: Array(pattern.utf8))
        reader.skipsSeparators = true
        return reader.alternation()
    }

    /// Like `prefixes(of:)`, for the text that follows the first byte other than a colon or a
    /// blank: items at a match's start that match only colons and blanks (`:`, `[ ]*`, `:?`)
    /// are left out, in groups that open the match too. For what follows an object's
    /// description: `(?::[ ]*Successfully wrote…|Successfully wrote…)` starts with ":" for
    /// `prefixes(of:)`, and every `<…>: ` line would try it.
    package static func prefixesPastSeparators(of pattern: String) -> [[UInt8]] {
        leadsPastSeparators(of: pattern).map(\.bytes)
    }

    /// The ASCII bytes a match of `pattern` can start with; nil when any byte might.
    package static func of(_ pattern: String) -> Set<UInt8>? {
        var result = Set<UInt8>()
        for prefix in prefixes(of: pattern) {
            guard let first = prefix.first else { return nil }
            result.insert(first)
        }
        return result
    }

    /// A character class that matches exactly `bytes`, for a lookahead.
    package static func characterClass(_ bytes: Set<UInt8>) -> String {
        let escaped = bytes.sorted().map { byte -> String in
            let character = String(UnicodeScalar(byte))
            return "\\^-[]".utf8.contains(byte) ? "\\" + character : character
        }
        return "[" + escaped.joined() + "]"
    }

    /// Each of `heads` followed by each of `tails`, bounded in length and number.
    package static func concatenate(_ heads: [PatternLead], _ tails: [PatternLead], limit: Int = prefixLimit) -> [PatternLead] {
        var result: [PatternLead] = []
        for head in heads {
            guard head.exact else {
                result.append(head)
                continue
            }
            for tail in tails {
                var joined = head.followed(by: tail)
                if joined.bytes.count > limit {
                    joined.bytes.removeLast(joined.bytes.count - limit)
                    joined.exact = false
                    joined.sure = false
                }
                result.append(joined)
            }
        }
        return bounded(result, limit: limit)
    }

    /// `concatenate(prefixes, [byte])`, in place: one more literal byte (most of a pattern),
    /// appended to each exact prefix's own array, never copied into a new one: a prefix grows
    /// a byte at a time to `prefixLimit`, and a copy at each byte makes start-up quadratic.
    package static func append(_ byte: UInt8, to prefixes: inout [PatternLead], limit: Int = prefixLimit) {
        var cut = false
        for index in prefixes.indices where prefixes[index].exact {
            guard prefixes[index].bytes.count < limit else {
                cut = true
                prefixes[index].exact = false
                continue
            }
            prefixes[index].bytes.append(byte)
            if !prefixes[index].pending.isEmpty {
                if prefixes[index].pending.contains(byte) { prefixes[index].reachable = false }
                prefixes[index].pending = []
            }
        }
        // Distinct prefixes stay distinct unless the limit cuts them.
        if cut { prefixes = bounded(prefixes, limit: limit) }
    }

    /// `prefixes` without repeats, shortened until at most `maxPrefixes` remain.
    package static func bounded(_ prefixes: [PatternLead], limit: Int = prefixLimit) -> [PatternLead] {
        var seen = Set<PatternLead>()
        let distinct = prefixes.filter { seen.insert($0).inserted }
        guard distinct.count > maxPrefixes else { return distinct }
        func cut(to length: Int) -> [PatternLead] {
            var seen = Set<PatternLead>()
            return distinct.map { prefix in
                prefix.bytes.count > length ? PatternLead(bytes: Array(prefix.bytes.prefix(length)), exact: false) : prefix
            }.filter { seen.insert($0).inserted }
        }
        // The longest cut that leaves few enough: fewer remain the shorter the cut, so it is
        // found by halving, in a few cuts rather than one for each length.
        var fits = 0
        var tooMany = limit + 1
        while tooMany - fits > 1 {
            let middle = (fits + tooMany) / 2
            if cut(to: middle).count <= maxPrefixes { fits = middle } else { tooMany = middle }
        }
        return cut(to: fits)
    }

    /// Texts one of which every match of `pattern` contains; empty when none is known. Read
    /// from the items of each top-level alternative that cannot be left out: its longest run
    /// of literal text, or a group whose every match starts with one of a few known texts
    /// (`(?:\(SomeDomain error |Error Domain=SomeDomain Code=)`), whichever gives the longer
    /// texts. A rule tried at every position of a message is left out where none of its texts
    /// is there (see `RuleIndex`), so that a pattern that starts with `[^\n]{0,400}?` and an
    /// alternation does not run on every app record.
    package static func requiredTexts(of pattern: String) -> [[UInt8]] {
        // Options set inside the pattern (`(?i)`, `(?x)`) change what its text means.
        guard !pattern.contains("(?i"), !pattern.contains("(?x") else { return [] }
        var reader = PatternReader(bytes: Array(pattern.utf8))
        var texts: [[UInt8]] = []
        while true {
            let alternative = reader.requiredTexts()
            // An alternative with nothing known: a match may contain none of the others' texts.
            if alternative.isEmpty { return [] }
            texts += alternative.filter { !texts.contains($0) }
            guard reader.index < reader.bytes.count, reader.bytes[reader.index] == UInt8(ascii: "|") else { break }
            reader.index += 1
        }
        return reader.index < reader.bytes.count ? [] : texts
    }
}
