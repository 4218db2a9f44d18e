import CByteScan

/// JSON text per RFC 8259, written by hand: the output is small objects, and this keeps
/// key order stable and Foundation out of the hot path. These make Strings, for the summary
/// and tests; records are written with `JSONText` directly.
enum JSON {
    /// A JSON string literal.
    static func quote(_ text: String) -> String {
        var json = JSONText()
        json.string(text)
        return json.text
    }

    static func value(_ value: FieldValue) -> String {
        var json = JSONText()
        json.value(value)
        return json.text
    }

    /// Bytes as ripgrep carries them: `{"text":"…"}` when they are UTF-8, else
    /// `{"bytes":"BASE64"}`, so nothing is lost or replaced.
    static func data(_ bytes: [UInt8]) -> String {
        var json = JSONText()
        json.data(bytes)
        return json.text
    }

    static func object(_ fields: [Field]) -> String {
        var json = JSONText()
        json.object(fields)
        return json.text
    }
}

/// JSON written into bytes as it is produced: keys, strings (escaped a run at a time),
/// numbers, nested values. Objects and arrays are opened and closed by the caller, who
/// gives members in order; the commas between them are this type's business.
struct JSONText {
    private var buffer = ByteBuffer()
    /// What the strings written held, `CBYTESCAN_SEEN_…` bits (see `quoted`), since this was
    /// last set to 0: a line without a `#` holds no `##[`, and needs no look for one.
    var seen: UInt32 = 0
    /// The bits of `seen` and of `quoted`'s result, by name.
    static let seenNonASCII = CBYTESCAN_SEEN_NON_ASCII, seenHash = CBYTESCAN_SEEN_HASH
    /// Per open object or array: whether a member has been written (the next needs a comma).
    private var hasMember: [Bool] = []

