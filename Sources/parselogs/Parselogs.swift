// The command line: flags, wiring the library's run to stdout, and the exit status.
import ArgumentParser
import UbiquityLogKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(CMimalloc)
// Imported for its link: the process allocates through mimalloc (see Package.swift).
import CMimalloc
#endif

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, jsonl, json, markdown, github, junit, html
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

/// Exit statuses, as documented in the README (Exit status) and --help.
enum Status {
    static let clean: Int32 = 0
    static let findings: Int32 = 1
    static let trouble: Int32 = 2
    // Ctrl-C (or SIGTERM, SIGHUP), after the summary of what was read: the process ends by
    // that signal (see `Interruption.endBySignal`), which a shell reports as 128 + its number.
}

struct OutputOptions: ParsableArguments {
    @Flag(name: .short, help: "Show more: -v every event, -vv routine messages, -vvv raw records.")
    var verbose: Int

    @Flag(name: .shortAndLong, help: "Print the summary only.")
    var quiet = false

    @Flag(name: .customShort("U"), help: "Do not warn about unhandled ubiquity records.")
    var hideUnhandled = false

    @Option(help: ArgumentHelp(
        "Output format: text (timeline and summary), jsonl (a JSON object per record, then the summary), json (the summary object), markdown (the summary), github (Actions annotations), junit (JUnit XML), html (a page with the timeline).",
        valueName: "format"))
    var format: OutputFormat = .text

    @Option(help: "Colour the text output: auto, always or never.")
    var color: ColorChoice = .auto

    @Flag(help: "Instead of the timeline, report the ubiquity records no rule recognises, grouped into templates, most frequent first.")
    var unhandled = false

    @Flag(help: "Flush the output after every line, also when it is not a terminal.")
    var lineBuffered = false

    @Flag(help: "Do not show the progress of reading a large file on standard error (shown only on a terminal).")
    var noProgress = false
}

extension InputFormat: ExpressibleByArgument {}

struct FilterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Show only events of these kinds (comma-separated ids).", valueName: "kinds"))
    var kind: String?

    @Option(help: ArgumentHelp("Show only events of these categories (comma-separated).", valueName: "categories"))
    var category: String?

    @Option(help: ArgumentHelp("Show only records whose text matches this PCRE2 pattern.", valueName: "pattern"))
    var grep: String?

    @Option(help: ArgumentHelp("Read only records at or after this time (2014-03-02, 2014-03-02 09:14, 2014-03-02 09:14:07.318).", valueName: "time"))
    var since: String?

    @Option(help: ArgumentHelp("Read only records at or before this time.", valueName: "time"))
    var until: String?

    @Option(name: .customLong("process"), help: ArgumentHelp(
        "Read only records of this process (repeatable); a record whose header names none belongs to the one before it. Named system daemons are judged too.",
        valueName: "name"))
    var processes: [String] = []
}

