// The literal texts a pattern's matches start with, worked out from its text where that is
// easy (literal phrases, groups, alternations, classes of plain characters, optional and
// repeated items) and "anything" otherwise. The classifier indexes rules by them (see
// RuleIndex), so that at a line start only the rules whose text is there run their pattern.
// Some of them are also enough for a match (`PatternLead.sure`): where one stands, a run that does
// not read the match runs no pattern at all.

enum LeadingBytes {
    /// Longest prefix worked out. Long enough for a whole phrase of the catalogue (the longest
    /// is 90 bytes), so that a phrase followed by nothing the pattern requires is a sure prefix:
    /// cut at 16 bytes, as until now, no phrase longer than that was one.
    static let prefixLimit = 128
    /// Most prefixes kept for one pattern; past it they are shortened until they fit.
    static let maxPrefixes = 512

    /// For a pattern that starts with an optional first line, `(?:X\n[ \t]*)?Rest` where X
    /// matches no line end (`(?:(?<peer>[^\s:<>]+):(?<storeName>[^\n]*)\n[ \t]*)?Using local
    /// storage: …`): the prefixes of Rest, one of which starts the next line (past its blanks)
    /// wherever the pattern matches taking that line; nil for any other pattern. Read as
    /// `prefixes(of:)`, the pattern may start with anything, and its rule was tried everywhere.
    static func nextLineLeads(of pattern: String) -> [[UInt8]]? {
        let reader = Reader(bytes: Array(pattern.utf8))
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
    static func prefixes(of pattern: String) -> [[UInt8]] {
        leads(of: pattern).map(\.bytes)
    }

    /// `prefixes(of:)` with what each tells (see `PatternLead`).
    static func leads(of pattern: String) -> [PatternLead] {
        var reader = Reader(bytes: Array(pattern.utf8))
        return reader.alternation()
    }

    /// Like `leads(of:)`, past leading colons and blanks (see `prefixesPastSeparators(of:)`).
    /// A lead read past a colon the pattern requires is never sure (`PatternLead.reachable`): where
    /// it is looked up, the colon may be missing.
    static func leadsPastSeparators(of pattern: String) -> [PatternLead] {
        var reader = Reader(bytes: Array(pattern.utf8))
        reader.skipsSeparators = true
        return reader.alternation()
    }

    /// Like `prefixes(of:)`, for the text that follows the first byte other than a colon or a
    /// blank: items at a match's start that match only colons and blanks (`:`, `[ ]*`, `:?`)
    /// are left out, in groups that open the match too. For what follows an object's
    /// description: `(?::[ ]*Successfully wrote…|Successfully wrote…)` starts with ":" for
    /// `prefixes(of:)`, and every `<…>: ` line would try it.
    static func prefixesPastSeparators(of pattern: String) -> [[UInt8]] {
        leadsPastSeparators(of: pattern).map(\.bytes)
    }

    /// The ASCII bytes a match of `pattern` can start with; nil when any byte might.
    static func of(_ pattern: String) -> Set<UInt8>? {
        var result = Set<UInt8>()
        for prefix in prefixes(of: pattern) {
            guard let first = prefix.first else { return nil }
            result.insert(first)
        }
        return result
    }

    /// A character class that matches exactly `bytes`, for a lookahead.
    static func characterClass(_ bytes: Set<UInt8>) -> String {
        let escaped = bytes.sorted().map { byte -> String in
            let character = String(UnicodeScalar(byte))
            return "\\^-[]".utf8.contains(byte) ? "\\" + character : character
        }
        return "[" + escaped.joined() + "]"
    }

    /// The start of a match: `exact` when the pattern read so far matches these bytes and no
    /// others, so that what follows it in the pattern extends it.
    struct PatternLead: Hashable {
        var bytes: [UInt8]
        var exact: Bool
        /// Where these bytes stand, the pattern matches, and PCRE2 finds that match without
        /// reaching its match limit: everything after them in the pattern can match nothing
        /// and costs PCRE2 a bounded number of steps wherever it is tried (`Reader.safeItem`),
        /// and so does each item PCRE2 tries before this path (`reachable`). (Never `exact`.)
        var sure = false
        /// False when, on the way to these bytes, the pattern passes an item PCRE2 tries first
        /// (an optional item left out, an earlier alternative) whose attempt may cost it
        /// unbounded work: `(?:[^\n]*?x)?Lit` runs into the match limit on a long line where
        /// "Lit" stands. Such a prefix is never sure.
        var reachable = true
        /// First bytes of items passed on the way that fail at once unless the subject has one
        /// of them where they are tried (`Attempt.firstBytes`): the next byte of the prefix must
        /// be none of them for it to stay `reachable`.
        var pending: [UInt8] = []
        /// Whether an item passed on the way may have matched where PCRE2 tried it (at a bounded
        /// cost), so that PCRE2 went on from where that match ended, a position this path does
        /// not read: after it, an item that only fails at once where its first byte is not is
        /// no longer known to.
        var shifted = false
        /// Whether the path relied on such an item failing at once.
        var reliesOnFailing = false

        static let empty = PatternLead(bytes: [], exact: true)
        static let anything = PatternLead(bytes: [], exact: false)

        /// The bytes hashed as one block: hashed one at a time (as `[UInt8]` hashes them), the
        /// prefixes' de-duplication cost start-up some 10 M instructions.
        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            hasher.combine(exact)
            hasher.combine(sure)
            hasher.combine(pending.count)
        }

        /// This prefix followed by `tail` (a prefix of what the pattern has next).
        func followed(by tail: PatternLead) -> PatternLead {
            var joined = PatternLead(bytes: bytes + tail.bytes, exact: tail.exact, sure: tail.sure, reachable: reachable && tail.reachable,
                                shifted: shifted || tail.shifted, reliesOnFailing: reliesOnFailing || tail.reliesOnFailing)
            if shifted, tail.reliesOnFailing { joined.reachable = false }
            if let next = tail.bytes.first {
                if pending.contains(next) { joined.reachable = false }
                joined.pending = tail.pending
            } else {
                joined.pending = Array(Set(pending + tail.pending)).sorted()
            }
            return joined
        }
    }