    var text: String { buffer.withBytes { String(decoding: $0, as: UTF8.self) } }
    var bytes: [UInt8] { buffer.array }
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try buffer.withBytes(body)
    }

    mutating func removeAll() {
        // A huge record's room (strings reserve six bytes a byte) is given back.
        buffer.removeAll(keepingRoomUpTo: 1 << 20)
        hasMember.removeAll(keepingCapacity: true)
    }

    /// A record's members up to its message's value: `{"type":"record","input":…,"line":…,
    /// "lines":…,"time":…` with `"process"` and `"pid"` when known, the kind's members and
    /// `,"message":`. `head` is the text up to the line's number (`{"type":"record","input":…,"line":`),
    /// the same for every record of an input; `kind` the kind's members and `,"message":`.
    /// Written through one pointer into room checked once (`ByteCursor`), the time from the
    /// bits its header packed.
    mutating func recordHead(_ head: [UInt8], record: Record, process: [UInt8]?, kind: [UInt8]) {
        let clock = record.head?.clock ?? PackedTime()
        recordHead(head, line: record.firstLine, lines: record.lineCount, clock: clock, time: clock.isEmpty ? record.time : nil,
                   process: process, pid: record.pid, kind: kind)
    }

    /// `recordHead(_:record:process:kind:)` of the parts: the time is `clock` unless that is
    /// empty, else `time`.
    @inline(__always)
    mutating func recordHead(_ head: [UInt8], line: Int, lines: Int, clock: PackedTime, time: LogTime?, process: [UInt8]?, pid: Int?,
                             kind: [UInt8]) {
        // The literals below come to under 120 bytes in all (28 at most), each number to
        // under 21, a time to at most `TimeText.capacity` with its quotes.
        let limit = head.count + (process?.count ?? 0) + kind.count + 3 * 40 + 3 * 21 + TimeText.capacity + 2
        buffer.write(atMost: limit) { base in
            var out = ByteCursor(base)
            out.copy(head)
            out.int(line)
            out.literal(#","lines":"#)
            out.int(lines)
            out.literal(#","time":"#)
            if !clock.isEmpty {
                out.time(clock)
            } else if let time {
                out.time(time)
            } else {
                out.literal("null")
            }
            if let process { out.copy(process) }
            if let pid {
                out.literal(#","pid":"#)
                out.int(pid)
            }
            out.copy(kind)
            return out.count
        }
    }

    /// What `body` writes, appended to `target` rather than to this value's own buffer:
    /// a record's line is written where the output keeps it (see `OutputWriter.line(writing:)`).
    mutating func writing(into target: inout ByteBuffer, _ body: (inout JSONText) -> Void) {
        swap(&buffer, &target)
        // Empty after every whole object (each open has its close): emptied only if not, as
        // `removeAll(keepingCapacity:)` does work even on an empty array.
        if !hasMember.isEmpty { hasMember.removeAll(keepingCapacity: true) }
        seen = 0
        body(&self)
        swap(&buffer, &target)
    }

    mutating func openObject() { open(UInt8(ascii: "{")) }
    mutating func closeObject() { close(UInt8(ascii: "}")) }
    mutating func openArray() { open(UInt8(ascii: "[")) }
    mutating func closeArray() { close(UInt8(ascii: "]")) }

    /// `"key":`, after a comma when the object has members already. The key is written as
    /// it is: keys in the code are plain words, which need no escape.
    mutating func key(_ key: StaticString) {
        separate()
        buffer.append(UInt8(ascii: "\""))
        buffer.append(key)
        buffer.append(UInt8(ascii: "\""))
        buffer.append(UInt8(ascii: ":"))
    }

    /// `"name":` for a name made at run time (a field's, an entity's), escaped as needed.
    mutating func key(name: String) {
        separate()
        string(name)
        buffer.append(UInt8(ascii: ":"))
    }

    mutating func member(_ key: StaticString, _ value: String?) {
        self.key(key)
        optionalString(value)
    }

    mutating func member(_ key: StaticString, _ value: Int) {
        self.key(key)
        int(value)
    }

    mutating func member(_ key: StaticString, _ value: Bool) {
        self.key(key)
        bool(value)
    }

    /// A time as an ISO 8601 string (which needs no escape), or null.
    mutating func time(_ value: LogTime?) {
        guard let value else { return raw("null") }
        buffer.append(UInt8(ascii: "\""))
        value.withISO8601 { buffer.append($0) }
        buffer.append(UInt8(ascii: "\""))
    }

    /// JSON text given as bytes (made by this type before), written as it is.
    mutating func raw(bytes text: [UInt8]) { buffer.append(text) }

    /// A string, or null.
    mutating func optionalString(_ value: String?) {
        if let value { string(value) } else { raw("null") }
    }

    mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }

    /// JSON text written as it is.
    mutating func json(_ text: String) { buffer.append(string: text) }

    mutating func value(_ value: FieldValue) {
        switch value {
        case .string(let text): string(text)
        case .span(let bytes):
            // Written from the record's bytes where they are UTF-8 (no String made for it);
            // else as the text `ByteText.string` makes of them, `\xNN` for the odd bytes.
            bytes.withUnsafeBufferPointer { string(maybeUTF8: $0) }
        case .int(let number): int(number)
        case .bool(let flag): bool(flag)
        case .list(let items):
            put(UInt8(ascii: "["))
            items.withUnsafeBufferPointer { items in
                for index in items.indices {
                    if index > 0 { put(UInt8(ascii: ",")) }
                    self.value(items[index])
                }
            }
            put(UInt8(ascii: "]"))
        case .object(let fields): object(fields)
        }
    }

    /// Its commas from the field's place, not from the stack of open objects (`separate`) that
    /// `JSONObject` builds with: that would push and pop a flag per object, and
    /// `for field in fields` would copy each field (its name and value retained and released).
    /// Nothing outside the value it writes needs to know of it: it is written after a key, as
    /// a list's element, or alone.
    ///
    /// `opening` is the text before the first member, the object's brace with whatever comes
    /// before it: a record's `,"fields":{` in one piece (see `rawMember`).
    mutating func object(_ fields: [Field], opening: StaticString = "{") {
        put(opening)
        // Read in place through the array's storage: a field read out of the array by its
        // index was copied for the calls, its name and value retained and released.
        fields.withUnsafeBufferPointer { fields in
            for index in fields.indices {
                if index > 0 { put(UInt8(ascii: ",")) }
                string(fields[index].name)
                put(UInt8(ascii: ":"))
                value(fields[index].value)
            }
        }
        put(UInt8(ascii: "}"))
    }

    /// See `JSON.data`.
    mutating func data(_ data: [UInt8]) {
        data.withUnsafeBufferPointer { self.data($0) }
    }

    /// A record's last member, `,"raw":` and its text as `data` writes it, and the record's
    /// closing brace. The text is written as a string at once, and written again as
    /// `{"bytes":…}` in the rare record whose bytes are not UTF-8: checking first would read
    /// the whole text twice (see `cbytescan_json_write`). The literal pieces around the text
    /// are each appended in one, as is the fields object's opening: appended apart
    /// (`,"fields":`, `{`, `,"raw":`, `{"text":`, `}`, `}`), each would be a check of room and
    /// of the storage's owner.
    mutating func rawMember(_ text: RecordText) {
        text.withUnsafeBufferPointer { data in
            let start = buffer.count
            raw(#","raw":{"text":"#)
            if quoted(data) & CBYTESCAN_SEEN_NON_ASCII != 0, !ByteText.isValidUTF8(UnsafeRawBufferPointer(data)) {
                buffer.removeLast(buffer.count - start)
                raw(#","raw":"#)
                self.data(data)
                raw("}")
            } else {
                raw("}}")
            }
        }
    }

    mutating func data(_ data: UnsafeBufferPointer<UInt8>) {
        if ByteText.isValidUTF8(UnsafeRawBufferPointer(data)) {
            raw(#"{"text":"#)
            string(utf8: data)
            raw("}")
        } else {
            raw(made: #"{"bytes":""# + Base64.encode(data) + #""}"#)
        }
    }

    mutating func string(_ text: String) {
        // The text's own bytes where it has them (native and small strings): `withUTF8` on a
        // copy checks the copy's owner and retains and releases it, a real share of the work
        // for the short strings most of a record's fields are.
        if text.utf8.withContiguousStorageIfAvailable({ string(utf8: $0) }) != nil { return }
        var text = text
        text.withUTF8 { string(utf8: $0) }
    }

    /// A string literal of valid UTF-8 (`cbytescan_json_write`).
    mutating func string(utf8 source: UnsafeBufferPointer<UInt8>) {
        quoted(source)
    }

    /// `source` as a string literal, escaped in one pass in C (see `cbytescan_json_write`),
    /// through a pointer into room for the worst case (every byte a six-byte `\u00XX`).
    /// Returns what the text held, `CBYTESCAN_SEEN_…` bits (also gathered in `seen`): a
    /// caller that has not checked its bytes are UTF-8 checks them only when one was not ASCII.
    @discardableResult
    mutating func quoted(_ source: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var found: UInt32 = 0
        buffer.write(atMost: source.count * 6 + 18) { out in
            out[0] = UInt8(ascii: "\"")
            var written = 1
            if let base = source.baseAddress { written += cbytescan_json_write(out + 1, base, source.count, &found) }
            out[written] = UInt8(ascii: "\"")
            return written + 1
        }
        seen |= found
        return found
    }

    /// Bytes that are usually UTF-8, as a string literal: written at once, and written again
    /// as `ByteText.string` makes them (`\\xNN` for the odd bytes) where they prove not to be.
    mutating func string(maybeUTF8 source: UnsafeBufferPointer<UInt8>) {
        if !quotedIfUTF8(source) { string(ByteText.string(source)) }
    }

    /// `source` as a string literal if it is UTF-8, checked only when a byte is not ASCII;
    /// false, and nothing written, if it is not.
    mutating func quotedIfUTF8(_ source: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = buffer.count
        guard quoted(source) & CBYTESCAN_SEEN_NON_ASCII == 0 || ByteText.isValidUTF8(UnsafeRawBufferPointer(source)) else {
            buffer.removeLast(buffer.count - start)
            return false
        }
        return true
    }

    mutating func int(_ number: Int) {
        // Written through a pointer, two digits a division (`ByteCursor.int`): no String per
        // number, and no check of room per digit.
        buffer.write(atMost: 21) { base in
            var out = ByteCursor(base)
            out.int(number)
            return out.count
        }
    }

    @inline(__always)
    mutating func raw(_ text: StaticString) { put(text) }

    /// A literal appended in one copy of its known length: `ByteBuffer.append` is a call, and a
    /// call to `memcpy`, for each comma and brace.
    @inline(__always)
    private mutating func put(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        buffer.write(atMost: count) { base in
            base.initialize(from: text.utf8Start, count: count)
            return count
        }
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        buffer.write(atMost: 1) { base in
            base.pointee = byte
            return 1
        }
    }

    /// Text made at run time. Named apart from `raw(_: StaticString)`: with both under one
    /// name a literal picked this one, and copying a String's UTF-8 took a generic path.
    private mutating func raw(made text: String) { buffer.append(string: text) }

    private mutating func open(_ bracket: UInt8) {
        buffer.append(bracket)
        hasMember.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        buffer.append(bracket)
        hasMember.removeLast()
        // The closed object or array was itself a member of the one around it.
        if !hasMember.isEmpty { hasMember[hasMember.count - 1] = true }
    }

    /// A comma before every member but the first of the innermost open object or array.
    private mutating func separate() {
        guard let last = hasMember.last else { return }
        if last { buffer.append(UInt8(ascii: ",")) }
        hasMember[hasMember.count - 1] = true
    }
}

/// An object built member by member into JSON text (the summary's objects).
struct JSONObject {
    private var json = JSONText()

    init() { json.openObject() }

    mutating func add(_ key: String, _ value: String?) {
        json.key(name: key)
        json.optionalString(value)
    }

    mutating func add(_ key: String, _ value: Int) {
        json.key(name: key)
        json.int(value)
    }

    mutating func add(_ key: String, _ value: Bool) {
        json.key(name: key)
        json.bool(value)
    }

    mutating func addRaw(_ key: String, _ text: String) {
        json.key(name: key)
        json.json(text)
    }

    var text: String {
        var closed = json
        closed.closeObject()
        return closed.text
    }
}

enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 2 < input.count {
            let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            for shift in [18, 12, 6, 0] { output.append(alphabet[Int(value >> UInt32(shift) & 0x3F)]) }
            index += 3
        }
        let rest = input.count - index
        if rest > 0 {
            let value = UInt32(input[index]) << 16 | (rest == 2 ? UInt32(input[index + 1]) << 8 : 0)
            output.append(alphabet[Int(value >> 18 & 0x3F)])
            output.append(alphabet[Int(value >> 12 & 0x3F)])
            output.append(rest == 2 ? alphabet[Int(value >> 6 & 0x3F)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
        return String(decoding: output, as: UTF8.self)
    }
}
