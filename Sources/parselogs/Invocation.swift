// The run of the main command: its parsed values, checked, then the inputs read and the
// exit status. Either parser fills them in: ArgumentParser's (`Parselogs`) or, on the common
// command lines, the quick one (`QuickParse`), which `QuickParseTests` holds equal to it.
import ArgumentParser
import UbiquityLogKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The main command's values, as `Parselogs` declares them.
struct Invocation: Equatable {
    var inputs: [String] = []
    var output = OutputChoices()
    var filters = FilterChoices()
    var inputFormat: InputFormat = .auto
    var failOn = FailOn.defaultText
    var allowNoEvidence = false
}

/// `OutputOptions`' values.
struct OutputChoices: Equatable {
    var verbose = 0
    var quiet = false
    var hideUnhandled = false
    var format: OutputFormat = .text
    var report: [ReportFile] = []
    var color: ColorChoice = .auto
    var unhandled = false
    var lineBuffered = false
    var noProgress = false
}

/// `FilterOptions`' values.
struct FilterChoices: Equatable {
    var kind: String?
    var category: String?
    var grep: String?
    var since: String?
    var until: String?
    var last: String?
    var processes: [String] = []
}

extension OutputOptions {
    var choices: OutputChoices {
        OutputChoices(verbose: verbose, quiet: quiet, hideUnhandled: hideUnhandled, format: format, report: report, color: color,
                      unhandled: unhandled, lineBuffered: lineBuffered, noProgress: noProgress)
    }
}

extension FilterOptions {
    var choices: FilterChoices {
        FilterChoices(kind: kind, category: category, grep: grep, since: since, until: until, last: last, processes: processes)
    }
}

