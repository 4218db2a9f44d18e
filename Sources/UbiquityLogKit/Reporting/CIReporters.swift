// Reporters for CI systems: a Markdown summary, GitHub Actions annotations, JUnit XML.
// All are end-of-run reporters but GitHub's, which streams the text timeline (with workflow
// commands switched off around it) and annotates the findings at the end.

/// `--format markdown`: the summary as Markdown, as a CI job summary shows it.
public final class MarkdownReporter: Reporter {
    private let out: OutputWriter
    public init(output: OutputWriter) { self.out = output }
    public func report(_ item: ClassifiedRecord) {}
    public func readsFacts(of kind: EventKind) -> Bool { false }
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

    static func fullText(_ summary: RunSummary) -> String {
        var lines = ["## parselogs: \(MarkdownEscaping.text(SummaryText.result(summary)))", "", "| | |", "|---|---|"]
        for row in SummaryText.rows(summary) {
            lines.append("| \(MarkdownEscaping.text(row.label)) | \(MarkdownEscaping.text(row.value)) |")
        }
        if !summary.findings.isEmpty {
            lines += ["", "### Findings", "", "| where | kind | what |", "|---|---|---|"]
            for finding in summary.findings.prefix(maxListed) {
                lines.append("| \(MarkdownEscaping.code("\(finding.input):\(finding.line)")) | \(MarkdownEscaping.code(finding.kind.id)) | \(MarkdownEscaping.text(finding.message)) |")
            }
            let more = summary.errors + summary.warnings - min(summary.findings.count, maxListed)
            if more > 0 { lines += ["", "… and \(more) more."] }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `--format github`: the text timeline with workflow commands stopped around it (log text
/// can never issue a command), then an `::error` or `::warning` annotation per finding, and
/// the Markdown summary appended to `$GITHUB_STEP_SUMMARY` when that is set.
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

    public func beginInput(_ name: String) { start(); timeline.beginInput(name) }
    public func report(_ item: ClassifiedRecord) { start(); timeline.report(item) }
    public func readsFacts(of kind: EventKind) -> Bool { timeline.readsFacts(of: kind) }
    public func flush() { timeline.flush() }

    public func finish(_ summary: RunSummary) {
        start()
        timeline.finish(summary)
        out.workflowCommands = .passed
        out.line("::\(token)::")
        for finding in summary.findings {
            let command = finding.kind.severity == .error ? "error" : "warning"
            let properties = "file=\(GitHubEscaping.property(finding.input)),line=\(finding.line),title=\(GitHubEscaping.property("parselogs: \(finding.kind.id)"))"
            out.line("::\(command) \(properties)::\(GitHubEscaping.message(finding.message))")
        }
        out.flush()
        if let stepSummaryPath, !stepSummaryPath.isEmpty {
            stepSummaryFailure = appendFile(stepSummaryPath, MarkdownSummary.text(summary))
        }
    }
}

/// `--format junit`: one test suite per input, one test case per finding (errors fail,
/// warnings pass with their text), and a passing case for an input with no findings.
public final class JUnitReporter: Reporter {
    private let out: OutputWriter
    public init(output: OutputWriter) { self.out = output }
    public func report(_ item: ClassifiedRecord) {}
    public func readsFacts(of kind: EventKind) -> Bool { false }

    public func finish(_ summary: RunSummary) {
        let byInput = Dictionary(grouping: summary.findings, by: \.input)
        let failures = summary.findings.filter { $0.kind.severity == .error }.count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="parselogs" tests="\#(max(summary.findings.count, summary.inputs.count))" failures="\#(failures)">"# + "\n"
        for input in summary.inputs {
            let findings = byInput[input] ?? []
            let inputFailures = findings.filter { $0.kind.severity == .error }.count
            xml += #"  <testsuite name="\#(XML.escape(input))" tests="\#(max(findings.count, 1))" failures="\#(inputFailures)">"# + "\n"
            if findings.isEmpty {
                xml += #"    <testcase classname="parselogs" name="no errors or warnings"/>"# + "\n"
            }
            for finding in findings {
                let name = XML.escape("\(finding.kind.id) at line \(finding.line)")
                let classname = XML.escape("parselogs.\(finding.kind.category.rawValue)")
                let message = XML.escape(finding.message)
                if finding.kind.severity == .error {
                    xml += #"    <testcase classname="\#(classname)" name="\#(name)"><failure type="\#(finding.kind.id)" message="\#(message)">\#(XML.escape(finding.input)):\#(finding.line): \#(message)</failure></testcase>"# + "\n"
                } else {
                    xml += #"    <testcase classname="\#(classname)" name="\#(name)"><system-out>\#(XML.escape(finding.input)):\#(finding.line): \#(message)</system-out></testcase>"# + "\n"
                }
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
        return result.contains("##[") ? result.replacing("##[", with: "&#35;#[") : result
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
