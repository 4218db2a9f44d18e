// The HTML report's page, written a piece at a time into the output (which flushes as its
// buffer fills): memory while writing stays that of the gathered timeline. Every text from the
// log goes through `HTMLEscaping`.

struct HTMLPage {
    let reporter: HTMLReporter
    let summary: RunSummary
    let tool: String

    // The timeline's geometry, in SVG units.
    static let labelWidth = 230.0, plotWidth = 940.0, rightPad = 20.0, laneHeight = 30.0, axisHeight = 26.0

    func e(_ text: String) -> String { HTMLEscaping.text(text) }

    func write(to out: OutputWriter) {
        let verdict = summary.verdict
        out.write("""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="\(e(tool))">
            <link rel="icon" href="data:,">
            <title>parselogs: \(e(summary.verdictSentence))</title>
            <style>\(HTMLAssets.style)</style></head><body>

            """)
        writeVerdict(to: out, verdict: verdict)
        writeFindings(to: out)
        writeTimeline(to: out)
        writeSummary(to: out)
        writeUnhandled(to: out)
        out.write("<script>\(HTMLAssets.script)</script>\n</body></html>\n")
    }

    // MARK: verdict and findings

    private func writeVerdict(to out: OutputWriter, verdict: Verdict) {
        out.write("<header>\n<h1>parselogs: <span class=\"verdict v-\(verdict.rawValue)\">\(e(summary.verdictSentence))</span></h1>\n")
        if let outcome = summary.outcome { out.write("<p class=\"outcome\">Outcome: \(e(outcome.sentence))</p>\n") }
        let evidence = SummaryText.verdictLines(summary).dropFirst()
        if !evidence.isEmpty {
            out.write("<ul class=\"evidence\">\n")
            for line in evidence {
                let depth = max(0, line.prefix { $0 == " " }.count / 2 - 1)
                out.write("<li style=\"margin-left:\(depth * 18)px\">\(e(line.trimmingCharacters(in: " ")))</li>\n")
            }
            out.write("</ul>\n")
        }
        let inputs = summary.inputs.map(e).joined(separator: ", ")
        out.write("<p class=\"meta\">\(e(tool)) · \(summary.lines) lines, \(summary.records) records from \(inputs.isEmpty ? "no input" : inputs) · \(e(SummaryText.result(summary)))</p>\n</header>\n")
    }

    private func writeFindings(to out: OutputWriter) {
        let findings = summary.findings
        out.write("<section id=\"findings\"><h2>Findings: \(summary.errors) error\(summary.errors == 1 ? "" : "s"), \(summary.warnings) warning\(summary.warnings == 1 ? "" : "s")</h2>\n")
        if findings.isEmpty {
            out.write("<p>No error or warning.</p></section>\n")
            return
        }
        var kinds: [EventKind] = []
        var byKind: [String: [Int]] = [:]
        for (index, finding) in findings.enumerated() {
            if byKind[finding.kind.id] == nil { kinds.append(finding.kind) }
            byKind[finding.kind.id, default: []].append(index)
        }
        for kind in kinds {
            let own = byKind[kind.id] ?? []
            out.write("<div class=\"kind-block sev-\(kind.severity.rawValue)\" id=\"kind-\(e(kind.id))\"><h3><code>\(e(kind.id))</code> · \(kind.severity.rawValue) · \(own.count)</h3>\n")
            out.write("<p>\(e(kind.summary))</p>\n<details><summary>parselogs explain \(e(kind.id))</summary><p><b>What happens next:</b> \(e(kind.guidance.next))</p>")
            if let action = kind.guidance.action { out.write("<p><b>What to do:</b> \(e(action))</p>") }
            out.write("</details>\n<ol class=\"findings\">\n")
            var codes: [String] = []
            for index in own {
                let finding = findings[index]
                let place = "\(finding.input):\(finding.line)"
                let markID = reporter.markByPlace[finding.input + "\u{0}" + String(finding.line)]
                let process = summary.namesProcesses ? " " + ProcessSummary.name(finding.process, pids: finding.pid.map { [$0] } ?? []) : ""
                let time = finding.time.map { $0.clock(maxFractionDigits: 3) + " " } ?? ""
                let whereText = e(time + place + process)
                let link = markID.map { "<a class=\"goto where\" href=\"#\(e($0))\">\(whereText)</a>" } ?? "<span class=\"where\">\(whereText)</span>"
                out.write("<li id=\"f-\(index)\">\(link) \(e(finding.message))")
                let hint = markID.flatMap { reporter.hint(ofMark: $0) } ?? Explanation.hint(for: kind).map { "\($0) (parselogs explain \(kind.id))" }
                if let hint {
                    out.write("<div class=\"hint\">hint: \(e(hint))</div>")
                    if let topic = Self.topic(of: hint), reporter.codeExplanations[topic] != nil, !codes.contains(topic) { codes.append(topic) }
                }
                out.write("</li>\n")
            }
            out.write("</ol>\n")
            for topic in codes {
                out.write("<details><summary>parselogs explain \(e(topic))</summary><pre>\(e(reporter.codeExplanations[topic] ?? ""))</pre></details>\n")
            }
            out.write("</div>\n")
        }
        let more = summary.errors + summary.warnings - findings.count
        if more > 0 { out.write("<p>… and \(more) more, not kept (all are in <code>--format jsonl</code>).</p>\n") }
        out.write("</section>\n")
    }

    /// The topic a hint names: `… (parselogs explain TOPIC)`.
    static func topic(of hint: String) -> String? {
        guard hint.hasSuffix(")"), let open = hint.ranges(of: "(parselogs explain ").last else { return nil }
        return String(hint[open.upperBound..<hint.index(before: hint.endIndex)])
    }

    // MARK: summary and unhandled

    private func writeSummary(to out: OutputWriter) {
        out.write("<section id=\"summary\"><h2>Summary</h2>\n<table class=\"summary\"><tbody>\n")
        for row in SummaryText.rows(summary) {
            out.write("<tr><th scope=\"row\">\(e(row.label))</th><td>\(e(row.value))")
            let listed = row.listedCount
            if listed > 0 {
                out.write("<ul>")
                for index in 0..<min(listed, 200) { out.write("<li>\(e(row.listed(index)))</li>") }
                if listed > 200 { out.write("<li>… and \(listed - 200) more</li>") }
                out.write("</ul>")
            }
            out.write("</td></tr>\n")
        }
        out.write("<tr><th scope=\"row\">result</th><td>\(e(SummaryText.result(summary)))</td></tr>\n</tbody></table>\n</section>\n")
    }

    private func writeUnhandled(to out: OutputWriter) {
        let ranked = reporter.templates.ranked
        guard !ranked.isEmpty else { return }
        out.write("<section id=\"unhandled\"><h2>Unhandled templates: \(summary.unhandled) record\(summary.unhandled == 1 ? "" : "s") in \(ranked.count) template\(ranked.count == 1 ? "" : "s")</h2>\n")
        out.write("<table><thead><tr><th>records</th><th>template</th><th>example</th></tr></thead><tbody>\n")
        for template in ranked {
            out.write("<tr><td>\(template.count)</td><td><code>\(e(template.text))</code></td><td><span class=\"where\">\(e(template.location))</span> \(e(template.example))</td></tr>\n")
        }
        out.write("</tbody></table>\n")
        let left = reporter.templates.recordsLeftOut
        if left > 0 { out.write("<p>\(left) more record\(left == 1 ? "" : "s") in templates beyond the first \(reporter.templates.limits.templates), not grouped.</p>\n") }
        out.write("</section>\n")
    }
}
