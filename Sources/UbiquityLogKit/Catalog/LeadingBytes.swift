// The bytes a pattern's match can start with, worked out from its text where that is easy
// (literal phrases, groups, alternations, classes of plain characters, optional first items)
// and "any" otherwise. The classifier puts them in a lookahead before each rule, so that at a
// line start one class test skips a rule whose dozens of phrases all start otherwise.

enum LeadingBytes {
    /// The ASCII bytes a match of `pattern` can start with; nil when any byte might.
    static func of(_ pattern: String) -> Set<UInt8>? {
        var reader = Reader(bytes: Array(pattern.utf8))
        return reader.alternation()
    }

    /// A character class that matches exactly `bytes`, for a lookahead.
    static func characterClass(_ bytes: Set<UInt8>) -> String {
        let escaped = bytes.sorted().map { byte -> String in
            let character = String(UnicodeScalar(byte))
            return "\\^-[]".utf8.contains(byte) ? "\\" + character : character
        }
        return "[" + escaped.joined() + "]"
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        /// Alternatives up to the end or the `)` that closes the enclosing group.
        mutating func alternation() -> Set<UInt8>? {
            var result: Set<UInt8>? = []
            while true {
                let first = alternative()
                if let first, result != nil { result?.formUnion(first) } else { result = nil }
                skipToEndOfAlternative()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "|") else { return result }
                index += 1
            }
        }

        /// The first bytes of one alternative, leaving `index` somewhere inside it. An optional
        /// first item (`(?:<…>)?`, `[ ]*`) adds the first bytes of what follows it.
        mutating func alternative() -> Set<UInt8>? {
            guard let first = item() else { return nil }
            guard skipQuantifier() else { return first }
            // The item may match nothing: what follows can start the match too.
            guard index < bytes.count, bytes[index] != UInt8(ascii: "|"), bytes[index] != UInt8(ascii: ")"),
                  let rest = alternative()
            else { return nil }
            return first.union(rest)
        }

        /// The first bytes of the item at `index` (a group, an escaped or plain character, or a
        /// class of plain characters), moving past it; nil when it cannot tell.
        mutating func item() -> Set<UInt8>? {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "("):
                // Only plain and named groups; options, lookarounds and verbs are "any".
                var start = index + 1
                if start < bytes.count, bytes[start] == UInt8(ascii: "?") {
                    guard start + 1 < bytes.count else { return nil }
                    if bytes[start + 1] == UInt8(ascii: ":") {
                        start += 2
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
                return [escaped]
            case UInt8(ascii: "["):
                // A class of plain characters only: no negation, range or escape.
                var end = index + 1
                var members: Set<UInt8> = []
                while end < bytes.count, bytes[end] != UInt8(ascii: "]") {
                    let member = bytes[end]
                    guard member < 0x80, member != UInt8(ascii: "^"), member != UInt8(ascii: "-"),
                          member != UInt8(ascii: "\\"), member != UInt8(ascii: "[") else { return nil }
                    members.insert(member)
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
                return [byte]
            }
        }

        /// Moves past a quantifier after an item; whether it lets the item match nothing
        /// (`?`, `*`, `{0…}`).
        mutating func skipQuantifier() -> Bool {
            guard index < bytes.count else { return false }
            var optional = false
            switch bytes[index] {
            case UInt8(ascii: "?"), UInt8(ascii: "*"):
                optional = true
                index += 1
            case UInt8(ascii: "+"):
                index += 1
            case UInt8(ascii: "{"):
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")) else { return false }
                optional = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "0")
                index = close + 1
            default:
                return false
            }
            // A lazy or possessive mark after the quantifier.
            if index < bytes.count, bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            return optional
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
