// `parselogs explain`: what an event kind or an error code means, and the list of kinds.
import ArgumentParser
import UbiquityLogKit

/// `explain` as ArgumentParser sees it: for --help, the man page and the completion scripts
/// (which offer it, its flags and every kind id). `Main` reads `explain` before the flags and
/// runs `Explain`, so that the main command keeps its files as plain arguments.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain an event kind or an error code, or list every kind by category.",
        // Shown by the man page (generate-manual) under the subcommand; `parselogs explain
        // --help` prints `Explain.usage`, which ends with the same text.
        discussion: Explain.description)

    enum ListFormat: String, ExpressibleByArgument, CaseIterable { case text, markdown }

    @Flag(help: "List every event kind by category, with its severity.")
    var list = false

    @Option(help: "With --list: text, or markdown (the page docs/event-kinds.md).")
    var format: ListFormat = .text

    @Argument(help: ArgumentHelp("An event kind (import-failed) or an error code (134302, BRCloudDocsErrorDomain:6).", valueName: "kind-or-code"),
              completion: .list(CompletionValues.kinds))
    var topic: String?

    func run() throws {
        throw ExitCode(Explain.run(CommandLine.arguments.drop { $0 != "explain" }.dropFirst()))
    }
}

/// Values the completion scripts offer. Kind ids are read from the rules without compiling
/// them: the parser, and so these, are made on every run.
enum CompletionValues {
    static let kinds: [String] = {
        var seen = Set<String>()
        let all = Catalog.standardRules.flatMap(\.kinds) + Catalog.families.flatMap(\.ownKinds) + Catalog.builtInKinds
        return all.map(\.id).filter { seen.insert($0).inserted }
    }()
    static let categories = Category.allCases.map(\.rawValue)
    static let failOn = Verdict.allCases.filter { $0 != .healthy }.map(\.rawValue) + Severity.allCases.map(\.rawValue) + categories + ["none"]
}

/// `parselogs explain [KIND | CODE]`: read before the flags, so that the main command keeps
/// its plain `parselogs [options] [file ...]` form (a file named `explain` is `./explain`).
enum Explain {
    static let usage = """
        USAGE: parselogs explain [KIND | CODE]
               parselogs explain --list [--format text|markdown]

        \(description)
        """

    static let description = """
        Explains an event kind (what it means, what normally happens next, what to do), a Core
        Data error code (134302, 134080, ...), or with no argument (or --list) lists every kind
        by category. --format markdown prints the list as the Markdown page docs/event-kinds.md.
        """

    /// `parselogs help [explain]`: the main command's help, or explain's. A file named `help`
    /// is `./help`.
    static func help(_ arguments: ArraySlice<String>) -> Int32 {
        switch Array(arguments) {
        case []: printAndExit(Parselogs.helpMessage() + "\n")
        case ["explain"]: printAndExit(usage + "\n")
        default:
            printError("parselogs help: no help on '\(arguments.joined(separator: " "))'; try parselogs help, or parselogs help explain (a file named help is ./help)")
            return Status.trouble
        }
    }

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
