// The command line: flags, wiring the library's run to stdout, and the exit status.
import ArgumentParser
import UbiquityLogKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, jsonl
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

/// Exit statuses, as documented in the README and --help.
enum Status {
    static let clean: Int32 = 0
    static let findings: Int32 = 1
    static let trouble: Int32 = 2
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

        Exit status: 0 nothing of error severity was found; 1 something was (a failed store \
        load, an import failure, a corruption report); 2 a usage error or an unreadable input \
        (the other inputs are still read).

        Colour: on when standard output is a terminal and NO_COLOR is not set; --color always \
        or never overrides both.

        Examples:
          parselogs device.log
          parselogs -v iphone.log ipad.log
          idevicesyslog | parselogs -U
          parselogs --format jsonl device.log | jq 'select(.severity == "error")'
        """,
        version: "0.1.0"
    )

    @Argument(help: ArgumentHelp("Log files to read; - (or nothing) reads standard input.", valueName: "file"))
    var inputs: [String] = []

    @Flag(name: .short, help: "Show more: -v every event, -vv routine messages, -vvv raw records.")
    var verbose: Int

    @Flag(name: .shortAndLong, help: "Print the summary only.")
    var quiet = false

    @Flag(name: .customShort("U"), help: "Do not warn about unhandled ubiquity records.")
    var hideUnhandled = false

    @Option(help: "Output format: text (timeline and summary) or jsonl (one JSON object per record, then a summary object).")
    var format: OutputFormat = .text

    @Option(help: "Colour the text output: auto, always or never.")
    var color: ColorChoice = .auto

    func validate() throws {
        if quiet && verbose > 0 { throw ValidationError("-q and -v contradict each other; use one.") }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)  // a closed pipe becomes EPIPE on write, which ends the run quietly
        let catalog: Catalog
        do {
            catalog = try Catalog.standard()
        } catch {
            printError("parselogs: internal error: \(error)")
            throw ExitCode(Status.trouble)
        }

        let isTerminal = OutputWriter.isTerminal(1)
        let out = OutputWriter(descriptor: 1, lineBuffered: isTerminal)
        let reporter: Reporter
        switch format {
        case .text:
            let options = TextOptions(verbosity: quiet ? -1 : min(verbose, 3), showUnhandled: !hideUnhandled,
                                      color: useColor(isTerminal: isTerminal), showInputNames: inputs.count > 1)
            reporter = TextReporter(output: out, options: options)
        case .jsonl:
            reporter = JSONLinesReporter(output: out)
        }
        let run = LogRun(catalog: catalog, reporters: [reporter])
        run.shouldStop = { out.isClosed }

        let names = inputs.isEmpty ? ["-"] : inputs
        if names.contains("-"), isatty(0) == 1 {
            printError("parselogs: reading standard input (end with Ctrl-D; --help for usage)")
        }
        var troubled = false
        for name in names where !out.isClosed {
            do {
                if name == "-" {
                    var source = FileDescriptorSource.standardInput()
                    try run.process(&source, name: "<stdin>")
                } else {
                    var source: FileDescriptorSource
                    do {
                        source = try FileDescriptorSource(path: name)
                    } catch {
                        run.failed(error)
                        throw error
                    }
                    defer { source.close() }
                    try run.process(&source, name: name)
                }
            } catch {
                printError("parselogs: \(error)")
                troubled = true
            }
        }
        let summary = run.finish()
        if out.isClosed { return }  // the reader went away (| head): nothing more to say
        if troubled { throw ExitCode(Status.trouble) }
        if summary.errors > 0 { throw ExitCode(Status.findings) }
    }

    private func useColor(isTerminal: Bool) -> Bool {
        switch color {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
            if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
            return isTerminal
        }
    }
}

/// A line on standard error, written at once (it is not buffered with the output).
func printError(_ message: String) {
    let errors = OutputWriter(descriptor: 2, capacity: 4096, lineBuffered: true)
    errors.line(message)
}

@main
enum Main {
    static func main() {
        do {
            var command = try Parselogs.parseAsRoot()
            try command.run()
        } catch {
            let code = Parselogs.exitCode(for: error)
            if code == .success {
                // --help, --version: the text goes to stdout.
                print(Parselogs.fullMessage(for: error))
                exit(0)
            }
            let message = Parselogs.fullMessage(for: error)
            if !message.isEmpty { printError(message) }
            // Usage errors are status 2, like other trouble, not the parser's 64.
            exit(code == .validationFailure ? Status.trouble : code.rawValue)
        }
    }
}
