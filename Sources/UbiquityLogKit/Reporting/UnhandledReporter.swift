// `--unhandled`: the ubiquity records no rule recognised, grouped into templates (addresses,
// UUIDs, paths and numbers folded), most frequent first, with a count and one example each,
// so that a user can see what the catalogue lacks.

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
    private var templates: UnhandledTemplates

    public init(output: OutputWriter, limits: Limits = Limits()) {
        out = output
        self.limits = limits
        templates = UnhandledTemplates(limits: .init(templates: limits.templates, messageBytes: limits.messageBytes))
    }

    /// Unhandled records have no rule and so no facts; it reads no other record.
    public func readsFacts(of kind: EventKind) -> Bool { false }
    public func readsDetails(of kind: EventKind) -> Bool { false }

    public func report(_ item: ClassifiedRecord) {
        guard case .unhandled = item.event else { return }
        templates.add(item)
    }

    public func finish(_ summary: RunSummary) {
        let ranked = templates.ranked
        out.line("\(summary.unhandled) unhandled record\(summary.unhandled == 1 ? "" : "s") of \(summary.syncRecords) sync records, in \(ranked.count) template\(ranked.count == 1 ? "" : "s")")
        for template in ranked {
            out.line()
            out.line("\(template.count)×  \(ByteText.terminalSafe(template.text))")
            out.line("    e.g. \(template.location): \(ByteText.terminalSafe(template.example))")
        }
        let recordsLeftOut = templates.recordsLeftOut
        if recordsLeftOut > 0 {
            out.line()
            out.line("\(recordsLeftOut) more record\(recordsLeftOut == 1 ? "" : "s") in templates beyond the first \(limits.templates), not grouped (memory is bounded)")
        }
        out.flush()
    }
}
