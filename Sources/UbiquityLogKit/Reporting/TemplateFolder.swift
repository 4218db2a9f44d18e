import PCRE2

/// Replaces what varies between two records of one message with placeholders.
public final class TemplateFolder {
    private let matcher: Matcher?

    public init() {
        matcher = (try? Regex(#"(?<addr>0x[0-9A-Fa-f]+)|(?<uuid>[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12})|(?<path>(?:file://)?(?<!\w)/(?:[^\s,;)"'>]|[ ](?=Documents/))+)|(?<num>(?<![\w.])-?\d+(?:\.\d+)?(?![\w.]))"#)).map { Matcher($0) }
    }

    public func fold(_ text: String) -> String {
        guard let matcher else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var position = 0
        return bytes.withUnsafeBytes { buffer in
            while position < buffer.count, (try? matcher.matches(buffer, from: position)) == true, let whole = matcher.range(ofGroup: 0) {
                out += buffer[position..<whole.lowerBound]
                let placeholder = matcher.range(ofGroup: "addr") != nil ? "0x…"
                    : matcher.range(ofGroup: "uuid") != nil ? "<uuid>"
                    : matcher.range(ofGroup: "path") != nil ? "<path>" : "<n>"
                out += Array(placeholder.utf8)
                position = max(whole.upperBound, whole.lowerBound + 1)
            }
            if position < buffer.count { out += buffer[position...] }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
