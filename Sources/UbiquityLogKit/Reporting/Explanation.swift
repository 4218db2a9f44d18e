// The text of `parselogs explain`: one kind, one Core Data error code, or every kind by category.

public enum Explanation {
    public struct UnknownTopic: Error, CustomStringConvertible {
        public let topic: String
        public var description: String {
            "'\(topic)' is neither an event kind nor a Core Data error code; `parselogs explain` lists the kinds"
        }
    }

    /// What `parselogs explain TOPIC` prints; with no topic, the list of kinds.
    public static func text(for topic: String?, catalog: Catalog) throws(UnknownTopic) -> String {
        guard let topic else { return listing(catalog) }
        if let kind = catalog.kinds.first(where: { $0.id == topic }) { return explain(kind) }
        if let code = Int(topic), let known = CoreDataErrorCode.named(code) { return explain(known) }
        throw UnknownTopic(topic: topic)
    }

    /// The one-line hint the timeline prints under an error.
    public static func hint(for kind: EventKind) -> String? { kind.guidance.action.map { firstSentence($0) } }

    static func explain(_ kind: EventKind) -> String {
        var lines = ["\(kind.id) (\(kind.category.rawValue), \(kind.severity.rawValue), shown \(shownFrom(kind.tier)))", ""]
        lines += wrap(kind.summary)
        lines += ["", "What happens next:"] + wrap(kind.guidance.next)
        if let action = kind.guidance.action { lines += ["", "What to do:"] + wrap(action) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func explain(_ code: CoreDataErrorCode) -> String {
        var lines = ["\(code.code) \(code.name)", ""]
        lines += wrap(code.meaning)
        lines += ["", "What to do:"] + wrap(code.action)
        return lines.joined(separator: "\n") + "\n"
    }

    static func listing(_ catalog: Catalog) -> String {
        var lines = ["Event kinds by category (`parselogs explain KIND` for one, `parselogs explain CODE` for a Core Data error code):"]
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
        lines += ["", "Core Data error codes: " + CoreDataErrorCode.all.map { String($0.code) }.joined(separator: ", ")]
        return lines.joined(separator: "\n") + "\n"
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
        // By bytes: the timeline gives every error a hint, and a search by Characters cost
        // some 58,000 instructions a hint.
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
