// `log show --style ndjson`: one JSON object per line, whose `eventMessage` is one record.
// The objects are flat apart from a few nested values we skip, so a small reader suffices.

/// Turns NDJSON lines into records: header facts from the object's keys, the message from
/// `eventMessage` (its newlines make a multi-line record of one input line).
struct NDJSONRecords {
    let input: String
    let parser: HeaderParser
    /// A message's cap: that of any record (`RecordAssembler.Limits.maxBytes`).
    var maxBytes = RecordAssembler.Limits().maxBytes

    func record(_ line: Line) -> Record {
        // An event longer than the line reader keeps is still an event: its members from its
        // start, up to the cut, and from its tail (`FlatJSON.cutObject`).
        let whole = line.isTruncated ? nil : FlatJSON.object(line.bytes)
        guard let object = whole ?? (line.isTruncated ? FlatJSON.cutObject(line.bytes, tail: line.tail) : nil),
              var message = object["eventMessage"] else {
            // Not an event object (a `[` of --style json, a blank line, garbage): a record of its own.
            return Record(input: input, firstLine: line.number, lineCount: 1, text: RecordText(line.bytes),
                          header: nil, bodyStart: 0, isTruncated: line.isTruncated)
        }
        var truncated = line.isTruncated
        if message.utf8.count > maxBytes {
            // Capped like any record's text, on a character's boundary.
            let bytes = Array(message.utf8)
            var end = maxBytes
            while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }  // not inside a character
            message = String(decoding: bytes[..<end], as: UTF8.self)
            truncated = true
        }
        // Decoded straight into the record's own text (an Array first would be a second copy).
        let text = RecordText(message.utf8)
        var time: LogTime?
        if let timestamp = object["timestamp"], var parsed = LogTime(parsing: String(timestamp.prefix(26))) {
            parsed.utcOffsetMinutes = Self.offset(in: timestamp)
            time = parsed
        }
        let prefix = text.withUnsafeBytes { parser.parsePrefix($0, from: 0) }
        // Made whole: a header's texts are one object, and setting them one by one makes one each.
        let header = Header(style: .logShow, time: time,
                            process: object["processImagePath"].map { path in String(path.split(separator: "/").last ?? Substring(path)) },
                            pid: object["processID"].flatMap { Int($0) }, thread: object["threadID"], level: object["messageType"],
                            method: prefix.method, sourceLine: prefix.sourceLine, marker: prefix.marker)
        return Record(input: input, firstLine: line.number, lineCount: 1, text: text,
                      header: header, bodyStart: prefix.bodyStart, isTruncated: truncated)
    }

    /// `+0200` at the end of `2016-09-30 10:01:02.123456+0200`, in minutes.
    private static func offset(in timestamp: String) -> Int? {
        let tail = Array(timestamp.utf8.suffix(5))
        guard tail.count == 5, tail[0] == UInt8(ascii: "+") || tail[0] == UInt8(ascii: "-"),
              let hours = Int(String(decoding: tail[1..<3], as: UTF8.self)),
              let minutes = Int(String(decoding: tail[3..<5], as: UTF8.self))
        else { return nil }
        return (tail[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
    }
}

/// Reads the top-level members of one JSON object: strings decoded, numbers and literals as
/// their text, nested objects and arrays skipped. Nil when the line is not a JSON object.
enum FlatJSON {
    static func object(_ bytes: UnsafeRawBufferPointer) -> [String: String]? {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        var members: [String: String] = [:]
        reader.skipSpace()
        if reader.take(UInt8(ascii: "}")) { return reader.atEndAfterSpace ? members : nil }
        while true {
            reader.skipSpace()
            guard let key = reader.string() else { return nil }
            reader.skipSpace()
            guard reader.take(UInt8(ascii: ":")) else { return nil }
            reader.skipSpace()
            guard let value = reader.value() else { return nil }
            members[key] = value
            reader.skipSpace()
            if reader.take(UInt8(ascii: ",")) { continue }
            guard reader.take(UInt8(ascii: "}")) else { return nil }
            return reader.atEndAfterSpace ? members : nil
        }
    }

    /// The members of an event object the line reader cut: those of `head` (the line's start)
    /// up to the cut, a string cut short as far as it goes, and those after the cut member that
    /// `tail` (the line's last bytes) holds whole. Nil when `head` does not start an object.
    static func cutObject(_ head: UnsafeRawBufferPointer, tail: UnsafeRawBufferPointer?) -> [String: String]? {
        var reader = Reader(bytes: head)
        reader.allowsCut = true
        reader.skipSpace()
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        var members: [String: String] = [:]
        while true {
            reader.skipSpace()
            guard let key = reader.string(), !reader.wasCut else { break }
            reader.skipSpace()
            guard reader.take(UInt8(ascii: ":")) else { break }
            reader.skipSpace()
            guard let value = reader.value() else { break }
            members[key] = value
            if reader.wasCut { break }
            reader.skipSpace()
            guard reader.take(UInt8(ascii: ",")) else { break }
        }
        guard let tail else { return members }
        // The cut member's value is nearly always a string (the message): its end is the first
        // quote not escaped in the tail, and after it come the remaining members. A candidate is
        // taken only if all that follows it reads as members to the object's end.
        var candidates = 0
        var index = 0
        while index < tail.count, candidates < 64 {
            defer { index += 1 }
            guard tail[index] == UInt8(ascii: "\"") else { continue }
            var backslashes = 0
            while index - backslashes > 0, tail[index - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
            guard backslashes % 2 == 0 else { continue }
            candidates += 1
            var rest = Reader(bytes: UnsafeRawBufferPointer(rebasing: tail[(index + 1)...]))
            if let after = rest.remainingMembers() {
                members.merge(after) { _, later in later }
                break
            }
        }
        return members
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0
        /// A string the bytes end inside is returned as far as it goes (and `wasCut` set).
        var allowsCut = false
        private(set) var wasCut = false

        /// `, "key": value ... }` to the end of the bytes: the members after one just read.
        mutating func remainingMembers() -> [String: String]? {
            var members: [String: String] = [:]
            while true {
                skipSpace()
                if take(UInt8(ascii: "}")) { return atEndAfterSpace ? members : nil }
                guard take(UInt8(ascii: ",")) else { return nil }
                skipSpace()
                guard let key = string() else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                guard let value = value() else { return nil }
                members[key] = value
            }
        }

        var atEndAfterSpace: Bool {
            mutating get { skipSpace(); return index == bytes.count }
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[index]) { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A value as text: strings decoded; numbers, true, false, null as written; nested
        /// objects and arrays skipped (as "").
        mutating func value() -> String? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "{"), UInt8(ascii: "["): return skipNested() ? "" : nil
            default:
                let start = index
                while index < bytes.count, !",}] \t\r\n".utf8.contains(bytes[index]) { index += 1 }
                guard index > start else { return nil }
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            }
        }

        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var scalars: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return ByteText.string(scalars)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else {
                        if allowsCut { wasCut = true; return ByteText.string(scalars) }
                        return nil
                    }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "n"): scalars.append(0x0A)
                    case UInt8(ascii: "t"): scalars.append(0x09)
                    case UInt8(ascii: "r"): scalars.append(0x0D)
                    case UInt8(ascii: "b"): scalars.append(0x08)
                    case UInt8(ascii: "f"): scalars.append(0x0C)
                    case UInt8(ascii: "u"):
                        guard var code = hex4() else { return nil }
                        if (0xD800...0xDBFF).contains(code), let low = lowSurrogate() {
                            code = 0x10000 + (code - 0xD800) << 10 + (low - 0xDC00)
                        }
                        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                        scalars += Array(String(Character(scalar)).utf8)
                    default: scalars.append(escape)  // \" \\ \/
                    }
                default:
                    scalars.append(byte)
                }
            }
            if allowsCut {
                wasCut = true
                return ByteText.string(scalars)
            }
            return nil
        }

        /// The `\uDC00`-`\uDFFF` escape that completes a high surrogate, taken only when it is
        /// one: a high surrogate without its low half (then U+FFFD) leaves whatever follows, an
        /// escape such as `\n` or `\u0041` included, to be read as itself.
        private mutating func lowSurrogate() -> UInt32? {
            let start = index
            if take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), (0xDC00...0xDFFF).contains(low) { return low }
            index = start
            return nil
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                index += 1
                let digit: UInt32
                switch byte {
                case 48...57: digit = UInt32(byte - 48)
                case 65...70: digit = UInt32(byte - 55)
                case 97...102: digit = UInt32(byte - 87)
                default: return nil
                }
                value = value << 4 | digit
            }
            return value
        }

        private mutating func skipNested() -> Bool {
            var depth = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    guard string() != nil else { return false }
                    continue
                }
                index += 1
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth += 1 }
                if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 { return true }
                }
            }
            return false
        }
    }
}
