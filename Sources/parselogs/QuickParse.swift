// The main command's options read without ArgumentParser, on the command lines that are plainly
// right: ArgumentParser's parse works out the command's options by reflection at every start
// (20 M instructions of a one-line run, docs/performance.md). Anything else (an option or a
// value not known here, a repeated option, --help, --version beside others, a completion
// script) is left to ArgumentParser, whose messages and help stay the only ones.
// `QuickParseTests` holds the two equal on a corpus of command lines, and holds `options` to
// the options ArgumentParser declares.
import UbiquityLogKit

enum QuickParse {
    /// How an option is read: a flag alone, or with a value (the next argument, or after `=`).
    enum Arity: Equatable { case flag, value }

    /// Every option of the main command this parser reads, by the spelling ArgumentParser
    /// gives it, with how it is read.
    static let options: [String: Arity] = [
        "-v": .flag, "-q": .flag, "--quiet": .flag, "-U": .flag, "--unhandled": .flag, "--line-buffered": .flag,
        "--no-progress": .flag, "--allow-no-evidence": .flag,
        "--format": .value, "--report": .value, "--color": .value, "--kind": .value, "--category": .value, "--grep": .value,
        "--since": .value, "--until": .value, "--last": .value, "--process": .value, "--input-format": .value, "--fail-on": .value,
    ]

    /// The options ArgumentParser declares that only it reads.
    static let leftToArgumentParser: [String: Arity] = [
        "-h": .flag, "--help": .flag, "--version": .flag, "--generate-completion-script": .value,
    ]

    /// The values of `arguments` (the options and their values, the files set aside, as
    /// `FileArguments.separate` gives them); nil when ArgumentParser is to read them.
    static func invocation(_ arguments: [String]) -> Invocation? {
        var invocation = Invocation()
        var seen = Set<String>()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            // Short flags, alone or together (`-vv`, `-qU`).
            if argument.utf8.count >= 2, argument.utf8.first == UInt8(ascii: "-"), argument.utf8.dropFirst().first != UInt8(ascii: "-") {
                for flag in argument.dropFirst() {
                    switch flag {
                    case "v": invocation.output.verbose += 1
                    case "q" where seen.insert("--quiet").inserted: invocation.output.quiet = true
                    case "U" where seen.insert("-U").inserted: invocation.output.hideUnhandled = true
                    default: return nil
                    }
                }
                continue
            }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard let arity = options[name] else { return nil }
            // Once each: ArgumentParser's way with a repeated option is its own (--report and
            // --process gather theirs).
            guard name == "--report" || name == "--process" || seen.insert(name).inserted else { return nil }
            switch arity {
            case .flag:
                guard value == nil else { return nil }
                switch name {
                case "--quiet": invocation.output.quiet = true
                case "--unhandled": invocation.output.unhandled = true
                case "--line-buffered": invocation.output.lineBuffered = true
                case "--no-progress": invocation.output.noProgress = true
                case "--allow-no-evidence": invocation.allowNoEvidence = true
                default: return nil
                }
            case .value:
                if value == nil, index < arguments.count {
                    value = arguments[index]
                    index += 1
                }
                // A value that is empty or looks like an option: ArgumentParser decides.
                guard let value, let first = value.utf8.first, first != UInt8(ascii: "-") else { return nil }
                guard set(name, value, on: &invocation) else { return nil }
            }
        }
        return invocation
    }

    /// Sets option `name`'s `value`; false when it is not one the option takes.
    private static func set(_ name: String, _ value: String, on invocation: inout Invocation) -> Bool {
        switch name {
        case "--format":
            guard let format = OutputFormat(rawValue: value) else { return false }
            invocation.output.format = format
        case "--report":
            guard let report = ReportFile(argument: value) else { return false }
            invocation.output.report.append(report)
        case "--color":
            guard let color = ColorChoice(rawValue: value) else { return false }
            invocation.output.color = color
        case "--input-format":
            guard let format = InputFormat(rawValue: value) else { return false }
            invocation.inputFormat = format
        case "--kind": invocation.filters.kind = value
        case "--category": invocation.filters.category = value
        case "--grep": invocation.filters.grep = value
        case "--since": invocation.filters.since = value
        case "--until": invocation.filters.until = value
        case "--last": invocation.filters.last = value
        case "--process": invocation.filters.processes.append(value)
        case "--fail-on": invocation.failOn = value
        default: return false
        }
        return true
    }
}