    /// Each of `heads` followed by each of `tails`, bounded in length and number.
    static func concatenate(_ heads: [PatternLead], _ tails: [PatternLead], limit: Int = prefixLimit) -> [PatternLead] {
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
    /// appended to each exact prefix's own array rather than copied into a new one (prefixes
    /// up to 128 bytes long, copied at each byte, cost start-up tens of millions of instructions).
    static func append(_ byte: UInt8, to prefixes: inout [PatternLead], limit: Int = prefixLimit) {
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
    static func bounded(_ prefixes: [PatternLead], limit: Int = prefixLimit) -> [PatternLead] {
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
        // found by halving (one length at a time from 128 cost start-up too much).
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
    /// (`(?:\(CKErrorDomain error |Error Domain=CKErrorDomain Code=)`), whichever gives the
    /// longer texts. A rule tried at every position of a message is left out where none of its
    /// texts is there (see `RuleIndex`): two of CloudKit's framework rules start with
    /// `[^\n]{0,400}?` and an alternation, and ran their pattern, twice, on every app record.
    static func requiredTexts(of pattern: String) -> [[UInt8]] {
        // Options set inside the pattern (`(?i)`, `(?x)`) change what its text means.
        guard !pattern.contains("(?i"), !pattern.contains("(?x") else { return [] }
        var reader = Reader(bytes: Array(pattern.utf8))
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

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        /// Inside `(?i:…)`: a letter stands for both its cases.
        var caseless = false
        /// Letters read in both cases so far: past a few, the prefix ends (each doubles them).
        var caselessLetters = 0
        /// For `prefixesPastSeparators`: whether an alternative starting here leaves out its
        /// leading colon-and-blank items (true only while nothing of the match is read yet).
        var skipsSeparators = false
        /// Whether what follows the group being read, to the end of the pattern, is a safe
        /// tail (`isSafeTail`): only then can a prefix read inside it be sure.
        var tailIsSafe = true
        /// The longest prefix worked out: `prefixLimit`, or 1 where only first bytes count.
        var limit = prefixLimit

        /// For `requiredTexts`: what one alternative requires, read up to its end (a `|` or
        /// `)` at this depth, or the end of the pattern).
        mutating func requiredTexts() -> [[UInt8]] {
            var best: [[UInt8]] = []
            // Texts are better the longer the shortest of them is, then the fewer they are.
            func consider(_ texts: [[UInt8]]) {
                guard let shortest = texts.map(\.count).min(), shortest > 0 else { return }
                let bestShortest = best.map(\.count).min() ?? 0
                if shortest > bestShortest || (shortest == bestShortest && texts.count < best.count) { best = texts }
            }
            var run: [UInt8] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: "|"), bytes[index] != UInt8(ascii: ")") {
                let options = literalItem()
                let (optional, repeated) = options == nil ? (true, true) : skipQuantifier()
                let literal = options.map { $0.count == 1 && $0[0].exact } ?? false
                if literal, !optional, let options { run += options[0].bytes }
                if !literal || optional || repeated {
                    consider([run])
                    run = []
                }
                // A group or class none of whose matches starts with nothing: one of its texts
                // stands in every match.
                if !literal, !optional, let options, options.allSatisfy({ !$0.bytes.isEmpty }) {
                    var seen = Set<[UInt8]>()
                    consider(options.map(\.bytes).filter { seen.insert($0).inserted })
                }
            }
            consider([run])
            return best
        }

        /// For `requiredTexts`: the item at `index` if it is one whose prefixes are known,
        /// else moves past whatever item is there and returns nil.
        mutating func literalItem() -> [PatternLead]? {
            let start = index
            if let known = item() { return known }
            index = start
            skipItem()
            return nil
        }

        /// Moves past one item, whatever it is (a group, a class, an escape, a character) and
        /// its quantifier.
        mutating func skipItem() {
            guard index < bytes.count else { return }
            switch bytes[index] {
            case UInt8(ascii: "("):
                index += 1
                skipToEndOfAlternative()
                while index < bytes.count, bytes[index] == UInt8(ascii: "|") {
                    index += 1
                    skipToEndOfAlternative()
                }
                index += 1
            case UInt8(ascii: "["):
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "^") { index += 1 }
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1 }
                while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
            case UInt8(ascii: "\\"):
                index += 2
            default:
                index += 1
            }
            _ = skipQuantifier()
        }

        /// Alternatives up to the end or the `)` that closes the enclosing group.
        mutating func alternation() -> [PatternLead] {
            var result: [PatternLead] = []
            // What trying the alternatives before this one costs PCRE2 where they fail.
            var before = Attempt.nothing
            while true {
                let start = index
                result += alternative(after: before)
                skipToEndOfAlternative()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "|") else { return bounded(result, limit: limit) }
                before = before.then(attempt(of: start..<index))
                index += 1
            }
        }

