// What the rule index reads from a rule's pattern (`LeadingBytes`): the texts it is filed
// under, the texts every match contains. Reading the catalogue's patterns was most of a run's
// start-up, so the readings of the catalogue's own are kept in a generated table
// (`PatternFiling+Catalog.swift`, written by `scripts/update-tables`); a pattern not in it
// (a changed rule, a test's rule) is read at run time. `PatternFilingTests` holds the table
// equal to what `reading(_:)` makes of every pattern of the catalogue, so a rule is still
// written in one place and a stale table fails the tests.
import PatternLeads

package struct PatternFiling: Equatable, Sendable {
    /// A text a match starts with; `sure` when its standing there is enough for a match
    /// (`PatternLead.sure`).
    package struct Lead: Equatable, Sendable {
        package var bytes: [UInt8]
        package var sure: Bool
    }

    /// Whether a match may start with anything: the rule is tried at every position, where
    /// one of `required` stands.
    package var always: Bool
    /// The texts it is filed under at the position itself (none when `always`).
    package var direct: [Lead]
    /// For a rule that starts with an object's description (`PatternPiece.objectPrefix`): the
    /// texts it is filed under after the description; empty for any other rule.
    package var described: [Lead]
    /// Texts one of which every match contains, none empty (the texts it is filed under, or
    /// for a rule tried everywhere its required texts); empty when none are known. For
    /// `UnmarkedPrefilter`.
    package var contained: [[UInt8]]
    /// `LeadingBytes.requiredTexts` of the pattern.
    package var required: [[UInt8]]

    /// The filing of `pattern`: from the catalogue's table when it holds the pattern, read
    /// from the pattern otherwise.
    package static func of(_ pattern: String) -> PatternFiling {
        if let encoded = catalogFilings[PatternKey(pattern)], let filing = PatternFiling(encoded: encoded) { return filing }
        return reading(pattern)
    }

    /// A pattern as the table's key: hashed by its length and its first and last 16 bytes,
    /// equal by its whole text. Hashing every byte of the table's patterns (some 65 KB) was
    /// most of the cost of making the table, which a run that reads a record makes.
    package struct PatternKey: Hashable, ExpressibleByStringLiteral {
        package let pattern: String

        package init(_ pattern: String) { self.pattern = pattern }
        package init(stringLiteral pattern: String) { self.pattern = pattern }

        package static func == (lhs: PatternKey, rhs: PatternKey) -> Bool { lhs.pattern == rhs.pattern }

        package func hash(into hasher: inout Hasher) {
            var text = pattern
            text.withUTF8 { bytes in
                hasher.combine(bytes.count)
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(16))))
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(16))))
            }
        }
    }

    /// The filing of `pattern`, read from its text: the definition the table is held to.
    package static func reading(_ pattern: String) -> PatternFiling {
        let required = LeadingBytes.requiredTexts(of: pattern)
        var leads = LeadingBytes.leads(of: pattern)
        // A rule whose match may take the line before its text (`nextLineLeads`) is filed by
        // its text on the line itself; the search looks for the other way at the next line
        // (`ChannelSearch.firstByNextLine`). Tried everywhere, its required text ("Using local
        // storage: ") would be looked for in every ubiquity message.
        if LeadingBytes.nextLineLeads(of: pattern) != nil { leads.removeAll { $0.bytes.isEmpty } }
        if leads.contains(where: \.bytes.isEmpty) {
            return PatternFiling(always: true, direct: [], described: [],
                                 contained: required.contains(where: \.isEmpty) ? [] : required, required: required)
        }
        // `(?:<…>:?[ ]*)?text`: with a description, the text's first byte other than a colon or
        // a blank stands at the first such byte after the description (`descriptionEnd`). Filed
        // under the bytes there, not under `<`, so that a rule whose text starts with a colon
        // (`peer-receipt-written`, `(?::[ ]*Successfully wrote…|…)`) runs its pattern only where
        // that text stands, not on every record with a description.
        if pattern.hasPrefix(PatternPiece.objectPrefix) {
            let text = String(pattern.dropFirst(PatternPiece.objectPrefix.count))
            let past = LeadingBytes.leadsPastSeparators(of: text)
            if past.allSatisfy({ $0.bytes.first.map { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: ":") } ?? false }) {
                // The text at the position itself, the description left out: PCRE2 tries the
                // description first, which fails at once unless a `<` stands there.
                let textLeads = LeadingBytes.leads(of: text)
                let direct = textLeads.map { Lead(bytes: $0.bytes, sure: $0.sure && $0.bytes.first != UInt8(ascii: "<")) }
                // Every match holds a match of `text`.
                return PatternFiling(always: false, direct: direct, described: past.map { Lead(bytes: $0.bytes, sure: $0.sure) },
                                     contained: textLeads.contains(where: \.bytes.isEmpty) ? [] : textLeads.map(\.bytes),
                                     required: required)
            }
        }
        return PatternFiling(always: false, direct: leads.map { Lead(bytes: $0.bytes, sure: $0.sure) }, described: [],
                             contained: leads.map(\.bytes), required: required)
    }
}