struct Parselogs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parselogs",
        abstract: "Tell what happened to a Core Data iCloud store, from its verbose ubiquity logs.",
        discussion: """
        Reads logs from the files named, or from standard input when none is named or for -.
        Groups lines into records, recognises Core Data's ubiquity messages and \
        UbiquityStoreManager's, prints a timeline of the notable ones and a summary: store \
        loads, transactions exported and imported, import failures, corruption reports.

        Verbosity:
          -q     the summary only
          (none) loads, switches, failures, corruption, a line per import/export
          -v     every recognised event; objects exported and imported (+ * -)
          -vv    also routine messages and the full text of unhandled records
          -vvv   also each raw record before its interpretation

        Exit status, the same rule in every format (the summary's Outcome line): 0 the run \
        passes --fail-on (by default: the verdict is healthy); 1 it fails (by default: the \
        verdict is degraded, no evidence, unknown or broken); 2 a usage error, an unreadable \
        input (the other inputs are still read) or output that could not be written; 130 \
        interrupted by Ctrl-C (the summary so far is printed, then the process ends by SIGINT; \
        SIGTERM and SIGHUP likewise).

        Colour: on when standard output is a terminal and NO_COLOR is not set; --color always \
        or never overrides both.

        Examples:
          parselogs device.log
          parselogs -v iphone.log ipad.log
          idevicesyslog | parselogs -U --process Journal
          parselogs --format jsonl device.log | jq 'select(.severity == "error")'
          parselogs --fail-on corruption,import-failed --format github device.log
          parselogs explain import-failed     # what an event kind means and what to do
          parselogs explain 134302            # a Core Data error code
          parselogs --unhandled device.log    # what the catalogue does not recognise yet
        """,
        version: parselogsVersion
    )

    @Argument(help: ArgumentHelp("Log files to read; - (or nothing) reads standard input.", valueName: "file"))
    var inputs: [String] = []

    @OptionGroup(title: "Output")
    var output: OutputOptions

    @OptionGroup(title: "Filters")
    var filters: FilterOptions

    @Option(help: ArgumentHelp(
        "How lines become records: auto (detected per input), nslog, syslog, logshow (text in those header styles), ndjson (log show --style ndjson).",
        valueName: "format"))
    var inputFormat: InputFormat = .auto

    @Option(name: .customLong("fail-on"), help: ArgumentHelp(
        "Exit with 1 when the verdict is this one or worse, in the order degraded, no-evidence, unknown, broken; or when an event matches a severity (error, warning, info, debug: that severity or higher), a category or a kind id; or none. Comma-separated.",
        valueName: "list"))
    var failOn = FailOn.defaultText

    func validate() throws {
        if output.quiet && output.verbose > 0 { throw ValidationError("-q and -v contradict each other; use one.") }
        if output.quiet && output.format == .jsonl {
            throw ValidationError("-q prints the summary only, and --format jsonl is an object per record; for the summary object alone use --format json.")
        }
        if output.unhandled && (output.format != .text || output.quiet) {
            throw ValidationError("--unhandled prints its own report; leave out --format and -q.")
        }
        if let catalog = try? Catalog.standard() {
            do { _ = try FailOn(parsing: failOn, catalog: catalog) } catch { throw ValidationError("--fail-on: \(error)") }
            let kindIDs = Set(catalog.kinds.map(\.id))
            for kind in list(filters.kind) where !kindIDs.contains(kind) {
                throw ValidationError("--kind: '\(kind)' is not an event kind (`parselogs explain` lists them)")
            }
        }
        for category in list(filters.category) where Category(rawValue: category) == nil {
            throw ValidationError("--category: '\(category)' is not one of \(Category.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        for (flag, value) in [("--since", filters.since), ("--until", filters.until)] {
            if let value, LogTime(parsing: value) == nil {
                throw ValidationError("\(flag): '\(value)' is not a time like 2014-03-02, 2014-03-02 09:14 or 2014-03-02 09:14:07.318 (a day that exists, hours 00-23, minutes 00-59)")
            }
        }
        if let since = filters.since.flatMap(LogTime.init(parsing:)), let until = filters.until.flatMap(LogTime.init(parsingEndOf:)),
           since > until {
            // The window would hold nothing: every record would be passed over without a word.
            throw ValidationError("--since \(filters.since ?? "") is after --until \(filters.until ?? ""): the window is empty; swap them")
        }
        if let pattern = filters.grep {
            do { _ = try DisplayFilter(grep: pattern) } catch { throw ValidationError("--grep: \(error)") }
        }
    }

    func run() throws {
        Interruption.install()
        let catalog: Catalog
        let failure: FailOn
        do {
            catalog = try Catalog.standard()
            failure = try FailOn(parsing: failOn, catalog: catalog)
        } catch {
            printError("parselogs: internal error: \(error)")
            throw ExitCode(Status.trouble)
        }

        let isTerminal = OutputWriter.isTerminal(1)
        let out = OutputWriter(descriptor: 1, lineBuffered: isTerminal || output.lineBuffered)
        // Log text printed in a CI step must command nothing there, in any format (the GitHub
        // format guards its own lines; JUnit and Markdown escape in their own syntax).
        switch output.format {
        case .text: out.workflowCommands = .inertText
        case .jsonl, .json: out.workflowCommands = .inertJSON
        case .markdown, .junit, .github, .html: break
        }
        let chosenReporter = reporter(out, isTerminal: isTerminal)
        let run = LogRun(catalog: catalog, reporters: [chosenReporter])
        if let threads = try pipelineThreads() { run.usesThreads = threads > 1 }
        run.shouldStop = { out.isClosed }
        run.filter = try displayFilter()
        run.inputFormat = inputFormat
        run.since = filters.since.flatMap(LogTime.init(parsing:))
        run.until = filters.until.flatMap(LogTime.init(parsingEndOf:))
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
                    try run.process(&watched, name: source.name)
                } else {
                    try run.process(&source, name: source.name)
                }
            } catch {
                printError("parselogs: \(error)")
                troubled = true
            }
        }
        let summary = run.finish()
        out.flush()
        if let reason = out.failureDescription {
            printError("parselogs: write error: \(reason)")
            troubled = true
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

    /// `PARSELOGS_THREADS=1` runs the whole pipeline on the caller's thread, `3` on three (one
    /// a stage); unset, the library's choice. For measuring what the threads give
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

    private func reporter(_ out: OutputWriter, isTerminal: Bool) -> Reporter {
        if output.unhandled { return UnhandledReporter(output: out) }
        let text = TextOptions(verbosity: output.quiet ? -1 : min(output.verbose, 3), showUnhandled: !output.hideUnhandled,
                               color: useColor(isTerminal: isTerminal), showInputNames: inputs.count > 1)
        switch output.format {
        case .text: return TextReporter(output: out, options: text)
        case .jsonl: return JSONLinesReporter(output: out, tool: "parselogs \(parselogsVersion)")
        case .json: return JSONSummaryReporter(output: out)
        case .markdown: return MarkdownReporter(output: out)
        case .junit: return JUnitReporter(output: out)
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

/// Tells the file arguments from the options and their values, as ArgumentParser would.
enum FileArguments {
    /// Options that take a value as the next argument (`--format jsonl`); `--format=jsonl` is
    /// one argument. CommandLineTests checks that every option --help shows with a value is here.
    static let valueOptions: Set<String> = [
        "--format", "--color", "--kind", "--category", "--grep", "--since", "--until", "--process",
        "--input-format", "--fail-on", "--generate-completion-script",
    ]

    /// The arguments for the parser (options, their values, and `--` when files follow it),
    /// and the file arguments in order. `-` is a file (standard input); after `--` everything is.
    static func separate(_ arguments: [String]) -> (options: [String], files: [String]) {
        var options: [String] = []
        var files: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                files += arguments[index...]
                break
            }
            if argument.hasPrefix("-"), argument != "-" {
                options.append(argument)
                if valueOptions.contains(argument), index < arguments.count {
                    options.append(arguments[index])
                    index += 1
                }
            } else {
                files.append(argument)
            }
        }
        return (options, files)
    }
}

/// The command line's arguments as the bytes the shell passed. `CommandLine.arguments` (and so
/// the parsed file names) turn bytes that are not UTF-8 into U+FFFD, and a file named
/// `caf\xE9.log` could not be opened by that name.
struct RawArguments {
    /// For each argument that is not UTF-8: its bytes, by the lossy text the parser saw, in
    /// command-line order (two such names can read alike).
    private var byLossyText: [String: [[UInt8]]] = [:]

    init(argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = CommandLine.unsafeArgv, count: Int = Int(CommandLine.argc)) {
        for index in 1..<max(1, count) {
            guard let argument = argv[index] else { continue }
            let bytes = Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
            if String(validating: bytes, as: UTF8.self) == nil {
                byLossyText[String(decoding: bytes, as: UTF8.self), default: []].append(bytes)
            }
        }
    }

    /// The bytes to open for a parsed file name, and the name to show in messages (bytes that
    /// are not UTF-8 as `\xNN`, the way the output shows them).
    mutating func bytes(of name: String) -> (bytes: [UInt8], display: String) {
        guard var candidates = byLossyText[name], !candidates.isEmpty else { return (Array(name.utf8), name) }
        let bytes = candidates.removeFirst()
        byLossyText[name] = candidates
        return (bytes, RawArguments.display(bytes))
    }

    static func display(_ bytes: [UInt8]) -> String {
        var text = ""
        var rest = bytes[...]
        while !rest.isEmpty {
            // The longest valid UTF-8 prefix as text, then one byte escaped.
            var valid = rest.count
            while valid > 0, String(validating: rest.prefix(valid), as: UTF8.self) == nil { valid -= 1 }
            text += String(decoding: rest.prefix(valid), as: UTF8.self)
            rest = rest.dropFirst(valid)
            if let byte = rest.first {
                let hex = String(byte, radix: 16, uppercase: true)
                text += "\\x" + (hex.count == 1 ? "0" : "") + hex
                rest = rest.dropFirst()
            }
        }
        return text
    }
}

/// A message on standard error, as one line, written at once (it is not buffered with the
/// output). Messages quote file names and option values, which come from outside: the whole
/// line is escaped (`StreamEscaping.line`), so that no name can move the cursor, start a
/// line of its own or issue a CI workflow command.
func printError(_ message: String) {
    printErrorLines(StreamEscaping.line(message))
}

/// Text of the program's own (usage) on standard error, as it is.
func printErrorLines(_ text: String) {
    let errors = OutputWriter(descriptor: 2, capacity: 4096, lineBuffered: true)
    errors.line(text)
}

/// Writes `text` to standard output and ends the process: status 0, or 2 when it could not
/// be written (a closed or full output; a reader that went away is a quiet end).
func printAndExit(_ text: String) -> Never {
    let out = OutputWriter(descriptor: 1)
    out.write(text)
    out.flush()
    if let reason = out.failureDescription {
        printError("parselogs: write error: \(reason)")
        exit(Status.trouble)
    }
    exit(Status.clean)
}

/// Standard output and error, when the parent closed them (`>&-`), are given a descriptor
/// that takes no writes (/dev/null, read-only): writing then fails with EBADF, as to the
/// closed descriptor, and no file this run opens can take their number and receive output.
func holdClosedStandardDescriptors() {
    for descriptor: Int32 in [1, 2] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
        let placeholder = open("/dev/null", O_RDONLY)
        guard placeholder >= 0 else { continue }
        if placeholder != descriptor {
            dup2(placeholder, descriptor)
            close(placeholder)
        }
    }
}

