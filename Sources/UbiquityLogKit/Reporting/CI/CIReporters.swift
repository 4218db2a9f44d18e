// Reporters for CI systems: a Markdown summary, GitHub Actions annotations, JUnit XML.
// All are end-of-run reporters but GitHub's, which streams the text timeline (with workflow
// commands switched off around it) and annotates the findings at the end.

/// `--format markdown`: the summary as Markdown, as a CI job summary shows it.
public final class MarkdownReporter: Reporter {
    private let out: OutputWriter
    public init(output: OutputWriter) { self.out = output }
    public func report(_ item: ClassifiedRecord) {}
    public var readsRecords: Bool { false }
    public func readsFacts(of kind: EventKind) -> Bool { false }
    public func readsDetails(of kind: EventKind) -> Bool { false }
    public func finish(_ summary: RunSummary) {
        out.write(MarkdownSummary.text(summary))
        out.flush()
    }
}

public enum MarkdownSummary {
    /// Findings listed at most; the count says how many more there were.
    static let maxListed = 50

    /// Bytes of Markdown at most: GitHub takes 1 MiB per step summary, and a larger one is
    /// not shown at all.
    public static let maxBytes = 1 << 20

    public static func text(_ summary: RunSummary) -> String {
        capped(fullText(summary), maxBytes: maxBytes)
    }

    /// `text` whole, or cut at a line end so that it and a last line saying what was cut
    /// fit in `maxBytes`.
    static func capped(_ text: String, maxBytes: Int) -> String {
        let size = text.utf8.count
        guard size > maxBytes else { return text }
        let note = "\n… summary cut here: it holds \(size) bytes, more than the \(maxBytes) a step summary may hold.\n"
        let room = max(0, maxBytes - note.utf8.count)
        let bytes = Array(text.utf8.prefix(room))
        let end = bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        return String(decoding: bytes[..<end], as: UTF8.self) + note
    }

