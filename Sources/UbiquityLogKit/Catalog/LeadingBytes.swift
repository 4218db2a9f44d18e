// The literal texts a pattern's matches start with, worked out from its text where that is
// easy (literal phrases, groups, alternations, classes of plain characters, optional and
// repeated items) and "anything" otherwise. The classifier indexes rules by them (see
// RuleIndex), so that at a line start only the rules whose text is there run their pattern.

enum LeadingBytes {
    /// Longest prefix worked out: enough to tell the catalogue's phrases apart.
    static let prefixLimit = 16
    /// Most prefixes kept for one pattern; past it they are shortened until they fit.
    static let maxPrefixes = 512

    /// Byte strings one of which starts every match of `pattern`. An empty one means a match
    /// may start with anything. Never too narrow: where the text is hard to read, a prefix
    /// ends early.
    static func prefixes(of pattern: String) -> [[UInt8]] {
        var reader = Reader(bytes: Array(pattern.utf8))
        return reader.alternation().map(\.bytes)
    }

    /// Like `prefixes(of:)`, for the text that follows the first byte other than a colon or a
    /// blank: items at a match's start that match only colons and blanks (`:`, `[ ]*`, `:?`)
    /// are left out, in groups that open the match too. For what follows an object's
    /// description: `(?::[ ]*Successfully wrote…|Successfully wrote…)` starts with ":" for
    /// `prefixes(of:)`, and every `<…>: ` line would try it.
    static func prefixesPastSeparators(of pattern: String) -> [[UInt8]] {
        var reader = Reader(bytes: Array(pattern.utf8))
        reader.skipsSeparators = true
        return reader.alternation().map(\.bytes)
    }

    /// The bytes every match of `pattern` is, when it is plain text (letters, digits, blanks,
    /// other bytes that are no metacharacter, and escaped punctuation); nil otherwise. Read
    /// conservatively: a brace, even one that opens no quantifier, makes it nil.
    static func literal(of pattern: String) -> [UInt8]? {
        let bytes = Array(pattern.utf8)
        var literal: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                guard index + 1 < bytes.count, bytes[index + 1] < 0x80, !isAlphanumeric(bytes[index + 1]) else { return nil }
                literal.append(bytes[index + 1])
                index += 2
                continue
            }
            guard !"^$.|?*+()[]{}".utf8.contains(byte) else { return nil }
            literal.append(byte)
            index += 1
        }
        return literal.isEmpty ? nil : literal
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
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
    struct Prefix: Hashable {
        var bytes: [UInt8]
        var exact: Bool

        static let empty = Prefix(bytes: [], exact: true)
        static let anything = Prefix(bytes: [], exact: false)
    }

    /// Each of `heads` followed by each of `tails`, bounded in length and number.
    static func concatenate(_ heads: [Prefix], _ tails: [Prefix]) -> [Prefix] {
        // One more literal byte (most of a pattern): appended in place; distinct prefixes
        // stay distinct unless the length limit cuts them.
        if tails.count == 1, tails[0].exact, tails[0].bytes.count == 1 {
            var cut = false
            let result = heads.map { head -> Prefix in
                guard head.exact else { return head }
                guard head.bytes.count < prefixLimit else {
                    cut = true
                    return Prefix(bytes: head.bytes, exact: false)
                }
                return Prefix(bytes: head.bytes + tails[0].bytes, exact: true)
            }
            return cut ? bounded(result) : result
        }
        var result: [Prefix] = []
        for head in heads {
            guard head.exact else {
                result.append(head)
                continue
            }
            for tail in tails {
                var joined = Prefix(bytes: head.bytes + tail.bytes, exact: tail.exact)
                if joined.bytes.count > prefixLimit {
                    joined.bytes.removeLast(joined.bytes.count - prefixLimit)
                    joined.exact = false
                }
                result.append(joined)
            }
        }
        return bounded(result)
    }

    /// `prefixes` without repeats, shortened until at most `maxPrefixes` remain.
    static func bounded(_ prefixes: [Prefix]) -> [Prefix] {
        var seen = Set<Prefix>()
        var result = prefixes.filter { seen.insert($0).inserted }
        var length = prefixLimit
        while result.count > maxPrefixes, length > 0 {
            length -= 1
            seen = []
            result = result.map { prefix in
                prefix.bytes.count > length ? Prefix(bytes: Array(prefix.bytes.prefix(length)), exact: false) : prefix
            }.filter { seen.insert($0).inserted }
        }
        return result
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
        mutating func literalItem() -> [Prefix]? {
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
        mutating func alternation() -> [Prefix] {
            var result: [Prefix] = []
            while true {
                result += alternative()
                skipToEndOfAlternative()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "|") else { return bounded(result) }
                index += 1
            }
        }

        /// The prefixes of one alternative, item by item while they are exact, leaving `index`
        /// somewhere inside it.
        mutating func alternative() -> [Prefix] {
            var result = [Prefix.empty]
            let skipping = skipsSeparators
            defer { skipsSeparators = skipping }
            while index < bytes.count, bytes[index] != UInt8(ascii: "|"), bytes[index] != UInt8(ascii: ")"),
                  result.contains(where: \.exact) {
                // Nothing read yet: a colon-or-blank item is left out, and a group here starts
                // the match too.
                let atStart = skipping && result == [Prefix.empty]
                if atStart, skipSeparatorItem() { continue }
                skipsSeparators = atStart
                guard var options = item() else { return concatenate(result, [.anything]) }
                skipsSeparators = skipping
                let (optional, repeated) = skipQuantifier()
                // Repeated: the first time starts the match, what comes after is unknown.
                if repeated { options = options.map { Prefix(bytes: $0.bytes, exact: false) } }
                if optional { options.append(.empty) }
                result = concatenate(result, options)
            }
            return result
        }

        /// The prefixes of the item at `index` (a group, an escaped or plain character, or a
        /// class of plain characters), moving past it; nil when it cannot tell.
        mutating func item() -> [Prefix]? {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "("):
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
                return [Prefix(bytes: [escaped], exact: true)]
            case UInt8(ascii: "["):
                // A class of plain characters only: no negation, range or escape.
                var end = index + 1
                var members: [Prefix] = []
                while end < bytes.count, bytes[end] != UInt8(ascii: "]") {
                    let member = bytes[end]
                    guard member < 0x80, member != UInt8(ascii: "^"), member != UInt8(ascii: "-"),
                          member != UInt8(ascii: "\\"), member != UInt8(ascii: "[") else { return nil }
                    members.append(Prefix(bytes: [member], exact: true))
                    let lower = member | 0x20
                    if caseless, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") {
                        members.append(Prefix(bytes: [member ^ 0x20], exact: true))
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
                    return [Prefix(bytes: [lower], exact: true), Prefix(bytes: [lower & ~0x20], exact: true)]
                }
                return [Prefix(bytes: [byte], exact: true)]
            }
        }

        /// For `prefixesPastSeparators`: moves past the item at `index` and its quantifier when
        /// it matches only colons and blanks (`:`, ` `, `\:`, `[ ]`, `[ :]`); false, not moving, otherwise.
        mutating func skipSeparatorItem() -> Bool {
            let start = index
            let separators: Set<UInt8> = [UInt8(ascii: ":"), UInt8(ascii: " ")]
            guard index < bytes.count, bytes[index] != UInt8(ascii: "("), !caseless,
                  let options = item(), options.allSatisfy({ $0.exact && $0.bytes.count == 1 && separators.contains($0.bytes[0]) })
            else {
                index = start
                return false
            }
            _ = skipQuantifier()
            return true
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
