// The summary in words, shared by the text, HTML and Markdown outputs.

/// The summary in words: rows of a label and what was counted, shared by the text and
/// Markdown output.
public enum SummaryText {
    public struct Row: Sendable {
        public var label: String
        public var value: String
        /// Findings listed under the row as evidence.
        public var evidence: [Finding] = []
        /// Other lines under the row (the text summary's store loads and switches).
        public var details: Lines

        public init(label: String, value: String, evidence: [Finding] = [], details: [String] = []) {
            self.init(label: label, value: value, evidence: evidence, details: Lines(details))
        }

        public init(label: String, value: String, evidence: [Finding] = [], details: Lines) {
            self.label = label
            self.value = value
            self.evidence = evidence
            self.details = details
        }

        /// The lines listed under the row: its evidence, then its details.
        public var listedCount: Int { evidence.count + details.count }

        /// The `index`th line listed under the row.
        public func listed(_ index: Int) -> String {
            guard index >= evidence.count else {
                let finding = evidence[index]
                return "\(finding.input):\(finding.line)  \(finding.kind.id)  \(finding.message)"
            }
            return details[index - evidence.count]
        }
    }

    /// Lines of a row, each made when it is read: a row can have a line for each input or
    /// process of the run (thousands), of which the text summary shows ten and the Markdown
    /// summary none.
    public struct Lines: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable {
        public let count: Int
        private let line: @Sendable (Int) -> String

        /// `count` lines, the `index`th of them `line(index)`.
        public init(count: Int, line: @escaping @Sendable (Int) -> String) {
            self.count = count
            self.line = line
        }

        public init(_ lines: [String]) {
            self.init(count: lines.count) { lines[$0] }
        }

        public init(arrayLiteral lines: String...) { self.init(lines) }

        public var startIndex: Int { 0 }
        public var endIndex: Int { count }
        public subscript(position: Int) -> String { line(position) }
    }

    public static func rows(_ summary: RunSummary) -> [Row] {
        var rows: [Row] = []
        let inputs = summary.inputs.count == 1 ? "1 input" : "\(summary.inputs.count) inputs"
        rows.append(Row(label: "read", value: "\(summary.lines) line\(summary.lines == 1 ? "" : "s"), \(summary.records) record\(summary.records == 1 ? "" : "s") from \(inputs)"
                        + (summary.truncatedRecords > 0 ? " (\(summary.truncatedRecords) truncated)" : "")
                        + (summary.outsideTimeWindow > 0 ? ", \(summary.outsideTimeWindow) outside \(summary.timeWindow)" : "")
                        + (summary.otherProcesses > 0 ? ", \(summary.otherProcesses) from processes other than \(summary.selectedProcesses.joined(separator: ", "))" : "")))
        for failure in summary.unreadableInputs {
            rows.append(Row(label: "unreadable", value: failure.description))
        }
        for family in summary.families { rows += family.story.rows(in: summary) }
        if summary.hasSeveralSyncProcesses {
            let judged = summary.processes.filter(\.isJudged).count
            let (processes, inputs) = (summary.processes, summary.inputs.count)
            rows.append(Row(label: "processes", value: "\(summary.processes.count) with sync records, \(judged) judged",
                            details: Lines(count: processes.count) { describe(processes[$0], inputs: inputs) }))
        }
        let percent = (summary.unhandledPercent * 10).rounded() / 10
        rows.append(Row(label: "unhandled", value: "\(summary.unhandled) record\(summary.unhandled == 1 ? "" : "s") (\(percent)% of \(summary.syncRecords) sync records)"
                        + (summary.matchLimitHits > 0 ? ", \(summary.matchLimitHits) hit the match limit" : "")))
        return rows
    }

    /// `3 errors, 1 warning, 2 unhandled`: what the timeline flagged, unhandled records too.
    public static func result(_ summary: RunSummary) -> String {
        var text = "\(summary.errors) error\(summary.errors == 1 ? "" : "s"), \(summary.warnings) warning\(summary.warnings == 1 ? "" : "s")"
        if summary.unhandled > 0 { text += ", \(summary.unhandled) unhandled" }
        return text
    }

    /// Evidence lines listed under a row of the text summary.
    static let maxEvidence = 10

