// `parselogs explain`: what an event kind or an error code means, and the list of kinds.
import UbiquityLogKit

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
