// The command line: the flags as ArgumentParser declares them (--help, the man page, the completion
// scripts and usage errors come from these), file arguments, messages, and `Main`, which runs an
// `Invocation` (Invocation.swift).
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
    case text, jsonl, json, markdown, github, junit, xcode, sarif, html
}

/// `--report FORMAT:PATH`: a report written to a file beside standard output's format.
struct ReportFile: ExpressibleByArgument, Equatable {
    var format: OutputFormat
    var path: String

    init?(argument: String) {
        guard let colon = argument.firstIndex(of: ":"), let format = OutputFormat(rawValue: String(argument[..<colon])),
              format != .github else { return nil }
        let path = String(argument[argument.index(after: colon)...])
        guard !path.isEmpty else { return nil }
        self.format = format
        self.path = path
    }

    static var allValueStrings: [String] { OutputFormat.allCases.filter { $0 != .github }.map { "\($0.rawValue):" } }
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

    @Flag(name: .customShort("U"), help: "Do not warn about sync records no rule recognises (ubiquity or CloudKit); they are still counted.")
    var hideUnhandled = false

    @Option(help: ArgumentHelp(
        "Output format: text (timeline and summary), jsonl (a JSON object per record, then the summary), json (the summary object), markdown (the summary), github (Actions annotations), junit (JUnit XML), xcode (path:line: error: message diagnostics), sarif (SARIF 2.1.0, for code scanning), html (a page with the timeline).",
        valueName: "format"))
    var format: OutputFormat = .text

    @Option(help: ArgumentHelp(
        "Also write a report in this format to this file (repeatable), e.g. junit:parselogs.xml; any format but github.",
        valueName: "format:path"))
    var report: [ReportFile] = []

    @Option(help: "Colour the text output: auto, always or never.")
    var color: ColorChoice = .auto

    @Flag(help: "Instead of the timeline, report the sync records (ubiquity or CloudKit) no rule recognises, grouped into templates, most frequent first.")
    var unhandled = false

    @Flag(help: "Flush the output after every line, also when it is not a terminal.")
    var lineBuffered = false

    @Flag(help: "Do not show the progress of reading a large file on standard error (shown only on a terminal).")
    var noProgress = false
}

extension InputFormat: ExpressibleByArgument {}

struct FilterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Show only events of these kinds (comma-separated ids).", valueName: "kinds"), completion: .list(CompletionValues.kinds))
    var kind: String?

    @Option(help: ArgumentHelp("Show only events of these categories (comma-separated).", valueName: "categories"), completion: .list(CompletionValues.categories))
    var category: String?

    @Option(help: ArgumentHelp("Show only records whose text matches this PCRE2 pattern.", valueName: "pattern"))
    var grep: String?

    @Option(help: ArgumentHelp("Read only records at or after this time (2014-03-02, 2014-03-02 09:14, 2014-03-02 09:14:07.318, a header's 2016-09-30 10:01:02.123456+0200, or 09:14 on the log's day).", valueName: "time"))
    var since: String?

    @Option(help: ArgumentHelp("Read only records at or before this time.", valueName: "time"))
    var until: String?

    @Option(help: ArgumentHelp("Read only records within this span before each input's last record (30m, 2h, 90s, 1d, 1h30m; not with --since or --until).", valueName: "duration"))
    var last: String?

    @Option(name: .customLong("process"), help: ArgumentHelp(
        "Read only records of this process (repeatable); a record whose header names none belongs to the one before it. Named system daemons are judged too.",
        valueName: "name"))
    var processes: [String] = []
}

struct Parselogs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parselogs",
        abstract: "Tell what happened to a Core Data sync store, iCloud ubiquity or CloudKit mirroring, from its logs.",
        usage: """
        parselogs [<options>] [<file> ...]
        parselogs explain [<kind> | <code> | --list]
        """,
        discussion: """
        Reads logs from the files named, or from standard input when none is named or for -.
        Groups lines into records and recognises the records of Core Data's sync: iCloud \
        ubiquity stores (Core Data's ubiquity messages, UbiquityStoreManager's) and CloudKit \
        mirroring (NSPersistentCloudKitContainer, SwiftData). Prints a timeline of the notable \
        ones and a summary: store loads, imports and exports, failures and their causes, \
        corruption, then a verdict. `parselogs explain` (or `parselogs help explain`) explains \
        an event kind or an error code; a file named explain or help is ./explain, ./help.

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

        Shell completion: parselogs --generate-completion-script bash|zsh|fish prints a \
        completion script (file names, explain and its kinds, the values of --format, --kind, \
        --category and --fail-on); scripts/install puts them under PREFIX/share.

        Environment:
          NO_COLOR   set and not empty: no colour with --color auto (nor with TERM=dumb)
          GITHUB_STEP_SUMMARY   --format github appends the Markdown summary to it
          PARSELOGS_THREADS   1 or 3: the pipeline's threads (for measuring only)

        Examples:
          parselogs device.log
          parselogs -v iphone.log ipad.log
          idevicesyslog | parselogs -U --process Journal
          parselogs --format jsonl device.log | jq 'select(.severity == "error")'
          parselogs --fail-on corruption,import-failed --format github device.log
          parselogs --last 30m device.log     # the 30 minutes up to the log's last record
          parselogs --report junit:parselogs.xml --report sarif:parselogs.sarif device.log
          parselogs explain import-failed     # what an event kind means and what to do
          parselogs explain 134302            # a Core Data error code
          parselogs --unhandled device.log    # what the catalogue does not recognise yet
        """,
        version: parselogsVersion,
        // Parsed by `Main` before the flags (see `Explain`); declared so that --help, the man
        // page and the completion scripts show it.
        subcommands: [ExplainCommand.self]
    )

    @Argument(help: ArgumentHelp("Log files to read; - (or nothing) reads standard input.", valueName: "file"), completion: .file())
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
        valueName: "list"), completion: .list(CompletionValues.failOn))
    var failOn = FailOn.defaultText

    @Flag(help: "Let inputs with no sync records pass: without it, every --fail-on but none fails on a log with no evidence.")
    var allowNoEvidence = false

    /// The values parsed, for the run.
    var invocation: Invocation {
        Invocation(inputs: inputs, output: output.choices, filters: filters.choices, inputFormat: inputFormat, failOn: failOn,
                   allowNoEvidence: allowNoEvidence)
    }

    func validate() throws { try invocation.validate() }

    func run() throws { try invocation.run() }
}