extension Invocation {
    func validate() throws {
        if output.quiet && output.verbose > 0 { throw ValidationError("-q and -v contradict each other; use one.") }
        if output.quiet && output.format == .jsonl {
            throw ValidationError("-q prints the summary only, and --format jsonl is an object per record; for the summary object alone use --format json.")
        }
        if output.unhandled && (output.format != .text || output.quiet || !output.report.isEmpty) {
            throw ValidationError("--unhandled prints its own report; leave out --format, --report and -q.")
        }
        var reportPaths = Set<String>()
        for report in output.report where !reportPaths.insert(report.path).inserted {
            throw ValidationError("--report: \(report.path) is named twice; give each report a file of its own")
        }
        if let catalog = try? Catalog.standard() {
            do { _ = try FailOn(parsing: failOn, catalog: catalog) } catch { throw ValidationError("--fail-on: \(error)") }
            if filters.kind != nil {
                let kindIDs = Set(catalog.kinds.map(\.id))
                for kind in list(filters.kind) where !kindIDs.contains(kind) {
                    throw ValidationError("--kind: '\(kind)' is not an event kind (`parselogs explain` lists them)")
                }
            }
        }
        for category in list(filters.category) where Category(rawValue: category) == nil {
            throw ValidationError("--category: '\(category)' is not one of \(Category.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        // An empty name matches no header: the run would read nothing and say only that.
        if filters.processes.contains(where: { $0.allSatisfy { $0 == " " || $0 == "\t" } }) {
            throw ValidationError("--process: the name is empty; give a process as the headers name it (--process Journal)")
        }
        try filters.validateTimes()
        if let pattern = filters.grep {
            do { _ = try DisplayFilter(grep: pattern) } catch { throw ValidationError("--grep: \(error)") }
        }
    }

    func run() throws {
        Interruption.install()
        let catalog: Catalog
        var failure: FailOn
        do {
            catalog = try Catalog.standard()
            failure = try FailOn(parsing: failOn, catalog: catalog)
            failure.allowsNoEvidence = allowNoEvidence
        } catch {
            printError("parselogs: internal error: \(error)")
            throw ExitCode(Status.trouble)
        }

        let isTerminal = OutputWriter.isTerminal(1)
        let out = OutputWriter(descriptor: 1, lineBuffered: isTerminal || output.lineBuffered)
        // Log text printed in a CI step must command nothing there, in any format (the GitHub
        // format guards its own lines; JUnit and Markdown escape in their own syntax).
        switch output.format {
        case .text, .xcode: out.workflowCommands = .inertText
        case .jsonl, .json, .sarif: out.workflowCommands = .inertJSON
        case .markdown, .junit, .github, .html: break
        }
        let chosenReporter = output.unhandled ? UnhandledReporter(output: out) : reporter(output.format, out, catalog: catalog, isTerminal: isTerminal)
        // Each --report file is opened (and emptied) before anything is read: a path that
        // cannot be written is a usage problem, found before a long run rather than after it.
        var reportFiles: [(report: ReportFile, descriptor: Int32, out: OutputWriter)] = []
        try refuseReportsOverInputs()
        for report in output.report {
            let descriptor = open(report.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                printError("parselogs: --report \(report.format.rawValue):\(report.path): \(String(cString: strerror(errno)))")
                throw ExitCode(Status.trouble)
            }
            reportFiles.append((report, descriptor, OutputWriter(descriptor: descriptor)))
        }
        defer { for file in reportFiles { close(file.descriptor) } }
        let reporters = [chosenReporter] + reportFiles.map { reporter($0.report.format, $0.out, catalog: catalog, isTerminal: false) }
        let run = LogRun(catalog: catalog, reporters: reporters)
        if let threads = try pipelineThreads() {
            run.usesThreads = threads > 1
            run.threadsAlways = threads > 1
        }
        run.shouldStop = { out.isClosed }
        run.filter = try displayFilter()
        run.inputFormat = inputFormat
        filters.setTimes(of: run)
        run.processes = Set(filters.processes)
        run.failOn = failure

        let names = inputs.isEmpty ? ["-"] : inputs
        if names.contains("-"), isatty(0) == 1 {
            printError("parselogs: reading standard input (end with Ctrl-D; --help for usage)")
        }
        var troubled = false
        var rawNames = RawArguments()
        for name in names where !out.isClosed && !Interruption.requested {
            do {
                // Each input is opened once and its first bytes sniffed on that descriptor, so that
                // a FIFO, a pipe or /dev/stdin loses nothing; gzip is decompressed wherever it is.
                var source: LogInput
                if name == "-" {
                    source = LogInput.standardInput()
                } else {
                    let path = rawNames.bytes(of: name)
                    source = try opened(run) { () throws(InputError) in try LogInput(path: path.bytes, name: path.display) }
                }
                defer { source.close() }
                if let progress = progress(for: source, stdoutIsTerminal: isTerminal) {
                    defer { progress.erase() }
                    var watched = ProgressSource(source, progress: progress)
                    try run.process(&watched, name: source.name, descriptor: source.isGzip ? nil : source.descriptor)
                } else {
                    try run.process(&source, name: source.name, descriptor: source.isGzip ? nil : source.descriptor)
                }
            } catch {
                printError("parselogs: \(error)")
                troubled = true
            }
        }
        let summary = run.finish()
        // The run's state and its summary go with the process, which ends when this returns:
        // freeing them object by object (every input's groups, findings and verdicts) would
        // cost some 5 K instructions an input in a run of 1,000 inputs.
        defer { keepUntilExit(run, summary) }
        out.flush()
        if let reason = out.failureDescription {
            printError("parselogs: write error: \(reason)")
            troubled = true
        }
        for file in reportFiles {
            file.out.flush()
            if let reason = file.out.failureDescription ?? (file.out.isClosed ? "its reader went away" : nil) {
                printError("parselogs: write error: --report \(file.report.path): \(reason)")
                troubled = true
            }
        }
        if let github = chosenReporter as? GitHubReporter, let problem = github.stepSummaryFailure {
            printError("parselogs: $GITHUB_STEP_SUMMARY: \(problem)")
            troubled = true
        }
        if let gaveUp = run.filter?.grepGaveUp, gaveUp > 0 {
            printError("parselogs: --grep: the pattern hit PCRE2's match limit on \(gaveUp) record\(gaveUp == 1 ? "" : "s"), shown unfiltered; simplify the pattern (less backtracking) to filter them")
        }
        Interruption.endBySignal()  // returns when no signal came
        // The outcome every format printed: 2 for an input that could not be read (or output
        // that could not be written), 1 for a run that fails --fail-on, 0 for one that passes.
        if troubled || !(summary.outcome?.unreadableInputs.isEmpty ?? true) { throw ExitCode(Status.trouble) }
        if out.isClosed { return }  // the reader went away (| head): nothing more to say
        if summary.outcome?.fails == true { throw ExitCode(Status.findings) }
    }

    /// A report is emptied when it is opened: one that names an input (by any path to the
    /// same file) would destroy the log before it is read.
    private func refuseReportsOverInputs() throws {
        for report in output.report {
            var reportFile = stat()
            guard stat(report.path, &reportFile) == 0 else { continue }
            for name in inputs where name != "-" {
                var inputFile = stat()
                guard stat(name, &inputFile) == 0, inputFile.st_dev == reportFile.st_dev, inputFile.st_ino == reportFile.st_ino else { continue }
                printError("parselogs: --report \(report.format.rawValue):\(report.path) is the input \(name); give the report a file of its own")
                throw ExitCode(Status.trouble)
            }
        }
    }

    /// `PARSELOGS_THREADS=1` runs the whole pipeline on the caller's thread, `3` on three (one
    /// a stage) for every input; unset, the library's choice (three, but the caller's thread
    /// for a small regular file, `LogRun.isSmall`, and in a process held to one processor). For measuring what the threads give
    /// (scripts/bench, docs/performance.md); the output is the same either way, so --help
    /// does not show it.
    private func pipelineThreads() throws -> Int? {
        guard let value = getenv("PARSELOGS_THREADS").map({ String(cString: $0) }), !value.isEmpty else { return nil }
        guard value == "1" || value == "3" else {
            printError("parselogs: PARSELOGS_THREADS=\(value): the pipeline runs on 1 thread or 3; set 1 or 3, or unset it")
            throw ExitCode(Status.trouble)
        }
        return Int(value)
    }

    /// Opens an input; a failure is recorded in the run (for the summary) and passed on.
    private func opened<Source: ByteSource>(_ run: LogRun, _ open: () throws(InputError) -> Source) throws(InputError) -> Source {
        do {
            return try open()
        } catch {
            run.failed(error)
            throw error
        }
    }

    private func reporter(_ format: OutputFormat, _ out: OutputWriter, catalog: Catalog, isTerminal: Bool) -> Reporter {
        let text = TextOptions(verbosity: output.quiet ? -1 : min(output.verbose, 3), showUnhandled: !output.hideUnhandled,
                               color: useColor(isTerminal: isTerminal), showInputNames: inputs.count > 1)
        switch format {
        case .text: return TextReporter(output: out, options: text)
        case .jsonl: return JSONLinesReporter(output: out, tool: "parselogs \(parselogsVersion)")
        case .json: return JSONSummaryReporter(output: out)
        case .markdown: return MarkdownReporter(output: out)
        case .junit: return JUnitReporter(output: out)
        case .xcode: return XcodeReporter(output: out)
        case .sarif: return SARIFReporter(output: out, catalog: catalog, version: parselogsVersion)
        case .html: return HTMLReporter(output: out, tool: "parselogs \(parselogsVersion)")
        case .github:
            var plain = text
            plain.color = false
            let summaryPath = getenv("GITHUB_STEP_SUMMARY").map { String(cString: $0) }
            return GitHubReporter(output: out, options: plain, stopToken: GitHubEscaping.stopToken(), stepSummaryPath: summaryPath)
        }
    }

    private func displayFilter() throws -> DisplayFilter? {
        guard filters.kind != nil || filters.category != nil || filters.grep != nil else { return nil }
        do {
            return try DisplayFilter(kinds: filters.kind.map { Set(list($0)) },
                                     categories: filters.category.map { Set(list($0).compactMap(Category.init(rawValue:))) },
                                     grep: filters.grep)
        } catch {
            throw ValidationError("--grep: \(error)")
        }
    }

    private func list(_ text: String?) -> [String] {
        text.map { $0.split(separator: ",").map { String($0).replacing(" ", with: "") } } ?? []
    }

    private func useColor(isTerminal: Bool) -> Bool {
        switch output.color {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
            if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
            return isTerminal
        }
    }
}

/// Holds `run` and `summary` until the process ends (see `Invocation.run`): everything
/// written is flushed before, and nothing reads them after.
private func keepUntilExit(_ run: LogRun, _ summary: RunSummary) {
    final class Kept {
        let run: LogRun
        let summary: RunSummary
        init(_ run: LogRun, _ summary: RunSummary) { (self.run, self.summary) = (run, summary) }
    }
    keptUntilExit = Kept(run, summary)
}

/// What `keepUntilExit` holds: a global, so that a leak checker at exit (`scripts/test-asan`)
/// finds it still reachable, as it is. Set once, on the main thread, as the run ends.
nonisolated(unsafe) private var keptUntilExit: AnyObject?
