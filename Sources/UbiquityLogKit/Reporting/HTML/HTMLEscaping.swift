// Escaping for the HTML report. Everything from the log (messages, input and process names,
// kind facts) is untrusted: as text or an attribute value it becomes character references
// (`XML.escape`: markup characters, and controls shown as `\xNN`); as data in the page's
// `<script type="application/json">` it is JSON (`JSONText`) whose `<`, `>`, `&`, U+2028,
// U+2029 and `#` are written as `\uXXXX`, so that no `</script>` or `<!--` can end or change
// the script element and no line can read as a CI workflow command.

enum HTMLEscaping {
    /// Text for an element or a quoted attribute value.
    static func text(_ text: String) -> String { XML.escape(text) }

    /// A JSON string literal safe inside a script element.
    static func scriptString(_ text: String) -> String {
        var json = JSONText()
        json.string(text)
        return json.withBytes { scriptSafe($0) }
    }

    /// JSON text with the characters that mean something to an HTML parser inside a script
    /// element (or to a CI log reader) escaped. They only ever stand inside strings in JSON
    /// text, where `\uXXXX` means the same character.
    static func scriptSafe(_ json: UnsafeBufferPointer<UInt8>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(json.count + 16)
        var index = 0
        while index < json.count {
            let byte = json[index]
            switch byte {
            case UInt8(ascii: "<"): bytes += Array(#"\u003c"#.utf8)
            case UInt8(ascii: ">"): bytes += Array(#"\u003e"#.utf8)
            case UInt8(ascii: "&"): bytes += Array(#"\u0026"#.utf8)
            case UInt8(ascii: "#"): bytes += Array(#"\u0023"#.utf8)
            case 0xE2 where index + 2 < json.count && json[index + 1] == 0x80 && (json[index + 2] == 0xA8 || json[index + 2] == 0xA9):
                bytes += Array((json[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
                index += 2
            default: bytes.append(byte)
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