        /// The prefixes of one alternative, item by item while they are exact, leaving `index`
        /// somewhere inside it. `before`: what PCRE2 tried at its start first.
        mutating func alternative(after before: Attempt = .nothing) -> [PatternLead] {
            var result = [before.passed(PatternLead.empty)]
            let skipping = skipsSeparators
            defer { skipsSeparators = skipping }
            while result.contains(where: \.exact) {
                // All that is left matches nothing or more, cheaply: where the bytes read stand,
                // the alternative matches.
                if tailIsSafe, isSafeTail(from: index) {
                    return result.map { prefix in
                        guard prefix.exact else { return prefix }
                        return PatternLead(bytes: prefix.bytes, exact: false, sure: prefix.reachable && prefix.pending.isEmpty)
                    }
                }
                guard index < bytes.count, bytes[index] != UInt8(ascii: "|"), bytes[index] != UInt8(ascii: ")") else { break }
                // Nothing read yet: a colon-or-blank item is left out, and a group here starts
                // the match too.
                let atStart = skipping && result.allSatisfy { $0.bytes.isEmpty && $0.exact }
                if atStart, let optional = skipSeparatorItem() {
                    // Where the text is looked up, the colon may be missing.
                    if !optional { result = result.map { var passed = $0; passed.reachable = false; return passed } }
                    continue
                }
                skipsSeparators = atStart
                let itemStart = index
                guard var options = item() else { return concatenate(result, [.anything], limit: limit) }
                let itemEnd = index
                skipsSeparators = skipping
                let (optional, repeated, lazy) = skipQuantifierAndLaziness()
                // Repeated: the first time starts the match, what comes after is unknown.
                if repeated { options = options.map { PatternLead(bytes: $0.bytes, exact: false) } }
                // Lazy: PCRE2 first tries what follows without the item, at any cost.
                if lazy { options = options.map { var taken = $0; taken.reachable = false; return taken } }
                // Left out, the item was tried first (unless lazy).
                if optional { options.append(lazy ? .empty : attempt(of: itemStart..<itemEnd).passed(.empty)) }
                if options.count == 1, options[0].exact, options[0].bytes.count == 1, options[0].reachable, options[0].pending.isEmpty {
                    append(options[0].bytes[0], to: &result, limit: limit)
                } else {
                    result = concatenate(result, options, limit: limit)
                }
            }
            return result
        }