/// `parselogs explain [KIND | CODE]`: read before the flags, so that the main command keeps
/// its plain `parselogs [options] [file ...]` form (a file named `explain` is `./explain`).
enum Explain {
    static let usage = """
        USAGE: parselogs explain [KIND | CODE]
               parselogs explain --list [--format text|markdown]

        Explains an event kind (what it means, what normally happens next, what to do), a Core
        Data error code (134302, 134080, ...), or with no argument (or --list) lists every kind
        by category. --format markdown prints the list as the Markdown page docs/event-kinds.md.
        """

    static func run(_ arguments: ArraySlice<String>) -> Int32 {
        if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) {
            printAndExit(usage + "\n")
        }
        var list = false
        var markdown = false
        var topics: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--list": list = true
            case "--format":
                switch rest.popFirst() {
                case "text": markdown = false
                case "markdown": markdown = true
                case let other:
                    printError("parselogs explain: --format takes text or markdown\(other.map { ", not '\($0)'" } ?? "")")
                    printErrorLines("\n\(usage)")
                    return Status.trouble
                }
            default: topics.append(argument)
            }
        }
        guard topics.count <= 1, !(list && !topics.isEmpty) else {
            printError("parselogs explain: give one kind or error code at most, or --list")
            printErrorLines("\n\(usage)")
            return Status.trouble
        }
        if markdown && !topics.isEmpty {
            printError("parselogs explain: --format markdown is for the list (--list)")
            printErrorLines("\n\(usage)")
            return Status.trouble
        }
        do {
            let catalog = try Catalog.standard()
            printAndExit(markdown ? Explanation.markdown(catalog) : try Explanation.text(for: topics.first, catalog: catalog))
        } catch {
            printError("parselogs explain: \(error)")
            return Status.trouble
        }
    }
}