    public static func lines(_ summary: RunSummary) -> [String] {
        var lines = ["Summary"]
        for row in rows(summary) {
            lines.append("  " + row.label + String(repeating: " ", count: max(1, 17 - row.label.count)) + row.value)
            let listed = row.listedCount
            for index in 0..<min(listed, maxEvidence) { lines.append("    " + row.listed(index)) }
            if listed > maxEvidence {
                lines.append("    … and \(listed - maxEvidence) more (all are in --format jsonl)")
            }
        }
        lines.append("Result: " + result(summary))
        lines += verdictLines(summary)
        if let outcome = summary.outcome { lines.append("Outcome: " + outcome.sentence) }
        return lines
    }

    /// `Verdict: broken`, then the lines that decide it: per input when there are several, per
    /// process when an input has several.
    public static func verdictLines(_ summary: RunSummary) -> [String] {
        var lines = ["Verdict: " + summary.verdictSentence]
        if summary.verdicts.count == 1 {
            lines += verdictDetails(summary.verdicts[0], indent: "  ")
        } else {
            for input in summary.verdicts {
                lines.append("  \(input.input): \(input.sentence)")
                lines += verdictDetails(input, indent: "    ")
            }
        }
        return lines
    }

    /// An input's evidence, or with several processes each one's verdict and evidence; then
    /// each system framework's store, judged apart, with its verdict and evidence.
    static func verdictDetails(_ input: InputVerdict, indent: String) -> [String] {
        var lines = processDetails(input, indent: indent)
        let stores = input.systemStores.prefix(maxVerdictProcesses)
        for store in stores {
            lines.append(indent + store.sentence)
            lines += store.evidence.map { indent + "  " + $0 }
        }
        if input.systemStores.count > stores.count {
            lines.append(indent + "… and \(input.systemStores.count - stores.count) more system stores (all are in --format json)")
        }
        return lines
    }

    static func processDetails(_ input: InputVerdict, indent: String) -> [String] {
        guard !input.processes.isEmpty else { return input.evidence.map { indent + $0 } }
        var lines: [String] = []
        let listed = listedProcesses(input.processes)
        for process in listed {
            lines.append(indent + process.name + ": " + process.verdict.words + (process.reason.map { " (\($0))" } ?? "")
                         + (process.isJudged ? "" : ", not judged: a system daemon (--process \(process.process ?? "") judges it)"))
            lines += process.evidence.map { indent + "  " + $0 }
        }
        if input.processes.count > listed.count {
            lines.append(indent + "… and \(input.processes.count - listed.count) more processes (all are in --format json)")
        }
        return lines
    }

    /// Processes listed under an input's verdict, at most.
    public static let maxVerdictProcesses = 10

    /// The processes an input's verdict lists, in log order: all of them up to
    /// `maxVerdictProcesses`, else the judged ones with the worst verdicts, so that the process
    /// that decides the input's verdict is always listed.
    static func listedProcesses(_ processes: [ProcessSummary]) -> [ProcessSummary] {
        guard processes.count > maxVerdictProcesses else { return processes }
        let chosen = processes.indices.sorted { a, b in
            let (left, right) = (processes[a], processes[b])
            if left.isJudged != right.isJudged { return left.isJudged }
            if left.verdict != right.verdict { return left.verdict > right.verdict }
            return a < b
        }.prefix(maxVerdictProcesses)
        return chosen.sorted().map { processes[$0] }
    }

    /// `Journal[412] (a.log): 14 sync records, 1 unhandled; degraded`
    static func describe(_ process: ProcessSummary, inputs: Int) -> String {
        var text = process.name + (inputs > 1 ? " (\(process.input))" : "") + ": \(process.syncRecords) sync record\(process.syncRecords == 1 ? "" : "s")"
        if process.unhandled > 0 { text += ", \(process.unhandled) unhandled" }
        text += "; " + process.verdict.words
        if !process.isJudged { text += " (system daemon, not judged)" }
        return text
    }

    /// `350 ms`, `1.2 s`, `44.8 s`
    static func duration(_ milliseconds: Int) -> String {
        // On the magnitude: `abs(Int.min)` and `Int.max + 50` trap, and a total held at a
        // bound (`saturatingAdd`) is printed as any other.
        let magnitude = milliseconds.magnitude
        if magnitude < 1000 { return "\(milliseconds) ms" }
        let tenths = magnitude / 100 + (magnitude % 100 >= 50 ? 1 : 0)
        return "\(milliseconds < 0 ? "-" : "")\(tenths / 10).\(tenths % 10) s"
    }
}