        /// What PCRE2 tried before a path of the pattern, at the position where the path goes on
        /// (an optional item it left out, the alternatives before it), and what that may cost.
        struct Attempt {
            /// Items of bounded cost (`isBounded`) that may have matched there.
            var mayMatch = false
            /// Items that fail at once there unless the subject has one of these bytes there:
            /// each of their matches starts with one of them.
            var firstBytes: [UInt8] = []
            /// Items that may cost PCRE2 anything there.
            var unknown = false

            static let nothing = Attempt()

            /// These items, then `next` at the same position.
            func then(_ next: Attempt) -> Attempt {
                Attempt(mayMatch: mayMatch || next.mayMatch, firstBytes: Array(Set(firstBytes + next.firstBytes)).sorted(),
                        unknown: unknown || next.unknown)
            }

            /// `prefix` once these items were tried where it goes on.
            func passed(_ prefix: PatternLead) -> PatternLead {
                var passed = prefix
                if unknown || (passed.shifted && !firstBytes.isEmpty) { passed.reachable = false }
                if !firstBytes.isEmpty {
                    passed.pending = Array(Set(passed.pending + firstBytes)).sorted()
                    passed.reliesOnFailing = true
                }
                if mayMatch { passed.shifted = true }
                return passed
            }
        }

        /// What trying the items in `range` of the pattern costs PCRE2: a bounded number of steps
        /// when nothing in them repeats without a small bound; else, when each of their matches
        /// starts with one of a few bytes, nothing where none of them stands.
        func attempt(of range: Range<Int>) -> Attempt {
            var inner = Reader(bytes: Array(bytes[range]))
            if inner.isBounded() { return Attempt(mayMatch: true) }
            inner.index = 0
            inner.caseless = caseless
            inner.tailIsSafe = false
            inner.limit = 1
            let starts = inner.alternation()
            guard !starts.isEmpty, starts.allSatisfy({ !$0.bytes.isEmpty }) else { return Attempt(unknown: true) }
            return Attempt(firstBytes: Array(Set(starts.map { $0.bytes[0] })).sorted())
        }

