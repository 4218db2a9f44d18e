// The text of `parselogs explain`: one kind, one Core Data error code, or every kind by category.

public enum Explanation {
    public struct UnknownTopic: Error, CustomStringConvertible {
        public let topic: String
        public var description: String {
            "'\(topic)' is neither an event kind nor a known error code (CODE or DOMAIN:CODE); `parselogs explain` lists both"
        }
    }

    /// What `parselogs explain TOPIC` prints; with no topic, the list of kinds.
    public static func text(for topic: String?, catalog: Catalog) throws(UnknownTopic) -> String {
        guard let topic else { return listing(catalog) }
        if let kind = catalog.kinds.first(where: { $0.id == topic }) { return explain(kind) }
        if let code = Int(topic) {
            let known = ErrorCode.entries(for: code)
            if !known.isEmpty { return known.map(explain).joined(separator: "\n") }
            if let range = ErrorCode.fallback(domain: ErrorCode.cocoa, code: code) { return explain(range) }
        }
        if let colon = topic.lastIndex(of: ":"), let code = Int(topic[topic.index(after: colon)...]) {
            let domain = String(topic[..<colon])
            if let known = ErrorCode.named(domain: domain, code: code) ?? ErrorCode.fallback(domain: domain, code: code) {
                return explain(known)
            }
        }
        throw UnknownTopic(topic: topic)
    }

    /// The one-line hint the timeline prints under an error.
    public static func hint(for kind: EventKind) -> String? { kind.guidance.action.map { firstSentence($0) } }

    /// The hint under an error event and the topic `parselogs explain` takes for more: the
    /// code the event carries when `explain` knows it (the deepest known one of an error and
    /// those under it: the root cause), else the kind.
    public static func hint(for event: Event) -> (text: String, topic: String)? {
        let kind = event.kind
        if let error = event.error, let code = rootCauseCode(error) {
            // The code's advice is about the root cause; the kind's about the step it broke. A
            // catch-all code's advice comes from the failure reason inside it.
            let reason = reason(of: code, in: error)
            let advice = FailureReasonAdvice.advice(domain: code.domain, code: code.code, reason: reason) ?? code.action
            return (firstSentence(advice), code.topic)
        }
        return hint(for: kind).map { ($0, kind.id) }
    }

    /// The error code to explain for an error: the deepest known one of the error and those
    /// under it (the one under is the more specific: a merge conflict under an import
    /// failure, a permission denied under a set-up failure).
    static func rootCauseCode(_ error: ErrorInfo) -> ErrorCode? {
        var found: ErrorCode?
        var next: ErrorInfo? = error
        while let current = next {
            if let known = ErrorCode.named(domain: current.domain, code: current.code)
                ?? ErrorCode.fallback(domain: current.domain, code: current.code) {
                found = known
            }
            next = current.underlying.first
        }
        return found
    }

    /// The failure reason of the error in `error`'s chain that carries `code`.
    private static func reason(of code: ErrorCode, in error: ErrorInfo) -> String? {
        var next: ErrorInfo? = error
        var found: String?
        while let current = next {
            if current.domain == code.domain, current.code == code.code { found = current.reason ?? found }
            next = current.underlying.first
        }
        return found
    }