@main
enum Main {
    static func main() {
        holdClosedStandardDescriptors()
        signal(SIGPIPE, SIG_IGN)  // a closed pipe becomes EPIPE on write, which ends the run quietly
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "explain" { exit(Explain.run(arguments.dropFirst())) }
        do {
            // ArgumentParser removes each parsed argument from an array, which costs time
            // quadratic in their number (a glob of tens of thousands of files): the file
            // names are set aside first, and it parses the options alone.
            let (options, files) = FileArguments.separate(Array(arguments))
            var command = try Parselogs.parse(options)
            command.inputs = files
            try command.run()
        } catch let status as ExitCode {
            // The run's own status, with its messages already printed: asking the parser for
            // a message would lay out the whole help text to find there is none.
            exit(status.rawValue)
        } catch {
            let code = Parselogs.exitCode(for: error)
            if code == .success {
                // --help, --version: the text goes to stdout, and a failure to write it counts.
                printAndExit(Parselogs.fullMessage(for: error) + "\n")
            }
            // The parser's message quotes what was given (an unknown option, a value): that
            // part is escaped; the usage lines around it are the program's own.
            let full = Parselogs.fullMessage(for: error)
            let quoted = Parselogs.message(for: error)
            if !quoted.isEmpty, full.contains(quoted) {
                printErrorLines(full.replacing(quoted, with: StreamEscaping.line(quoted)))
            } else if !full.isEmpty {
                printError(full)
            }
            // Usage errors are status 2, like other trouble, not the parser's 64.
            exit(code == .validationFailure ? Status.trouble : code.rawValue)
        }
    }
}
