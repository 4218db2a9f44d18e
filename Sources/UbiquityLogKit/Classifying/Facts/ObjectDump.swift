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
// Dumps run to thousands of lines, so lines are scanned as bytes; only the attributes of
// an object become text.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum ObjectDump {
    /// The objects a dump lists; with their attributes when `attributes` (see
    /// `RuleMatch.readsDetails`). Without, each object's attribute lines are passed over, not
    /// gathered, shortened and split: the summary counts objects by entity and operation
    /// alone, and attributes and relationships' values are the bulk of an export's dump.
    static func changes(in message: UnsafeRawBufferPointer, attributes keepsAttributes: Bool = true) -> [ObjectChange] {
        var changes: [ObjectChange] = []
        var section: ObjectChange.Operation?
        var open: ObjectChange?
        var pieces: [UInt8] = []
        /// Bytes of the open object's attribute lines past `maxAttributeBytes`, not kept.
        var bytesLeftOut = 0

        func close() {
            guard var change = open else { return }
            if keepsAttributes { change.attributes = attributes(from: ByteText.string(pieces)) }
            if bytesLeftOut > 0 {
                change.attributes.append(.init(name: moreAttributesName, value: "\(bytesLeftOut) more bytes of attributes not kept"))
            }
            changes.append(change)
            open = nil
            pieces.removeAll(keepingCapacity: true)
            bytesLeftOut = 0
        }

        var start = 0
        while start <= message.count {
            let end = Bytes.find(0x0A, in: message, from: start) ?? message.count
            var line = start..<end
            start = end + 1
            if let (operation, rest) = sectionStart(message, line) {
                close()
                section = operation
                line = rest
            }
            if let section, let (entity, id, isFault) = objectStart(message, line) {
                close()
                open = ObjectChange(operation: section, entity: entity, objectID: id)
                if isFault { close() }
                continue
            }
            guard open != nil else { continue }
            let trimmed = Bytes.trim(message, line)
            if Bytes.hasPrefix(message, trimmed, Bytes.objectEnd) {
                close()
            } else if keepsAttributes, !trimmed.isEmpty {
                // Each copy of a 4 MiB object's text (the text, its String, the references
                // shortened) would cost 4 MiB more: past the cap, lines are counted only.
                if pieces.count + 1 + trimmed.count > maxAttributeBytes {
                    bytesLeftOut += trimmed.count
                    continue
                }
                if !pieces.isEmpty { pieces.append(0x20) }
                pieces.append(contentsOf: message[trimmed])
            }
        }
        close()
        return changes
    }

    private static let exporting = ObjectChange.Operation.allCases.map { (Array("exporting \($0.rawValue) objects:".utf8), $0) }
    private static let labels = ObjectChange.Operation.allCases.map { (Array("\($0.rawValue):".utf8), $0) }
    /// By byte: whether one of `labels` starts with it.
    private static let startsLabel: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for (label, _) in labels { if let first = label.first { table[Int(first)] = true } }
        return table
    }()
    private static let exportingAnchor = Bytes.exportingWord.withUnsafeBytes { RareByteSearch.anchor(of: $0) }

    /// `exporting updated objects: …` or `\tdeleted: …` → the operation and what follows it.
    /// (Asked of every line of a dump, most of them an object's attributes: the labels are
    /// compared only on a line that starts with one's first byte, and `exporting ` is looked
    /// for by its least common byte, not by its `e`, which stands everywhere in a line.)
    private static func sectionStart(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>) -> (ObjectChange.Operation, Range<Int>)? {
        let trimmed = Bytes.trim(bytes, line)
        if !trimmed.isEmpty, startsLabel[Int(bytes[trimmed.lowerBound])] {
            for (label, operation) in labels where Bytes.hasPrefix(bytes, trimmed, label) {
                return (operation, trimmed.lowerBound + label.count..<line.upperBound)
            }
        }
        guard let found = Bytes.exportingWord.withUnsafeBytes({
            RareByteSearch.firstOffset(of: $0, anchor: exportingAnchor, in: UnsafeRawBufferPointer(rebasing: bytes[line]))
        }) else { return nil }
        let at = line.lowerBound + found
        for (phrase, operation) in exporting where Bytes.hasPrefix(bytes, at..<line.upperBound, phrase) {
            return (operation, at + phrase.count..<line.upperBound)
        }
        return nil
    }

    /// `… <x-coredata://UUID/Entry/p12> ; data: {` → (`Entry`, `p12`, fault?).
    private static func objectStart(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>) -> (String, String, Bool)? {
        guard let data = Bytes.find(Bytes.dataMarker, in: bytes, range: line),
              let uri = Bytes.findLast(Bytes.uriStart, in: bytes, range: line.lowerBound..<data)
        else { return nil }
        let uriEnd = Bytes.find(UInt8(ascii: ">"), in: bytes, from: uri + Bytes.uriStart.count, before: data) ?? data
        // The last two path components: entity and object id.
        var slashes: [Int] = []
        var index = uriEnd - 1
        while index >= uri + Bytes.uriStart.count, slashes.count < 2 {
            if bytes[index] == UInt8(ascii: "/") { slashes.append(index) }
            index -= 1
        }
        guard slashes.count == 2 else { return nil }
        let entity = ByteText.string(UnsafeRawBufferPointer(rebasing: bytes[slashes[1] + 1..<slashes[0]]))
        let id = ByteText.string(UnsafeRawBufferPointer(rebasing: bytes[slashes[0] + 1..<uriEnd]))
        guard !entity.isEmpty, !id.isEmpty else { return nil }
        let isFault = Bytes.hasPrefix(bytes, data + Bytes.dataMarker.count..<line.upperBound, Bytes.fault)
        return (entity, id, isFault)
    }

    /// Attributes kept of one object. A record of 4 MiB can hold a million `a=b;` pairs, two
    /// Strings each: kept whole they would take some 100 MB. Real entities have tens of attributes.
    static let maxAttributes = 1_000
    /// Bytes of one object's attribute lines read; the lines after are counted, not read.
    static let maxAttributeBytes = 64 * 1024
    /// The name of the last attribute kept when there were more: its value says how many more.
    static let moreAttributesName = "…"

    /// `body = "Went"; tags = ( "0x15e4f120 <x-coredata://…/Tag/p3>" ); title = Walk;`
    /// → body, tags = (Tag/p3), title; split at semicolons outside quotes and brackets. At most
    /// `maxAttributes`, then one named `…` whose value counts the rest.
    static func attributes(from text: String) -> [ObjectChange.Attribute] {
        var compact = shortenReferences(text)
        // Scanned as UTF-8 bytes: every byte that matters is ASCII, which never occurs inside
        // a multi-byte character, so a cut at one keeps the text whole; only the names and
        // values become Strings, not every piece.
        return compact.withUTF8 { buffer in
            let bytes = UnsafeRawBufferPointer(buffer)
            var attributes: [ObjectChange.Attribute] = []
            var leftOut = 0
            var pieceStart = 0
            func finish(_ end: Int) {
                let piece = trimSpaces(bytes, pieceStart..<end)
                guard !piece.isEmpty else { return }
                guard attributes.count < maxAttributes else {
                    leftOut += 1
                    return
                }
                if let equals = Bytes.find(Bytes.assignment, in: bytes, range: piece) {
                    attributes.append(.init(name: string(bytes, piece.lowerBound..<equals),
                                            value: collapsedSpaces(bytes, equals + Bytes.assignment.count..<piece.upperBound)))
                } else {
                    attributes.append(.init(name: string(bytes, piece), value: ""))
                }
            }
            var depth = 0
            var quoted = false
            var escaped = false
            for index in 0..<bytes.count {
                let byte = bytes[index]
                if escaped {
                    escaped = false
                    continue
                }
                switch byte {
                case UInt8(ascii: "\\") where quoted: escaped = true
                case UInt8(ascii: "\""): quoted.toggle()
                case UInt8(ascii: "(") where !quoted, UInt8(ascii: "{") where !quoted: depth += 1
                case UInt8(ascii: ")") where !quoted, UInt8(ascii: "}") where !quoted: depth = max(0, depth - 1)
                case UInt8(ascii: ";") where !quoted && depth == 0:
                    finish(index)
                    pieceStart = index + 1
                default: break
                }
            }
            finish(bytes.count)
            if leftOut > 0 { attributes.append(.init(name: moreAttributesName, value: "\(leftOut) more attributes not kept")) }
            return attributes
        }
    }

    /// A value with each run of spaces and tabs made one space, then without spaces at its ends.
    private static func collapsedSpaces(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        // Beside a byte beyond ASCII, a space may be part of a larger Character (a combining
        // mark after it, say), which the Character reading keeps: such values take that path.
        guard bytes[range].allSatisfy({ $0 < 0x80 }) else {
            return collapseSpaces(string(bytes, range)).trimmingCharacters(in: " ")
        }
        var result: [UInt8] = []
        result.reserveCapacity(range.count)
        var lastWasSpace = false
        for byte in bytes[range] {
            let isSpace = byte == 0x20 || byte == 0x09
            if isSpace, lastWasSpace { continue }
            result.append(isSpace ? 0x20 : byte)
            lastWasSpace = isSpace
        }
        return result.withUnsafeBytes { string($0, trimSpaces($0, 0..<$0.count)) }
    }

    /// `range` without spaces (not tabs) at its ends.
    private static func trimSpaces(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 { upper -= 1 }
        return lower..<upper
    }

    /// Bytes cut from valid UTF-8 at ASCII bytes: valid themselves.
    private static func string(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// `"0x15e4f120 <x-coredata://8F3A…/Tag/p3>"` → `Tag/p3`.
    static func shortenReferences(_ text: String) -> String {
        // Bytes, not Characters: every byte looked for is ASCII, so cutting at one keeps the
        // UTF-8 whole, and no Character is formed (relationship values run to many lines).
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return "" }
            let bytes = UnsafeRawBufferPointer(start: base, count: bytes.count)
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var rest = 0
            while let start = Bytes.find(Bytes.uriStart, in: bytes, range: rest..<bytes.count) {
                let uri = start + Bytes.uriStart.count
                guard let end = Bytes.find(UInt8(ascii: ">"), in: bytes, from: uri) else { break }
                var before = rest..<start
                // Drop the `"0x15e4f120 ` that precedes the URI, and its closing quote after.
                var closingQuote = false
                if let space = before.last, bytes[space] == 0x20 {
                    let token = before.lowerBound..<space
                    if let quote = lastIndex(of: UInt8(ascii: "\""), in: bytes, token),
                       Bytes.hasPrefix(bytes, quote + 1..<token.upperBound, hexPrefix) {
                        before = token.lowerBound..<quote
                        closingQuote = true
                    } else if let spaceBefore = lastIndex(of: 0x20, in: bytes, token),
                              Bytes.hasPrefix(bytes, spaceBefore + 1..<token.upperBound, hexPrefix) {
                        before = token.lowerBound..<spaceBefore + 1
                    }
                }
                result.append(contentsOf: bytes[before])
                // The last two non-empty path components: `Tag/p3`.
                var parts: [Range<Int>] = []
                var partEnd = end
                var index = end
                while index > uri, parts.count < 2 {
                    index -= 1
                    if bytes[index] == UInt8(ascii: "/") {
                        if index + 1 < partEnd { parts.append(index + 1..<partEnd) }
                        partEnd = index
                    }
                }
                if parts.count < 2, uri < partEnd { parts.append(uri..<partEnd) }
                for (number, part) in parts.reversed().enumerated() {
                    if number > 0 { result.append(UInt8(ascii: "/")) }
                    result.append(contentsOf: bytes[part])
                }
                rest = end + 1
                if closingQuote, rest < bytes.count, bytes[rest] == UInt8(ascii: "\"") { rest += 1 }
            }
            result.append(contentsOf: bytes[rest...])
            return String(decoding: result, as: UTF8.self)
        }
    }

    private static let hexPrefix = Array("0x".utf8)

    private static func lastIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        var index = range.upperBound
        while index > range.lowerBound {
            index -= 1
            if bytes[index] == byte { return index }
        }
        return nil
    }

    /// Runs of spaces and tabs made one space, Character by Character.
    static func collapseSpaces(_ text: String) -> String {
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