    /// The verdict first (what a job summary's reader wants), whether the run fails and why,
    /// the incidents with what to do about each, then the counts and the findings.
    static func fullText(_ summary: RunSummary) -> String {
        var lines = ["## parselogs: \(MarkdownEscaping.text(summary.verdictSentence))", ""]
        if let outcome = summary.outcome {
            lines += ["**\(outcome.fails ? "Fails" : "Passes")** the run: \(MarkdownEscaping.text(outcome.fails ? outcome.reasons.joined(separator: "; ") : "nothing matches --fail-on \(outcome.failOn)"))", ""]
        }
        let verdictLines = SummaryText.verdictLines(summary).dropFirst()
        if !verdictLines.isEmpty {
            lines += verdictLines.map { line in
                let depth = line.prefix { $0 == " " }.count / 2
                return String(repeating: "  ", count: max(0, depth - 1)) + "- " + MarkdownEscaping.text(line.trimmingCharacters(in: " "))
            }
            lines.append("")
        }
        for family in summary.families { lines += family.story.markdownSections(in: summary, listing: maxListed) }
        lines += ["### Summary", "", "| | |", "|---|---|"]
        for row in SummaryText.rows(summary) {
            lines.append("| \(MarkdownEscaping.text(row.label)) | \(MarkdownEscaping.text(row.value)) |")
        }
        lines.append("| result | \(MarkdownEscaping.text(SummaryText.result(summary))) |")
        if !summary.findings.isEmpty {
            lines += ["", "### Findings", "", "| where | kind | what |", "|---|---|---|"]
            for finding in summary.findings.prefix(maxListed) {
                let process = summary.namesProcesses ? " " + ProcessSummary.name(finding.process, pids: finding.pid.map { [$0] } ?? []) : ""
                lines.append("| \(MarkdownEscaping.code("\(finding.input):\(finding.line)\(process)")) | \(MarkdownEscaping.code(finding.kind.id)) | \(MarkdownEscaping.text(finding.message)) |")
            }
            let more = summary.errors + summary.warnings - min(summary.findings.count, maxListed)
            if more > 0 { lines += ["", "… and \(more) more."] }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `--format github`: the text timeline with workflow commands stopped around it (log text
/// can never issue a command), then annotations, and the Markdown summary appended to
/// `$GITHUB_STEP_SUMMARY` when that is set. Each finding is an `::error`, `::warning` or
/// `::notice` by its severity, at its file and line; everything that fails the run is an
/// `::error` whose title ends `(fails the run)` (see `CIFindings`).
public final class GitHubReporter: Reporter {
    private let out: OutputWriter
    private let timeline: TextReporter
    private let token: String
    private let stepSummaryPath: String?
    private var started = false
    /// Why the step summary could not be written, when it could not.
    public private(set) var stepSummaryFailure: String?

    public init(output: OutputWriter, options: TextOptions, stopToken: String, stepSummaryPath: String?) {
        self.out = output
        self.timeline = TextReporter(output: output, options: options)
        self.token = stopToken
        self.stepSummaryPath = stepSummaryPath
    }

    private func start() {
        guard !started else { return }
        started = true
        out.line("::stop-commands::\(token)")
        out.workflowCommands = .inertText
    }

    private var firstRecords = FirstRecords()

    public func beginInput(_ name: String) { start(); timeline.beginInput(name) }
    public func report(_ item: ClassifiedRecord) {
        start()
        timeline.report(item)
        firstRecords.note(item)
    }
    public func readsFacts(of kind: EventKind) -> Bool { timeline.readsFacts(of: kind) }
    public func readsDetails(of kind: EventKind) -> Bool { timeline.readsDetails(of: kind) }
    public func flush() { timeline.flush() }

    public func finish(_ summary: RunSummary) {
        start()
        timeline.finish(summary)
        out.workflowCommands = .passed
        out.line("::\(token)::")
        let outcome = summary.outcome ?? RunOutcome(failOn: "none")
        for item in CIFindings.items(summary, outcome: outcome, firstRecords: firstRecords) {
            var properties: [String] = []
            if let file = item.file { properties.append("file=\(GitHubEscaping.property(file))") }
            if let line = item.line { properties.append("line=\(line)") }
            properties.append("title=\(GitHubEscaping.property("parselogs: \(item.title)\(item.failsTheRun ? " (fails the run)" : "")"))")
            out.line("::\(item.level.github) \(properties.joined(separator: ","))::\(GitHubEscaping.message(item.message))")
        }
        out.flush()
        if let stepSummaryPath, !stepSummaryPath.isEmpty {
            stepSummaryFailure = appendFile(stepSummaryPath, MarkdownSummary.text(summary))
        }
    }
}

/// `--format junit`: failures are exactly what fails the run. A suite `parselogs` holds one
/// case for the run's verdict, and one per kind `--fail-on` names that keeps no findings (info
/// events). A suite per input holds a case for reading it (failing when it could not be read),
/// one for its evidence (failing when it holds no sync records and that fails the run), and a
/// case per finding, named by its kind (`import-failed`, then `import-failed #2`, …: no line
/// numbers, so that CI history lines up between runs): failing when the finding is part of what
/// fails the run (`RunOutcome.failingFindings`), passing with the finding as output otherwise.
public final class JUnitReporter: Reporter {
    private let out: OutputWriter
    public init(output: OutputWriter) { self.out = output }
    public func report(_ item: ClassifiedRecord) {}
    public var readsRecords: Bool { false }
    public func readsFacts(of kind: EventKind) -> Bool { false }
    public func readsDetails(of kind: EventKind) -> Bool { false }

    private struct Case {
        var classname: String
        var name: String
        var failure: (type: String, message: String)?
        var body: String
    }

    public func finish(_ summary: RunSummary) {
        let outcome = summary.outcome ?? RunOutcome(failOn: "none")
        var suites: [(name: String, cases: [Case])] = []
        let verdictText = SummaryText.verdictLines(summary).joined(separator: "\n")
        suites.append(("parselogs", [Case(classname: "parselogs", name: "verdict",
                                          failure: outcome.verdictFails ? ("verdict", "Verdict: \(summary.verdictSentence) (--fail-on \(outcome.failOn))") : nil,
                                          body: verdictText)]))
        let byInput = Dictionary(grouping: summary.findings.indices, by: { summary.findings[$0].input })
        let storesByInput = Dictionary(grouping: summary.systemStores.indices, by: { summary.systemStores[$0].input })
        let failingStores = Set(outcome.failingSystemStores)
        // By name: a run may read tens of thousands of inputs.
        let read = Set(summary.inputs)
        let inputs = summary.inputs + summary.unreadableInputs.map(\.input).filter { !read.contains($0) }
        let sentences = Dictionary(summary.verdicts.map { ($0.input, $0.sentence) }, uniquingKeysWith: { first, _ in first })
        let noEvidence = Set(outcome.noEvidenceInputs)
        let unreadable = Dictionary(summary.unreadableInputs.map { ($0.input, $0) }, uniquingKeysWith: { first, _ in first })
        for input in inputs {
            var cases: [Case] = []
            let failure = unreadable[input]
            cases.append(Case(classname: "parselogs.input", name: "read",
                              failure: failure.map { ("unreadable", "\(input): \($0.reason)") }, body: failure?.description ?? ""))
            if failure == nil {
                let sentence = sentences[input] ?? ""
                cases.append(Case(classname: "parselogs.input", name: "evidence",
                                  failure: noEvidence.contains(input) ? ("no-evidence", "\(input): \(sentence) (--fail-on \(outcome.failOn); --allow-no-evidence passes it)") : nil,
                                  body: sentence))
            }
            var seen: [String: Int] = [:]
            for index in byInput[input] ?? [] {
                let finding = summary.findings[index]
                let id = finding.kind.id
                seen[id, default: 0] += 1
                let name = seen[id] == 1 ? id : "\(id) #\(seen[id] ?? 0)"
                let body = "\(input):\(finding.line): \(finding.message)"
                cases.append(Case(classname: "parselogs.\(finding.kind.category.rawValue)", name: name,
                                  failure: outcome.failingFindings.contains(index) ? (id, finding.message) : nil, body: body))
            }
            // Each system framework's store, judged apart: failing when `--fail-on` names its records.
            var storeCount = 0
            for index in storesByInput[input] ?? [] {
                let store = summary.systemStores[index]
                storeCount += 1
                let id = EventKind.systemStore.id
                cases.append(Case(classname: "parselogs.\(EventKind.systemStore.category.rawValue)", name: storeCount == 1 ? id : "\(id) #\(storeCount)",
                                  failure: failingStores.contains(index) ? (id, store.sentence) : nil,
                                  body: store.report))
            }
            suites.append((input, cases))
        }
        // Kinds `--fail-on` names that keep no findings (info and debug events) still fail.
        let listed = Set(summary.findings.map(\.kind.id) + (summary.systemStores.isEmpty ? [] : [EventKind.systemStore.id]))
        let unlisted = outcome.failingKinds.filter { !listed.contains($0.key) }.sorted { $0.key < $1.key }
        if !unlisted.isEmpty {
            suites[0].cases += unlisted.map { Case(classname: "parselogs.events", name: $0.key, failure: ($0.key, "\($0.value) \($0.key) (--fail-on \(outcome.failOn))"), body: "") }
        }

        let total = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.cases.filter { $0.failure != nil }.count }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="parselogs" tests="\#(total)" failures="\#(failures)">"# + "\n"
        for suite in suites {
            let suiteFailures = suite.cases.filter { $0.failure != nil }.count
            xml += #"  <testsuite name="\#(XML.escape(suite.name))" tests="\#(suite.cases.count)" failures="\#(suiteFailures)">"# + "\n"
            for test in suite.cases {
                xml += #"    <testcase classname="\#(XML.escape(test.classname))" name="\#(XML.escape(test.name))">"#
                if let failure = test.failure {
                    xml += #"<failure type="\#(XML.escape(failure.type))" message="\#(XML.escape(failure.message))">\#(XML.escape(test.body))</failure>"#
                } else if !test.body.isEmpty {
                    xml += "<system-out>\(XML.escape(test.body))</system-out>"
                }
                xml += "</testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        out.write(xml)
        out.flush()
    }
}

enum XML {
    /// Text for an attribute or element: markup characters as entities; characters XML 1.0
    /// cannot hold (controls but tab and line ends, U+FFFE, U+FFFF) and those it discourages
    /// (DEL, C1 controls) as `\xNN` or `\u{NNNN}` text.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result += "&#\(scalar.value);"
            default:
                if scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                    result += ByteText.terminalSafe(String(scalar))
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        // `##[` (a workflow command to GitHub's runner, anywhere in a line of its log) with
        // its first `#` as a character reference, which XML readers read back as `#`.
        return GitHubEscaping.containsCommandMarks(result, colons: false) ? result.replacing("##[", with: "&#35;#[") : result
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends `text` to the file at `path` (creating it), as CI step summaries expect; why it
/// could not, or nil. Opened without waiting (O_NONBLOCK): a named pipe that nobody reads
/// is reported, rather than holding up the run for ever.
func appendFile(_ path: String, _ text: String) -> String? {
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o644)
    guard descriptor >= 0 else {
        let code = errno
        let place = StreamEscaping.line(path)
        switch code {
        case ENXIO: return "\(place): a named pipe that nobody reads"
        case EISDIR: return "\(place): is a directory"
        default: return "\(place): \(String(cString: strerror(code)))"
        }
    }
    defer { close(descriptor) }
    let writer = OutputWriter(descriptor: descriptor)
    writer.write(text)
    writer.flush()
    if let reason = writer.failureDescription { return "\(StreamEscaping.line(path)): write error: \(reason)" }
    if writer.isClosed { return "\(StreamEscaping.line(path)): its reader went away" }
    return nil
}
