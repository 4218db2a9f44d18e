// `--unhandled`: the ubiquity records no rule recognised, grouped into templates (addresses,
// UUIDs, paths and numbers folded), most frequent first, with a count and one example each,
// so that a user can see what the catalogue lacks.
import PCRE2

public final class UnhandledReporter: Reporter {
    /// What the report keeps, so that memory stays bounded on any input: a log of distinct
    /// messages kept whole costs twice its size in memory.
    public struct Limits: Sendable {
        /// Templates kept; records of further templates are counted, not grouped.
        public var templates: Int
        /// Bytes of a message kept, as its example and for its template (the rest is cut, `…`).
        public var messageBytes: Int
        public init(templates: Int = 5_000, messageBytes: Int = 500) {
            self.templates = max(1, templates)
            self.messageBytes = max(1, messageBytes)
        }
    }

    private let out: OutputWriter
    private let limits: Limits
    private var templates: [String: Template] = [:]
    private var order: [String] = []
    private let folder = TemplateFolder()
    /// Records whose template was new after `limits.templates` were kept.
    private var recordsLeftOut = 0

    struct Template {
        var count: Int
        var example: String
        var location: String
    }

    public init(output: OutputWriter, limits: Limits = Limits()) {
        out = output
        self.limits = limits
    }

    /// Unhandled records have no rule and so no facts; it reads no other record.
    public func readsFacts(of kind: EventKind) -> Bool { false }
    public func readsDetails(of kind: EventKind) -> Bool { false }

    public func report(_ item: ClassifiedRecord) {
        guard case .unhandled = item.event else { return }
        let message = UnhandledReporter.capped(Headline.unhandledMessage(item.record), bytes: limits.messageBytes)
        let key = folder.fold(message)
        if templates[key] == nil {
            guard templates.count < limits.templates else {
                recordsLeftOut += 1
                return
            }
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
        out.line("\(summary.unhandled) unhandled record\(summary.unhandled == 1 ? "" : "s") of \(summary.syncRecords) sync records, in \(ranked.count) template\(ranked.count == 1 ? "" : "s")")
        for (_, key) in ranked {
            guard let template = templates[key] else { continue }  // every key in `order` has one
            out.line()
            out.line("\(template.count)×  \(ByteText.terminalSafe(key))")
            out.line("    e.g. \(template.location): \(ByteText.terminalSafe(template.example))")
        }
        if recordsLeftOut > 0 {
            out.line()
            out.line("\(recordsLeftOut) more record\(recordsLeftOut == 1 ? "" : "s") in templates beyond the first \(limits.templates), not grouped (memory is bounded)")
        }
        out.flush()
    }

    /// `text` cut to at most `bytes` bytes of UTF-8 on a character's boundary, with `…` when cut.
    static func capped(_ text: String, bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            count += scalar.utf8.count
            if count > bytes { break }
            result.unicodeScalars.append(scalar)
        }
        return result + "…"
    }
}