    static func explain(_ kind: EventKind) -> String {
        var lines = ["\(kind.id) (\(kind.category.rawValue), \(kind.severity.rawValue), shown \(shownFrom(kind.tier)))", ""]
        lines += wrap(kind.summary)
        lines += ["", "What happens next:"] + wrap(kind.guidance.next)
        if let action = kind.guidance.action { lines += ["", "What to do:"] + wrap(action) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func explain(_ code: ErrorCode) -> String {
        var lines = [code.domain == ErrorCode.cocoa ? "\(code.code) \(code.name)" : "\(code.domain) \(code.code) \(code.name)", ""]
        lines += wrap(code.meaning)
        lines += ["", "What to do:"] + wrap(code.action)
        return lines.joined(separator: "\n") + "\n"
    }

    static func listing(_ catalog: Catalog) -> String {
        var lines = ["Event kinds by category (`parselogs explain KIND` for one, `parselogs explain CODE` or DOMAIN:CODE for an error code):"]
        let width = catalog.kinds.map(\.id.count).max() ?? 0
        for category in Category.allCases {
            let kinds = catalog.kinds.filter { $0.category == category }.sorted { $0.id < $1.id }
            guard !kinds.isEmpty else { continue }
            lines += ["", category.rawValue]
            for kind in kinds {
                let padded = kind.id.padding(to: width)
                lines.append("  \(padded)  \(kind.severity.rawValue.padding(to: 7))  \(firstSentence(kind.summary))")
            }
        }
        for domain in [ErrorCode.cocoa, ErrorCode.posix, ErrorCode.sqlite, ErrorCode.cloudDocs] {
            let codes = ErrorCode.all.filter { $0.domain == domain }.map { String($0.code) }
            lines += ["", "\(domain) codes: " + codes.joined(separator: ", ")]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The page of every event kind and Core Data error code, as Markdown: `docs/event-kinds.md`
    /// is this text, so the page is made from the catalogue and cannot fall behind it.
    public static func markdown(_ catalog: Catalog) -> String {
        var lines = [
            "# Event kinds",
            "",
            "<!-- Generated by `parselogs explain --list --format markdown` (scripts/update-docs); do not edit by hand. -->",
            "",
            "Every record becomes one event of one kind. Kind ids are stable: they are the vocabulary of",
            "`--kind`, `--fail-on` and the `kind` key of the JSON output. A ubiquity record that no rule",
            "recognises is `unhandled`; a record of other code is `app`. `parselogs explain KIND` prints a",
            "kind's meaning, what normally happens next and, for warnings and errors, what to do.",
            "",
            "\"Shown from\" is the verbosity at which the text timeline shows the kind; the summary, the",
            "verdict and the exit status count every kind at every verbosity.",
            "",
            "## Severity",
            "",
            "A kind's severity says what the event means for the store and for sync, whatever level",
            "Core Data or UbiquityStoreManager logged it at:",
            "",
            "- **error**: the store or its data is at risk (a load failed, a log could not be imported, the",
            "  cloud content is corrupt), or sync has stopped without anyone asking for it.",
            "- **warning**: sync is degraded: a device diverges or will not see some changes for now (a",
            "  transfer failed, a peer runs another model version, a stray file was skipped), or Core Data",
            "  is repairing something. A person's own choice that stops sync (logging out, deleting the",
            "  cloud content) is a warning too.",
            "- **info**: progress: loads, exports, imports, switches.",
            "- **debug**: routine chatter, shown from `-vv`.",
            "",
            "Errors make the verdict `broken` unless the store recovers; warnings make it `degraded`.",
            "",
            "## Kinds",
            "",
            "| kind | category | severity | shown from | meaning |",
            "|---|---|---|---|---|",
        ]
        for category in Category.allCases {
            for kind in catalog.kinds.filter({ $0.category == category }).sorted(by: { $0.id < $1.id }) {
                lines.append("| `\(kind.id)` | \(category.rawValue) | \(kind.severity.rawValue) | \(shownFromColumn(kind.tier)) | \(tableCell(kind.summary)) |")
            }
        }
        lines += [
            "",
            "## Error codes",
            "",
            "`parselogs explain CODE` (Cocoa and Core Data codes) or `parselogs explain DOMAIN:CODE` explains",
            "these codes, the ones the events of ubiquity logs carry. The timeline's hint under an error",
            "names the code it carries.",
            "",
            "| domain | code | name | meaning | what to do |",
            "|---|---|---|---|---|",
        ]
        for code in ErrorCode.all {
            lines.append("| \(code.domain) | \(code.code) | `\(code.name)` | \(tableCell(code.meaning)) | \(tableCell(code.action)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func shownFromColumn(_ tier: Tier) -> String {
        switch tier {
        case .notable: "default"
        case .detail: "`-v`"
        case .routine: "`-vv`"
        }
    }

    /// Text made safe for a Markdown table cell: a bar would end the cell, a newline the row.
    private static func tableCell(_ text: String) -> String {
        text.replacing("|", with: "\\|").replacing("\n", with: " ")
    }

    private static func shownFrom(_ tier: Tier) -> String {
        switch tier {
        case .notable: "by default"
        case .detail: "from -v"
        case .routine: "from -vv"
        }
    }

    /// The text up to its first full stop followed by a blank (or all of it).
    static func firstSentence(_ text: String) -> String {
        // By bytes: the timeline gives every error a hint, and a search by Characters is too
        // costly for that.
        guard let stop = text.firstRange(ofASCII: ". ") else { return text }
        return String(text[..<text.index(after: stop.lowerBound)])
    }

    /// Words wrapped at 78 columns, indented by two.
    static func wrap(_ text: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > 76 {
                lines.append("  " + line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append("  " + line) }
        return lines
    }
}

extension String {
    func padding(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
