// The main command's options are read by two parsers: the quick one on the common command
// lines (`QuickParse`), ArgumentParser's on every other. Held equal here: on a corpus of
// command lines, each the quick parser reads gives what ArgumentParser gives (or both refuse
// it), and the two know the same options, each read the same way, so that an option added to
// one and not the other fails.
import ArgumentParser
import Foundation
import Testing
import TestSupport
@testable import parselogs

@Suite struct QuickParseTests {
    /// Command lines as `FileArguments.separate` leaves them (the files set aside); `true`
    /// for those the quick parser must read.
    static let corpus: [(arguments: [String], quick: Bool)] = [
        ([], true), (["-q"], true), (["--quiet"], true), (["-v"], true), (["-vv"], true), (["-vvv"], true), (["-vvvv"], true),
        (["-v", "-v"], true), (["-vU"], true), (["-Uv"], true), (["-qU"], true), (["-U", "-q"], true), (["-q", "-v"], true),
        (["--format", "jsonl"], true), (["--format=json"], true), (["--format", "html", "--color", "never"], true),
        (["--format", "sarif", "-q"], true), (["--format", "jsonl", "-q"], true),
        (["--report", "junit:out.xml"], true), (["--report=sarif:a.sarif", "--report", "json:b.json"], true),
        (["--report", "junit:same", "--report", "json:same"], true),
        (["--color", "always"], true), (["--color=auto"], true), (["--unhandled"], true), (["--unhandled", "-q"], true),
        (["--line-buffered", "--no-progress"], true), (["--allow-no-evidence", "--fail-on", "none"], true),
        (["--kind", "import-failed,store-loaded"], true), (["--kind", "no-such-kind"], true), (["--category", "import"], true),
        (["--grep", "Using local"], true), (["--grep", "("], true), (["--since", "2014-03-02"], true),
        (["--since", "2014-03-02 09:14", "--until", "09:20"], true), (["--since", "2014-13-02"], true),
        (["--last", "30m"], true), (["--last", "1h30m", "--since", "09:14"], true), (["--process", "Journal"], true),
        (["--process", "Journal", "--process=kbd"], true), (["--process", " "], true), (["--input-format", "ndjson"], true),
        (["--input-format=logshow"], true), (["--fail-on", "corruption,import-failed"], true), (["--fail-on", "nonsense"], true),
        (["--fail-on=degraded", "--format", "github"], true),
        (["--format", "xml"], false), (["--format"], false), (["--format="], false), (["--color", "sometimes"], false),
        (["--no-such-flag"], false), (["-x"], false), (["-qx"], false), (["-q", "-q"], false), (["-qq"], false),
        (["--quiet", "-q"], false), (["--format", "json", "--format", "text"], false), (["--report", "github:x"], false),
        (["--report", "nocolon"], false), (["--report", "junit:"], false), (["--grep", "-x"], false), (["--grep", ""], false),
        (["--input-format", "csv"], false), (["--quiet=1"], false), (["--help"], false), (["-h"], false), (["--version", "-q"], false),
        (["--generate-completion-script", "bash"], false), (["--experimental-dump-help"], false), (["-v=2"], false),
        (["--kind"], false), (["--since", "--until"], false), (["-"], false), (["--"], false),
    ]

    @Test func theQuickParserReadsWhatArgumentParserReads() throws {
        for (arguments, mustRead) in Self.corpus {
            let quick = QuickParse.invocation(arguments)
            expectEqual(quick != nil, mustRead, "the quick parser reads \(arguments)")
            guard let quick else { continue }
            // ArgumentParser checks the values as it parses (`validate`); the run takes the
            // quick parser's values only when they pass that check too.
            let checked = (try? quick.validate()) != nil
            do {
                let parsed = try Parselogs.parse(arguments).invocation
                expect(checked, "ArgumentParser accepts \(arguments), the quick parser's check does not")
                expectEqual(parsed, quick, "\(arguments)")
            } catch {
                expect(!checked, "ArgumentParser refuses \(arguments) (\(Parselogs.fullMessage(for: error))), the quick parser does not")
            }
        }
    }

    /// Every option ArgumentParser declares for the main command, each read the way it
    /// declares it: by the quick parser, or left to ArgumentParser.
    @Test func bothKnowTheSameOptions() throws {
        let dump = try require(try JSONSerialization.jsonObject(with: Data(Parselogs._dumpHelp().utf8)) as? [String: Any])
        let command = try require(dump["command"] as? [String: Any])
        let arguments = try require(command["arguments"] as? [[String: Any]])
        var declared: [String: QuickParse.Arity] = [:]
        for argument in arguments {
            let kind = try require(argument["kind"] as? String)
            guard kind != "positional" else { continue }
            for name in argument["names"] as? [[String: Any]] ?? [] {
                let text = try require(name["name"] as? String)
                let spelled = (name["kind"] as? String == "long" ? "--" : "-") + text
                declared[spelled] = kind == "flag" ? .flag : .value
            }
        }
        let known = QuickParse.options.merging(QuickParse.leftToArgumentParser) { quick, _ in quick }
        for (name, arity) in declared {
            expectEqual(known[name], arity, "ArgumentParser's \(name)")
        }
        for (name, arity) in QuickParse.options {
            expectEqual(declared[name], arity, "the quick parser's \(name)")
        }
        expect(Set(QuickParse.options.keys).isDisjoint(with: QuickParse.leftToArgumentParser.keys))
    }
}