        /// Whether the whole pattern of this reader repeats nothing more than 255 times and has
        /// no lookaround, back-reference, recursion, option setting or verb (whose cost is not
        /// read here): PCRE2's work on it then has a bound, whatever the subject.
        mutating func isBounded() -> Bool {
            index = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"):
                    guard index + 1 < bytes.count else { return false }
                    let escaped = bytes[index + 1]
                    // Back-references and subroutine calls by number or name.
                    if (escaped >= UInt8(ascii: "1") && escaped <= UInt8(ascii: "9")) || escaped == UInt8(ascii: "g") || escaped == UInt8(ascii: "k") {
                        return false
                    }
                    index += 2
                case UInt8(ascii: "["):
                    guard let end = classEnd(from: index) else { return false }
                    index = end
                case UInt8(ascii: "("):
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "?") || bytes[index + 1] == UInt8(ascii: "*") {
                        // Only `(?:`, `(?s:`, `(?i:` and named groups.
                        guard let (_, _) = group(at: index) ?? caselessGroup(at: index) else { return false }
                    }
                    index += 1
                case UInt8(ascii: "*"), UInt8(ascii: "+"):
                    // A quantifier (a possessive mark after one was moved past with it).
                    return false
                case UInt8(ascii: "{"):
                    let (end, _, most) = quantifier(at: index)
                    guard end > index else { index += 1; continue }
                    guard most <= 255 else { return false }
                    index = end
                case UInt8(ascii: "?"):
                    // `?`, `??`, `?+`: at most once.
                    index += 1
                    if index < bytes.count, bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "+") { index += 1 }
                default:
                    index += 1
                }
            }
            return true
        }

        /// `(?i:` at `position`: where its content starts and its `)`.
        func caselessGroup(at position: Int) -> (contentStart: Int, close: Int)? {
            guard position + 3 < bytes.count, bytes[position + 1] == UInt8(ascii: "?"), bytes[position + 2] == UInt8(ascii: "i"),
                  bytes[position + 3] == UInt8(ascii: ":") else { return nil }
            var reader = Reader(bytes: bytes)
            reader.index = position + 4
            reader.skipToEndOfAlternative()
            while reader.index < bytes.count, bytes[reader.index] == UInt8(ascii: "|") {
                reader.index += 1
                reader.skipToEndOfAlternative()
            }
            return reader.index < bytes.count ? (position + 4, reader.index) : nil
        }

        /// The index after the class that opens at `start` (`[…]`, a `]` first in it being a
        /// member); nil when it does not close or holds a POSIX class.
        func classEnd(from start: Int) -> Int? {
            var end = start + 1
            if end < bytes.count, bytes[end] == UInt8(ascii: "^") { end += 1 }
            if end < bytes.count, bytes[end] == UInt8(ascii: "]") { end += 1 }
            while end < bytes.count, bytes[end] != UInt8(ascii: "]") {
                if bytes[end] == UInt8(ascii: "["), end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: ":") { return nil }
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            return end < bytes.count ? end + 1 : nil
        }

        /// Whether nothing in `range` (whole items, alternatives of one group) can match a line
        /// end: characters other than `\n`, `\S`, `\d`, `\w`, classes that exclude `\n` (or `\s`)
        /// or name no escape, and groups of such items, repeated or not. Read conservatively:
        /// `.`, other escapes and anything else are taken to match one.
        func matchesNoLineEnd(_ range: Range<Int>) -> Bool {
            var position = range.lowerBound
            while position < range.upperBound {
                if bytes[position] == UInt8(ascii: "|") {
                    position += 1
                    continue
                }
                let end: Int
                if bytes[position] == UInt8(ascii: "(") {
                    guard let (contentStart, close) = group(at: position), matchesNoLineEnd(contentStart..<close) else { return false }
                    end = close + 1
                } else {
                    guard let characterEnd = characterEnd(at: position) else { return false }
                    let item = bytes[position..<characterEnd]
                    switch item.first {
                    case UInt8(ascii: "\\"):
                        guard let escaped = item.dropFirst().first, !isAlphanumeric(escaped) || "SdwN".utf8.contains(escaped) else { return false }
                    case UInt8(ascii: "["):
                        let negated = item.dropFirst().first == UInt8(ascii: "^")
                        let text = String(decoding: item, as: UTF8.self)
                        if negated {
                            guard text.contains(#"\n"#) || text.contains(#"\s"#) else { return false }
                        } else {
                            guard !item.contains(UInt8(ascii: "\\")), !item.contains(0x0A) else { return false }
                        }
                    case UInt8(ascii: "."), 0x0A:
                        return false
                    default:
                        break
                    }
                    end = characterEnd
                }
                position = quantifier(at: end).end
            }
            return position == range.upperBound
        }

        /// Whether the items from `start` to the end of the alternative each match at any
        /// position, at a cost that does not grow with the subject (`safeItem`): then PCRE2
        /// matches them all, empty if need be, without backtracking into what came before.
        func isSafeTail(from start: Int) -> Bool {
            var position = start
            while position < bytes.count, bytes[position] != UInt8(ascii: "|"), bytes[position] != UInt8(ascii: ")") {
                guard let next = safeItem(at: position) else { return false }
                position = next
            }
            return true
        }

        /// Where the item at `position` ends, with its quantifier, when it matches at any
        /// position and cheaply; nil otherwise. Such an item is one character (`[^\n]`, `.`,
        /// `\d`, `x`) that may repeat from zero times up (`[^\n]*`, `[ ]?`, `\w{0,8}`), or a group
        /// whose alternatives are a safe tail or a few fixed characters then a safe tail, at
        /// least one of them a safe tail unless the group is optional (`(?<token>[^\n]*)`,
        /// `(?: for token (?<t>[^\n]*))?`). Lazy or greedy alike: what follows matches anything.
        /// Not a repeated group: each repetition is a step PCRE2 counts, `(?:\n\t[^\n]*)*`
        /// reaches the JIT's stack limit on 300,000 such lines.
        func safeItem(at position: Int) -> Int? {
            if let end = characterEnd(at: position) {
                let (quantifierEnd, least, _) = quantifier(at: end)
                return least == 0 ? quantifierEnd : nil
            }
            guard bytes[position] == UInt8(ascii: "("), let (contentStart, groupEnd) = group(at: position) else { return nil }
            let (quantifierEnd, least, most) = quantifier(at: groupEnd + 1)
            guard most == 1 || quantifierEnd == groupEnd + 1 else { return nil }
            var matchesNothing = false
            var alternativeStart = contentStart
            while true {
                // Fixed characters first (each once, or a fixed count), then a safe tail.
                var position = alternativeStart
                while let end = characterEnd(at: position) {
                    let (quantifierEnd, least, most) = quantifier(at: end)
                    guard least == most, least > 0 else { break }
                    position = quantifierEnd
                }
                if position == alternativeStart { matchesNothing = true }
                guard isSafeTail(from: position) else { return nil }
                var end = position
                while end < groupEnd, bytes[end] != UInt8(ascii: "|") {
                    guard let next = safeItem(at: end) else { return nil }
                    end = next
                }
                guard end < groupEnd else { break }
                alternativeStart = end + 1
            }
            return least == 0 || matchesNothing ? quantifierEnd : nil
        }

        /// Where the one-character item at `position` ends (before its quantifier): a plain
        /// character, `.`, an escaped character or class (`\.`, `\d`, `\S`, `\n`), or a class;
        /// nil for anything else (a group, an anchor, `\b`, a back-reference).
        func characterEnd(at position: Int) -> Int? {
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "["):
                return classEnd(from: position)
            case UInt8(ascii: "\\"):
                guard position + 1 < bytes.count else { return nil }
                let escaped = bytes[position + 1]
                if escaped >= 0x80 { return nil }
                if !isAlphanumeric(escaped) || "dDwWsShHvVNnrtfe".utf8.contains(escaped) { return position + 2 }
                return nil
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "$"),
                 UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"):
                return nil
            default:
                // A byte of a multi-byte character is left to the pattern (rules are ASCII).
                return bytes[position] < 0x80 ? position + 1 : nil
            }
        }

        /// The group that opens at `position`, when it is a plain, named or non-capturing group
        /// or `(?s:…)`: where its content starts and the index of its `)`.
        func group(at position: Int) -> (contentStart: Int, close: Int)? {
            var start = position + 1
            if start < bytes.count, bytes[start] == UInt8(ascii: "?") {
                guard start + 1 < bytes.count else { return nil }
                if bytes[start + 1] == UInt8(ascii: ":") {
                    start += 2
                } else if bytes[start + 1] == UInt8(ascii: "s"), start + 2 < bytes.count, bytes[start + 2] == UInt8(ascii: ":") {
                    start += 3
                } else if bytes[start + 1] == UInt8(ascii: "<"), start + 2 < bytes.count,
                          bytes[start + 2] != UInt8(ascii: "="), bytes[start + 2] != UInt8(ascii: "!"),
                          let close = bytes[start...].firstIndex(of: UInt8(ascii: ">")) {
                    start = close + 1
                } else {
                    return nil
                }
            } else if start < bytes.count, bytes[start] == UInt8(ascii: "*") {
                return nil
            }
            var reader = Reader(bytes: bytes)
            reader.index = start
            reader.skipToEndOfAlternative()
            while reader.index < bytes.count, bytes[reader.index] == UInt8(ascii: "|") {
                reader.index += 1
                reader.skipToEndOfAlternative()
            }
            guard reader.index < bytes.count else { return nil }
            return (start, reader.index)
        }

        /// The quantifier at `position` (none: once): where it ends, with a lazy or possessive
        /// mark, and the least and most times it lets the item match (`Int.max`: no bound).
        func quantifier(at position: Int) -> (end: Int, least: Int, most: Int) {
            // Most items have none (asked after each literal byte of every pattern at start-up).
            guard position < bytes.count else { return (position, 1, 1) }
            switch bytes[position] {
            case UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "{"): break
            default: return (position, 1, 1)
            }
            var reader = Reader(bytes: bytes)
            reader.index = position
            switch bytes[position] {
            case UInt8(ascii: "?"): _ = reader.skipQuantifier(); return (reader.index, 0, 1)
            case UInt8(ascii: "*"): _ = reader.skipQuantifier(); return (reader.index, 0, Int.max)
            case UInt8(ascii: "+"): _ = reader.skipQuantifier(); return (reader.index, 1, Int.max)
            case UInt8(ascii: "{"):
                _ = reader.skipQuantifier()
                guard reader.index != position, let close = bytes[position...].firstIndex(of: UInt8(ascii: "}")) else { return (position, 1, 1) }
                let counts = bytes[(position + 1)..<close].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
                let least = Int(String(decoding: counts.first ?? [], as: UTF8.self)) ?? 0
                let most = counts.count == 1 ? least : Int(String(decoding: counts.last ?? [], as: UTF8.self)) ?? Int.max
                return (reader.index, least, most)
            default:
                return (position, 1, 1)
            }
        }

        /// The prefixes of the item at `index` (a group, an escaped or plain character, or a
        /// class of plain characters), moving past it; nil when it cannot tell.
        mutating func item() -> [PatternLead]? {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "("):
                // A prefix read inside the group is sure only if what follows the group is a
                // safe tail too.
                let groupStart = index
                skipItem()
                let outerTail = tailIsSafe
                tailIsSafe = tailIsSafe && isSafeTail(from: index)
                defer { tailIsSafe = outerTail }
                index = groupStart
                // Only plain and named groups, and `(?s:` (which changes only what `.` means);
                // other options, lookarounds and verbs are "anything".
                var start = index + 1
                if start < bytes.count, bytes[start] == UInt8(ascii: "?") {
                    guard start + 1 < bytes.count else { return nil }
                    if bytes[start + 1] == UInt8(ascii: ":") {
                        start += 2
                    } else if bytes[start + 1] == UInt8(ascii: "s"), start + 2 < bytes.count, bytes[start + 2] == UInt8(ascii: ":") {
                        start += 3
                    } else if bytes[start + 1] == UInt8(ascii: "i"), start + 2 < bytes.count, bytes[start + 2] == UInt8(ascii: ":") {
                        index = start + 3
                        let outer = caseless
                        caseless = true
                        defer { caseless = outer }
                        let inner = alternation()
                        guard index < bytes.count, bytes[index] == UInt8(ascii: ")") else { return nil }
                        index += 1
                        return inner
                    } else if bytes[start + 1] == UInt8(ascii: "<"), start + 2 < bytes.count,
                              bytes[start + 2] != UInt8(ascii: "="), bytes[start + 2] != UInt8(ascii: "!") {
                        guard let close = bytes[start...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                        start = close + 1
                    } else {
                        return nil
                    }
                } else if start < bytes.count, bytes[start] == UInt8(ascii: "*") {
                    return nil
                }
                index = start
                let inner = alternation()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ")") else { return nil }
                index += 1
                return inner
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { return nil }
                let escaped = bytes[index + 1]
                // Escaped punctuation is itself; letters are classes or special (\d, \s, \b...).
                guard !isAlphanumeric(escaped), escaped < 0x80 else { return nil }
                index += 2
                return [PatternLead(bytes: [escaped], exact: true)]
            case UInt8(ascii: "["):
                // A class of plain characters only: no negation, range or escape.
                var end = index + 1
                var members: [PatternLead] = []
                while end < bytes.count, bytes[end] != UInt8(ascii: "]") {
                    let member = bytes[end]
                    guard member < 0x80, member != UInt8(ascii: "^"), member != UInt8(ascii: "-"),
                          member != UInt8(ascii: "\\"), member != UInt8(ascii: "[") else { return nil }
                    members.append(PatternLead(bytes: [member], exact: true))
                    let lower = member | 0x20
                    if caseless, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") {
                        members.append(PatternLead(bytes: [member ^ 0x20], exact: true))
                    }
                    end += 1
                }
                guard end < bytes.count, !members.isEmpty else { return nil }
                index = end + 1
                return members
            case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: ")"), UInt8(ascii: "|"):
                return nil
            default:
                guard byte < 0x80 else { return nil }
                index += 1
                let lower = byte | 0x20
                if caseless, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") {
                    caselessLetters += 1
                    guard caselessLetters <= 4 else { return nil }
                    return [PatternLead(bytes: [lower], exact: true), PatternLead(bytes: [lower & ~0x20], exact: true)]
                }
                return [PatternLead(bytes: [byte], exact: true)]
            }
        }

        /// For `prefixesPastSeparators`: moves past the item at `index` and its quantifier when
        /// it matches only colons and blanks (`:`, ` `, `\:`, `[ ]`, `[ :]`), and tells whether it
        /// may match nothing; nil, not moving, otherwise.
        mutating func skipSeparatorItem() -> Bool? {
            let start = index
            let separators: Set<UInt8> = [UInt8(ascii: ":"), UInt8(ascii: " ")]
            guard index < bytes.count, bytes[index] != UInt8(ascii: "("), !caseless,
                  let options = item(), options.allSatisfy({ $0.exact && $0.bytes.count == 1 && separators.contains($0.bytes[0]) })
            else {
                index = start
                return nil
            }
            return skipQuantifier().optional
        }

        /// `skipQuantifier`, and whether the quantifier is lazy (`??`, `*?`, `{0,3}?`).
        mutating func skipQuantifierAndLaziness() -> (optional: Bool, repeated: Bool, lazy: Bool) {
            let start = index
            let (optional, repeated) = skipQuantifier()
            return (optional, repeated, index > start + 1 && bytes[index - 1] == UInt8(ascii: "?") && bytes[start] != UInt8(ascii: "?")
                        || (index == start + 2 && bytes[start] == UInt8(ascii: "?") && bytes[start + 1] == UInt8(ascii: "?")))
        }

        /// Moves past a quantifier after an item: whether it lets the item match nothing
        /// (`?`, `*`, `{0…}`) and whether it lets it match more than once.
        mutating func skipQuantifier() -> (optional: Bool, repeated: Bool) {
            guard index < bytes.count else { return (false, false) }
            var result = (optional: false, repeated: false)
            switch bytes[index] {
            case UInt8(ascii: "?"):
                result = (true, false)
                index += 1
            case UInt8(ascii: "*"):
                result = (true, true)
                index += 1
            case UInt8(ascii: "+"):
                result = (false, true)
                index += 1
            case UInt8(ascii: "{"):
                // PCRE2 reads a `{` that does not open a quantifier as itself.
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")),
                      bytes[(index + 1)..<close].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ",") }),
                      close > index + 1, bytes[index + 1] != UInt8(ascii: ",")
                else { return result }
                result = (bytes[index + 1] == UInt8(ascii: "0"), true)
                index = close + 1
            default:
                return result
            }
            // A lazy or possessive mark after the quantifier.
            if index < bytes.count, bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            return result
        }

        /// Moves to the `|` or `)` that ends the current alternative at this depth, or the end.
        mutating func skipToEndOfAlternative() {
            var depth = 0
            var inClass = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\\") { index += 2; continue }
                if inClass {
                    if byte == UInt8(ascii: "]") { inClass = false }
                } else if byte == UInt8(ascii: "[") {
                    inClass = true
                    // A `]` right after `[` or `[^` is a literal.
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "^") { index += 1 }
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "]") { index += 1 }
                } else if byte == UInt8(ascii: "(") {
                    depth += 1
                } else if byte == UInt8(ascii: ")") {
                    if depth == 0 { return }
                    depth -= 1
                } else if byte == UInt8(ascii: "|"), depth == 0 {
                    return
                }
                index += 1
            }
        }

        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}
