// What PCRE2's attempt at part of a pattern may cost, as `PatternReader` reads it: whether a
// lead is sure depends on every item tried before and after it having a bounded cost.

extension LeadingBytes.PatternReader {
    /// What PCRE2 tried before a path of the pattern, at the position where the path goes on
    /// (an optional item it left out, the alternatives before it), and what that may cost.
    package struct Attempt {
        /// Items of bounded cost (`isBounded`) that may have matched there.
        package var mayMatch = false
        /// Items that fail at once there unless the subject has one of these bytes there:
        /// each of their matches starts with one of them.
        package var firstBytes: [UInt8] = []
        /// Items that may cost PCRE2 anything there.
        package var unknown = false

        package static let nothing = Attempt()

        /// These items, then `next` at the same position.
        package func then(_ next: Attempt) -> Attempt {
            Attempt(mayMatch: mayMatch || next.mayMatch, firstBytes: Array(Set(firstBytes + next.firstBytes)).sorted(),
                    unknown: unknown || next.unknown)
        }

        /// `prefix` once these items were tried where it goes on.
        package func passed(_ prefix: PatternLead) -> PatternLead {
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
    package func attempt(of range: Range<Int>) -> Attempt {
        var inner = Self(bytes: Array(bytes[range]))
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
    package mutating func isBounded() -> Bool {
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

    /// Whether nothing in `range` (whole items, alternatives of one group) can match a line
    /// end: characters other than `\n`, `\S`, `\d`, `\w`, classes that exclude `\n` (or `\s`)
    /// or name no escape, and groups of such items, repeated or not. Read conservatively:
    /// `.`, other escapes and anything else are taken to match one.
    package func matchesNoLineEnd(_ range: Range<Int>) -> Bool {
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
    package func isSafeTail(from start: Int) -> Bool {
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
    /// Not a repeated group: each repetition is a step PCRE2 counts, and `(?:\n\t[^\n]*)*`
    /// reaches the JIT's stack limit on a long enough run of such lines.
    package func safeItem(at position: Int) -> Int? {
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
}
