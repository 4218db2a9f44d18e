// The pattern syntax `PatternReader` steps over: where an item, a class, a group or a
// quantifier ends, read as PCRE2 reads it.

extension LeadingBytes.PatternReader {
    /// Moves past one item, whatever it is (a group, a class, an escape, a character) and
    /// its quantifier.
    package mutating func skipItem() {
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

    /// `(?i:` at `position`: where its content starts and its `)`.
    package func caselessGroup(at position: Int) -> (contentStart: Int, close: Int)? {
        guard position + 3 < bytes.count, bytes[position + 1] == UInt8(ascii: "?"), bytes[position + 2] == UInt8(ascii: "i"),
              bytes[position + 3] == UInt8(ascii: ":") else { return nil }
        var reader = Self(bytes: bytes)
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
    package func classEnd(from start: Int) -> Int? {
        var end = start + 1
        if end < bytes.count, bytes[end] == UInt8(ascii: "^") { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "]") { end += 1 }
        while end < bytes.count, bytes[end] != UInt8(ascii: "]") {
            if bytes[end] == UInt8(ascii: "["), end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: ":") { return nil }
            end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        return end < bytes.count ? end + 1 : nil
    }

    /// Where the one-character item at `position` ends (before its quantifier): a plain
    /// character, `.`, an escaped character or class (`\.`, `\d`, `\S`, `\n`), or a class;
    /// nil for anything else (a group, an anchor, `\b`, a back-reference).
    package func characterEnd(at position: Int) -> Int? {
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
    package func group(at position: Int) -> (contentStart: Int, close: Int)? {
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
        var reader = Self(bytes: bytes)
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
    package func quantifier(at position: Int) -> (end: Int, least: Int, most: Int) {
        // Most items have none (asked after each literal byte of every pattern at start-up).
        guard position < bytes.count else { return (position, 1, 1) }
        switch bytes[position] {
        case UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "{"): break
        default: return (position, 1, 1)
        }
        var reader = Self(bytes: bytes)
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

    /// `skipQuantifier`, and whether the quantifier is lazy (`??`, `*?`, `{0,3}?`).
    package mutating func skipQuantifierAndLaziness() -> (optional: Bool, repeated: Bool, lazy: Bool) {
        let start = index
        let (optional, repeated) = skipQuantifier()
        return (optional, repeated, index > start + 1 && bytes[index - 1] == UInt8(ascii: "?") && bytes[start] != UInt8(ascii: "?")
                    || (index == start + 2 && bytes[start] == UInt8(ascii: "?") && bytes[start + 1] == UInt8(ascii: "?")))
    }

    /// Moves past a quantifier after an item: whether it lets the item match nothing
    /// (`?`, `*`, `{0…}`) and whether it lets it match more than once.
    package mutating func skipQuantifier() -> (optional: Bool, repeated: Bool) {
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
    package mutating func skipToEndOfAlternative() {
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

    /// The byte at `position` when it is a literal that matches itself alone, exactly once:
    /// ASCII, not a metacharacter, no quantifier after it, and not a letter read in both cases.
    package func plainLiteral(at position: Int) -> UInt8? {
        guard position < bytes.count else { return nil }
        let byte = bytes[position]
        guard byte < 0x80, !Self.metacharacters[Int(byte)] else { return nil }
        if caseless, (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "z") { return nil }
        if position + 1 < bytes.count, Self.quantifierStarts[Int(bytes[position + 1])] { return nil }
        return byte
    }

    private static let metacharacters = flags(#"\[(.^$)|*+?{"#)
    private static let quantifierStarts = flags("?*+{")

    private static func flags(_ members: String) -> [Bool] {
        var table = [Bool](repeating: false, count: 256)
        for byte in members.utf8 { table[Int(byte)] = true }
        return table
    }

    package func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
