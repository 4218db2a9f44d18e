// `--unhandled`: the ubiquity records no rule recognised, grouped into templates (addresses,
// UUIDs, paths and numbers folded), most frequent first, with a count and one example each,
// so that a user can see what the catalogue lacks.
import PCRE2

public final class UnhandledReporter: Reporter {
    private let out: OutputWriter
    private var templates: [String: Template] = [:]
    private var order: [String] = []
    private let folder = TemplateFolder()

    struct Template {
        var count: Int
        var example: String
        var location: String
    }

    public init(output: OutputWriter) { out = output }

    /// Unhandled records have no rule and so no facts; it reads no other record.
    public func readsFacts(of kind: EventKind) -> Bool { false }

    public func report(_ item: ClassifiedRecord) {
        guard case .unhandled = item.event else { return }
        let message = Headline.unhandledMessage(item.record)
        let key = folder.fold(message)
        if templates[key] == nil {
            templates[key] = Template(count: 0, example: message, location: "\(item.record.input):\(item.record.firstLine)")
            order.append(key)
        }
        templates[key]?.count += 1
    }

    public func finish(_ summary: RunSummary) {
        let ranked = order.enumerated().sorted { lhs, rhs in
            let (left, right) = (templates[lhs.element]?.count ?? 0, templates[rhs.element]?.count ?? 0)
            return left != right ? left > right : lhs.offset < rhs.offset
        }
        out.line("\(summary.unhandled) unhandled record\(summary.unhandled == 1 ? "" : "s") of \(summary.ubiquityRecords) ubiquity records, in \(ranked.count) template\(ranked.count == 1 ? "" : "s")")
        for (_, key) in ranked {
            guard let template = templates[key] else { continue }  // every key in `order` has one
            out.line()
            out.line("\(template.count)×  \(ByteText.terminalSafe(key))")
            out.line("    e.g. \(template.location): \(ByteText.terminalSafe(template.example))")
        }
        out.flush()
    }
}

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