/// The table's text form: one line per filing, `A` (always) or `D`, then the four lists
/// `direct|described|contained|required`, items separated by commas, each `+` (a sure lead)
/// or `-` and its bytes: printable ASCII as itself but `%`, `|` and `,`, which are written
/// `%XX` like every other byte. `contained` is `=` where it is the direct leads' bytes.
extension PatternFiling {
    package var encoded: String {
        func item(_ bytes: [UInt8], sure: Bool) -> String {
            let digits = Array("0123456789ABCDEF".utf8)
            var text: [UInt8] = [sure ? UInt8(ascii: "+") : UInt8(ascii: "-")]
            for byte in bytes {
                if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "%"), byte != UInt8(ascii: "|"), byte != UInt8(ascii: ",") {
                    text.append(byte)
                } else {
                    text += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
                }
            }
            return String(decoding: text, as: UTF8.self)
        }
        let leads = { (list: [Lead]) in list.map { item($0.bytes, sure: $0.sure) }.joined(separator: ",") }
        let texts = { (list: [[UInt8]]) in list.map { item($0, sure: false) }.joined(separator: ",") }
        let sameAsDirect = !direct.isEmpty && contained == direct.map(\.bytes)
        return (always ? "A" : "D") + [leads(direct), leads(described), sameAsDirect ? "=" : texts(contained), texts(required)]
            .map { "|" + $0 }.joined()
    }

    /// The filing `encoded` stands for; nil when it is not one.
    package init?(encoded: String) {
        var text = encoded
        guard let filing = text.withUTF8({ PatternFiling.decode($0) }) else { return nil }
        self = filing
    }

    private static func decode(_ text: UnsafeBufferPointer<UInt8>) -> PatternFiling? {
        guard let kind = text.first, kind == UInt8(ascii: "A") || kind == UInt8(ascii: "D") else { return nil }
        var sections: [[Lead]] = []
        sections.reserveCapacity(4)
        var index = 1
        while index < text.count {
            guard text[index] == UInt8(ascii: "|") else { return nil }
            index += 1
            if sections.count == 2, index < text.count, text[index] == UInt8(ascii: "="),
               index + 1 == text.count || text[index + 1] == UInt8(ascii: "|") {
                sections.append(sections[0].map { Lead(bytes: $0.bytes, sure: false) })
                index += 1
                continue
            }
            var items: [Lead] = []
            while index < text.count, text[index] != UInt8(ascii: "|") {
                if !items.isEmpty {
                    guard text[index] == UInt8(ascii: ",") else { return nil }
                    index += 1
                }
                guard index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") else { return nil }
                var lead = Lead(bytes: [], sure: text[index] == UInt8(ascii: "+"))
                index += 1
                var end = index, escaped = false
                while end < text.count, text[end] != UInt8(ascii: ","), text[end] != UInt8(ascii: "|") {
                    escaped = escaped || text[end] == UInt8(ascii: "%")
                    end += 1
                }
                // Most items are their bytes as they are: copied at once. (Every start-up that
                // reads a record decodes the filings of a channel's rules.)
                guard escaped else {
                    lead.bytes = Array(UnsafeBufferPointer(rebasing: text[index..<end]))
                    index = end
                    items.append(lead)
                    continue
                }
                lead.bytes.reserveCapacity(end - index)
                while index < end {
                    if text[index] == UInt8(ascii: "%") {
                        guard index + 2 < end, let high = digit(text[index + 1]), let low = digit(text[index + 2]) else { return nil }
                        lead.bytes.append(high << 4 | low)
                        index += 3
                    } else {
                        lead.bytes.append(text[index])
                        index += 1
                    }
                }
                items.append(lead)
            }
            sections.append(items)
        }
        guard sections.count == 4 else { return nil }
        return PatternFiling(always: kind == UInt8(ascii: "A"), direct: sections[0], described: sections[1],
                             contained: sections[2].map(\.bytes), required: sections[3].map(\.bytes))
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The generated table's source: every pattern of `rules`, each once, with its filing.
    package static func catalogSource(_ rules: [Rule]) -> String {
        var seen = Set<String>()
        var lines = [
            "// Generated by scripts/update-tables: what the rule index reads from each pattern of the",
            "// catalogue (`PatternFiling.reading`). Do not edit; `PatternFilingTests` holds it equal to",
            "// the catalogue's patterns, and a pattern not here is read at run time.",
            "",
            "extension PatternFiling {",
            "    static let catalogFilings: [PatternKey: String] = [",
        ]
        for rule in rules where seen.insert(rule.pattern).inserted {
            lines.append("        \(swiftLiteral(rule.pattern)):")
            lines.append("            \(swiftLiteral(reading(rule.pattern).encoded)),")
        }
        lines += ["    ]", "}", ""]
        return lines.joined(separator: "\n")
    }

    /// `text` as a Swift string literal.
    private static func swiftLiteral(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": literal += "\\\\"
            case "\"": literal += "\\\""
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                literal += "\\u{\(String(scalar.value, radix: 16))}"
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }
}
