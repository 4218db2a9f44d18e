// Reads managed objects out of the sets Core Data prints in export and import messages:
//
//     exporting inserted objects: {(
//         <Entry: 0x15e4c9d0> (entity: Entry; id: 0x15e4a1b0 <x-coredata://8F3A…/Entry/p12> ; data: {
//         title = Walk;
//         tags = (
//             "0x15e4f120 <x-coredata://8F3A…/Tag/p3>"
//         );
//     })
//     )}
//
// Sections open with "exporting inserted objects:" (exports) or "inserted:" (imports).

enum ObjectDump {
    static func changes(in message: String) -> [ObjectChange] {
        var changes: [ObjectChange] = []
        var section: ObjectChange.Operation?
        var open: ObjectChange?
        var pieces: [String] = []

        func close() {
            guard var change = open else { return }
            change.attributes = attributes(from: pieces.joined(separator: " "))
            changes.append(change)
            open = nil
            pieces = []
        }

        for rawLine in message.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = Substring(rawLine)
            if let (operation, rest) = sectionStart(line) {
                close()
                section = operation
                line = rest
            }
            if let section, let (entity, id, isFault) = objectStart(line) {
                close()
                open = ObjectChange(operation: section, entity: entity, objectID: id)
                if isFault { close() }
                continue
            }
            guard open != nil else { continue }
            let trimmed = line.trimmingCharacters(in: " \t")
            if trimmed.hasPrefix("})") {
                close()
            } else if !trimmed.isEmpty {
                pieces.append(trimmed)
            }
        }
        close()
        return changes
    }

    /// `exporting updated objects: …` or `\tdeleted: …` → the operation and what follows it.
    private static func sectionStart(_ line: Substring) -> (ObjectChange.Operation, Substring)? {
        for operation in ObjectChange.Operation.allCases {
            let exporting = "exporting \(operation.rawValue) objects:"
            if let range = line.firstRange(of: exporting) { return (operation, line[range.upperBound...]) }
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            let label = "\(operation.rawValue):"
            if trimmed.hasPrefix(label) { return (operation, trimmed.dropFirst(label.count)) }
        }
        return nil
    }

    /// `… <x-coredata://UUID/Entry/p12> ; data: {` → (`Entry`, `p12`, fault?).
    private static func objectStart(_ line: Substring) -> (String, String, Bool)? {
        guard let dataRange = line.firstRange(of: "; data: "),
              let reference = line[..<dataRange.lowerBound].ranges(of: "<x-coredata://").last
        else { return nil }
        let uri = line[reference.upperBound..<dataRange.lowerBound].prefix(while: { $0 != ">" })
        let parts = uri.split(separator: "/")
        guard parts.count >= 3, let id = parts.last else { return nil }
        let entity = parts[parts.count - 2]
        let isFault = line[dataRange.upperBound...].hasPrefix("<fault>")
        return (String(entity), String(id), isFault)
    }

    /// `body = "Went"; tags = ( "0x15e4f120 <x-coredata://…/Tag/p3>" ); title = Walk;`
    /// → body, tags = (Tag/p3), title; split at semicolons outside quotes and brackets.
    static func attributes(from text: String) -> [ObjectChange.Attribute] {
        let compact = shortenReferences(text)
        var attributes: [ObjectChange.Attribute] = []
        var current = ""
        var depth = 0
        var quoted = false
        var escaped = false
        func finish() {
            let piece = current.trimmingCharacters(in: " ")
            current = ""
            guard !piece.isEmpty else { return }
            if let equals = piece.firstRange(of: " = ") {
                attributes.append(.init(name: String(piece[..<equals.lowerBound]),
                                        value: collapseSpaces(String(piece[equals.upperBound...])).trimmingCharacters(in: " ")))
            } else {
                attributes.append(.init(name: piece, value: ""))
            }
        }
        for character in compact {
            if escaped { escaped = false; current.append(character); continue }
            switch character {
            case "\\" where quoted: escaped = true
            case "\"": quoted.toggle()
            case "(" where !quoted, "{" where !quoted: depth += 1
            case ")" where !quoted, "}" where !quoted: depth = max(0, depth - 1)
            case ";" where !quoted && depth == 0: finish(); continue
            default: break
            }
            current.append(character)
        }
        finish()
        return attributes
    }

    /// `"0x15e4f120 <x-coredata://8F3A…/Tag/p3>"` → `Tag/p3`.
    static func shortenReferences(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.firstRange(of: "<x-coredata://") {
            guard let end = rest[start.upperBound...].firstIndex(of: ">") else { break }
            var before = rest[..<start.lowerBound]
            // Drop the `"0x15e4f120 ` that precedes the URI, and its closing quote after.
            var closingQuote = false
            if let space = before.lastIndex(of: " "), before[before.index(after: space)...].isEmpty {
                let token = before[..<space]
                if let quote = token.lastIndex(of: "\""), token[token.index(after: quote)...].hasPrefix("0x") {
                    before = token[..<quote]
                    closingQuote = true
                } else if let spaceBefore = token.lastIndex(of: " "), token[token.index(after: spaceBefore)...].hasPrefix("0x") {
                    before = token[...spaceBefore]
                }
            }
            let parts = rest[start.upperBound..<end].split(separator: "/")
            result += before
            result += parts.suffix(2).joined(separator: "/")
            rest = rest[rest.index(after: end)...]
            if closingQuote, rest.first == "\"" { rest = rest.dropFirst() }
        }
        result += rest
        return result
    }

    private static func collapseSpaces(_ text: String) -> String {
        var result = ""
        var lastWasSpace = false
        for character in text {
            let isSpace = character == " " || character == "\t"
            if isSpace, lastWasSpace { continue }
            result.append(isSpace ? " " : character)
            lastWasSpace = isSpace
        }
        return result
    }
}
