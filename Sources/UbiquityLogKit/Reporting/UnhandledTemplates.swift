// Unhandled records grouped into templates (addresses, UUIDs, paths and numbers folded), with
// a count and one example each, within bounds: what `--unhandled` prints and the HTML report lists.

struct UnhandledTemplates {
    /// What is kept, so that memory stays bounded on any input: a log of distinct messages
    /// kept whole costs twice its size in memory.
    struct Limits: Sendable {
        /// Templates kept; records of further templates are counted, not grouped.
        var templates: Int
        /// Bytes of a message kept, as its example and for its template (the rest is cut, `…`).
        var messageBytes: Int
    }

    struct Template {
        var text: String
        var count: Int
        var example: String
        var location: String
    }

    let limits: Limits
    private var templates: [String: Template] = [:]
    private var order: [String] = []
    private let folder = TemplateFolder()
    /// Records whose template was new after `limits.templates` were kept.
    private(set) var recordsLeftOut = 0

    init(limits: Limits = Limits(templates: 5_000, messageBytes: 500)) {
        self.limits = Limits(templates: max(1, limits.templates), messageBytes: max(1, limits.messageBytes))
    }

    mutating func add(_ item: ClassifiedRecord) {
        let message = Self.capped(Headline.unhandledMessage(item.record), bytes: limits.messageBytes)
        let key = folder.fold(message)
        if templates[key] == nil {
            guard templates.count < limits.templates else {
                recordsLeftOut += 1
                return
            }
            templates[key] = Template(text: key, count: 0, example: message, location: "\(item.record.input):\(item.record.firstLine)")
            order.append(key)
        }
        templates[key]?.count += 1
    }

    /// The templates, most frequent first (first seen first among equals).
    var ranked: [Template] {
        // Spelt out with its types: inferred, this one expression took the compiler seconds.
        let seen: [Template] = order.compactMap { templates[$0] }
        let indexed: [(offset: Int, template: Template)] = seen.enumerated().map { ($0.offset, $0.element) }
        return indexed.sorted { (a: (offset: Int, template: Template), b: (offset: Int, template: Template)) -> Bool in
            a.template.count != b.template.count ? a.template.count > b.template.count : a.offset < b.offset
        }.map { $0.template }
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