/// Tells the file arguments from the options and their values, as ArgumentParser would.
enum FileArguments {
    /// Options that take a value as the next argument (`--format jsonl`); `--format=jsonl` is
    /// one argument. CommandLineTests checks that every option --help shows with a value is here.
    static let valueOptions: Set<String> = [
        "--format", "--color", "--kind", "--category", "--grep", "--since", "--until", "--last", "--process",
        "--input-format", "--fail-on", "--generate-completion-script", "--report",
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
            let raw = UnsafeRawBufferPointer(start: argument, count: strlen(argument))
            // ASCII is UTF-8: only other names are copied and validated (a glob of thousands).
            if raw.allSatisfy({ $0 < 0x80 }) { continue }
            let bytes = Array(raw)
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

/// A usage message with the command line's arguments in it escaped, each where it is quoted:
/// the message keeps its own line breaks, and no argument can start a line of its own, move
/// the cursor or issue a CI workflow command.
enum UsageText {
    static func escaped(_ message: String, arguments: [String]) -> String {
        var text = message
        // An option's value given as `--format=VALUE` is quoted alone.
        let values = arguments.compactMap { argument in argument.firstIndex(of: "=").map { String(argument[argument.index(after: $0)...]) } }
        let quoted = arguments + values
        for argument in Set(quoted).sorted(by: { $0.count > $1.count }) where !argument.isEmpty && StreamEscaping.line(argument) != argument {
            text = text.replacing(argument, with: StreamEscaping.line(argument))
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { StreamEscaping.line(String($0)) }.joined(separator: "\n")
    }
}

@main
enum Main {
    static func main() {
        holdClosedStandardDescriptors()
        signal(SIGPIPE, SIG_IGN)  // a closed pipe becomes EPIPE on write, which ends the run quietly
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "explain" { exit(Explain.run(arguments.dropFirst())) }
        if arguments.first == "help" { exit(Explain.help(arguments.dropFirst())) }
        do {
            // ArgumentParser removes each parsed argument from an array, which costs time
            // quadratic in their number (a glob of tens of thousands of files): the file
            // names are set aside first, and it parses the options alone.
            let (options, files) = FileArguments.separate(Array(arguments))
            if options == ["--version"] { printAndExit(parselogsVersion + "\n") }
            // The common command lines are read without ArgumentParser (`QuickParse`); one it
            // does not read, or that fails a check, is parsed by ArgumentParser, which then
            // reports the problem as it always does.
            var invocation: Invocation
            if let quick = QuickParse.invocation(options), (try? quick.validate()) != nil {
                invocation = quick
            } else {
                invocation = try Parselogs.parse(options).invocation
            }
            invocation.inputs = files
            try invocation.run()
        } catch let status as ExitCode {
            // The run's own status, with its messages already printed: asking the parser for
            // a message would lay out the whole help text to find there is none.
            exit(status.rawValue)
        } catch {
            let code = Parselogs.exitCode(for: error)
            if code == .success {
                // --help, --version, a completion script: the text goes to stdout, and a
                // failure to write it counts.
                var text = Parselogs.fullMessage(for: error)
                if let index = arguments.firstIndex(where: { $0.hasPrefix("--generate-completion-script") }) {
                    let shell = arguments[index].contains("=") ? String(arguments[index].split(separator: "=", maxSplits: 1)[1])
                        : arguments[arguments.index(after: index)...].first ?? ""
                    text = CompletionScript.patched(text, shell: shell)
                }
                printAndExit(text + "\n")
            }
            // The parser's message quotes what was given (an unknown option, a value): those
            // parts are escaped; the lines around them are the program's own.
            let message = Parselogs.fullMessage(for: error)
            if !message.isEmpty { printErrorLines(UsageText.escaped(message, arguments: Array(arguments))) }
            // Usage errors are status 2, like other trouble, not the parser's 64.
            exit(code == .validationFailure ? Status.trouble : code.rawValue)
        }
    }
}
