// The command line's contract: inputs, exit statuses, errors on stderr, formats, colour.
import Foundation
import Testing
import TestSupport

@Suite struct CommandLineTests {
    let example = "fixtures/example.log"

    @Test func standardInputWhenNoFileIsNamedAndForDash() throws {
        let log = try Data(contentsOf: URL(fileURLWithPath: Binary.fixture("ios6-session.log")))
        let fromFile = try Binary.run(["fixtures/ios6-session.log"])
        for arguments in [[], ["-"]] {
            let fromStdin = try Binary.run(arguments, stdin: log)
            expectEqual(fromStdin.status, fromFile.status)
            expectEqual(fromStdin.stdout, fromFile.stdout.replacingOccurrences(of: "fixtures/ios6-session.log", with: "<stdin>"))
        }
    }

    @Test func aMissingFileIsStatus2NamedOnStderrAndTheOthersAreStillRead() throws {
        let result = try Binary.run(["no-such.log", "fixtures/ios6-session.log", "--format", "jsonl"])
        expectEqual(result.status, 2)
        expectEqual(result.stderr, "parselogs: no-such.log: no such file\n")
        let summary = try require(result.stdout.split(separator: "\n").last)
        let object = try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any]
        expectEqual(object?["lines"] as? Int, 95)
        expectEqual((object?["unreadableInputs"] as? [[String: Any]])?.first?["input"] as? String, "no-such.log")
    }

    @Test func aDirectoryIsNotALog() throws {
        let result = try Binary.run(["fixtures"])
        expectEqual(result.status, 2)
        expectEqual(result.stderr, "parselogs: fixtures: is a directory, not a log file\n")
        expect(result.stdout.contains("read             0 lines"))
    }

    @Test func usageErrorsAreStatus2WithAMessage() throws {
        for arguments in [["--format", "xml", example], ["--no-such-flag"], ["-q", "-v", example], ["--color", "sometimes"]] {
            let result = try Binary.run(arguments)
            expectEqual(result.status, 2, "\(arguments)")
            expect(result.stderr.contains("Error:"), "\(arguments)")
            expect(result.stdout.isEmpty)
        }
    }

    @Test func helpDocumentsFlagsVerbosityAndExitStatuses() throws {
        let result = try Binary.run(["--help"])
        expectEqual(result.status, 0)
        for text in ["--format", "--color", "-U", "-q", "-vv", "Exit status", "NO_COLOR", "jsonl"] {
            expect(result.stdout.contains(text), "\(text)")
        }
    }

    /// The version is set in one place, Sources/parselogs/Version.swift; --version and the JSON
    /// Lines begin object show that one.
    @Test func theVersionComesFromItsOnePlace() throws {
        let source = try String(contentsOfFile: Binary.packageRoot.appendingPathComponent("Sources/parselogs/Version.swift").path, encoding: .utf8)
        let declared = try require(source.firstMatch(of: /let parselogsVersion = "([0-9][^"]*)"/)).output.1
        let version = try Binary.run(["--version"])
        expectEqual(version.status, 0)
        expectEqual(version.stdout, "\(declared)\n")
        let begin = try Binary.run(["--format", "jsonl", "fixtures/ios6-session.log"]).stdout.split(separator: "\n").first ?? ""
        expect(begin.contains(#""tool":"parselogs \#(declared)""#), "\(begin)")
    }

    @Test func exitStatusFollowsTheVerdict() throws {
        try expectEqual(Binary.run([example]).status, 1)
        try expectEqual(Binary.run(["fixtures/ios6-session.log"]).status, 1, "degraded: it recovered, but it is not healthy")
        try expectEqual(Binary.run(["fixtures/scenarios/clean-cloud-load.log"]).status, 0)
        let clean = Data("2014-03-02 09:14:05.121 Journal[412:60b] UbiquityStoreManager: Will load cloud store.\n".utf8)
        try expectEqual(Binary.run([], stdin: clean).status, 0)
    }

    @Test func jsonLinesAreValidJSONAndAccountForEveryLine() throws {
        for fixture in ["example.log", "ios6-session.log", "device-console.log", "logshow.log"] {
            let result = try Binary.run(["--format", "jsonl", "fixtures/\(fixture)"])
            let lines = result.stdout.split(separator: "\n").dropFirst()  // the begin message
            var covered = 0
            var nextLine = 1
            for (index, line) in lines.enumerated() {
                let object = try require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(fixture): \(line)")
                if index == lines.count - 1 {
                    expectEqual(object["type"] as? String, "summary")
                    expectEqual(object["lines"] as? Int, covered)
                } else {
                    expectEqual(object["type"] as? String, "record")
                    for key in ["input", "line", "lines", "time", "kind", "category", "severity", "fields"] {
                        expect(object[key] != nil, "\(key) in \(line)")
                    }
                    expectEqual(object["line"] as? Int, nextLine, "records neither overlap nor skip lines")
                    let count = object["lines"] as? Int ?? 0
                    covered += count
                    nextLine += count
                }
            }
            // Every physical line: `wc -l`, plus one when the last line has no newline.
            let bytes = try Data(contentsOf: URL(fileURLWithPath: Binary.fixture(fixture)))
            let newlines = bytes.filter { $0 == 0x0A }.count
            expectEqual(covered, newlines + (bytes.last == 0x0A ? 0 : 1), "\(fixture)")
        }
    }

    /// PARSELOGS_THREADS (docs/performance.md) picks how many threads run the pipeline; the
    /// output and exit status are the same on one as on three.
    @Test(arguments: [["-q"], [], ["--format", "jsonl"], ["-vv"]])
    func threadCountChangesNoOutput(arguments: [String]) throws {
        let fixture = Binary.fixture("scenarios/rebuild-ipad.log")
        let unset = try Binary.run(arguments + [fixture])
        expect(!unset.stdout.isEmpty)
        for threads in ["1", "3"] {
            let result = try Binary.run(arguments + [fixture], environment: ["PARSELOGS_THREADS": threads])
            expectEqual(result.stdout, unset.stdout, "PARSELOGS_THREADS=\(threads)")
            expectEqual(result.stderr, unset.stderr)
            expectEqual(result.status, unset.status)
        }
    }

    @Test func threadCountOtherThanOneOrThreeIsRefused() throws {
        let result = try Binary.run(["-q", example], environment: ["PARSELOGS_THREADS": "2"])
        expectEqual(result.status, 2)
        expect(result.stdout.isEmpty)
        expect(result.stderr.contains("PARSELOGS_THREADS=2"))
    }

    @Test func colourOnlyWhenAskedOrOnATerminal() throws {
        // Output is a pipe here: auto means no colour, whatever NO_COLOR says.
        expect(!(try Binary.run([example])).stdout.contains("\u{1B}["))
        try expect(Binary.run(["--color", "always", example]).stdout.contains("\u{1B}[31m"))
        try expect(Binary.run(["--color", "always", example], environment: ["NO_COLOR": "1"]).stdout.contains("\u{1B}["))
        expect(!(try Binary.run(["--color", "never", example])).stdout.contains("\u{1B}["))
    }

    @Test func controlCharactersInLogTextAreEscaped() throws {
        let hostile = Data("2014-03-02 09:14:05.001 Journal[412:60b] evil \u{1B}]0;pwned\u{07} title\n".utf8)
        let result = try Binary.run(["-v"], stdin: hostile)
        expect(!result.stdout.contains("\u{1B}"))
        expect(result.stdout.contains("evil \\x1B]0;pwned\\x07 title"))
        // With colour on, the only escape sequences are parselogs' own colour codes.
        let coloured = try Binary.run(["-v", "--color", "always"], stdin: hostile)
        expect(coloured.stdout.contains("evil \\x1B]0;pwned\\x07 title"))
        expect(!coloured.stdout.contains("\u{1B}]"))
        expect(!coloured.stdout.contains("\u{07}"))
    }

    @Test func invalidUTF8IsShownEscapedNotLost() throws {
        var bytes = Data("2014-03-02 09:14:05.001 Journal[412:60b] Caf".utf8)
        bytes.append(contentsOf: [0xE9, 0x0A])
        let text = try Binary.run(["-v"], stdin: bytes)
        expect(text.stdout.contains("Caf\\xE9"))
        let json = try Binary.run(["--format", "jsonl"], stdin: bytes)
        expect(json.stdout.contains(#""message":"Caf\\xE9""#))
    }

    @Test func aLastLineWithoutNewlineAndCRLFAreCounted() throws {
        let result = try Binary.run(["-q"], stdin: Data("a\r\nb\r\nCoreData: Ubiquity:  Using local storage: 1".utf8))
        expect(result.stdout.contains("read             3 lines, 2 records"))
    }
}

/// `parselogs explain` and `parselogs --unhandled`, run as a user would.
@Suite struct ExplainAndUnhandledCommandTests {
    @Test func explainAKindACodeAndTheList() throws {
        let kind = try Binary.run(["explain", "cloud-corruption-detected"])
        expectEqual(kind.status, 0)
        expectEqual(kind.stderr, "")
        expect(kind.stdout.hasPrefix("cloud-corruption-detected (corruption, error, shown by default)\n"))
        expect(kind.stdout.contains("What to do:"))

        let code = try Binary.run(["explain", "134080"])
        expectEqual(code.status, 0)
        expect(code.stdout.hasPrefix("134080 NSPersistentStoreOpenError\n"))

        let list = try Binary.run(["explain"])
        expectEqual(list.status, 0)
        expect(list.stdout.contains("\ncorruption\n"))
    }

    @Test func explainListIsTheListInTextOrMarkdown() throws {
        let text = try Binary.run(["explain", "--list"])
        expectEqual(text.status, 0)
        expectEqual(text.stdout, (try Binary.run(["explain"])).stdout)
        let markdown = try Binary.run(["explain", "--list", "--format", "markdown"])
        expectEqual(markdown.status, 0)
        expectEqual(markdown.stderr, "")
        expect(markdown.stdout.hasPrefix("# Event kinds\n"))
        expect(markdown.stdout.contains("\n| `cloud-corruption-detected` | corruption | error | default | "))
    }

    @Test func explainListArgumentsThatContradictAreUsageErrors() throws {
        for arguments in [["explain", "--format", "pdf"], ["explain", "--format"], ["explain", "--list", "import-failed"],
                          ["explain", "--format", "markdown", "import-failed"], ["explain", "import-failed", "134302"]] {
            let result = try Binary.run(arguments)
            expectEqual(result.status, 2, "\(arguments)")
            expectEqual(result.stdout, "", "\(arguments)")
            expect(result.stderr.hasPrefix("parselogs explain: "), "\(arguments)")
        }
    }

    @Test func explainSomethingUnknownIsAUsageError() throws {
        let result = try Binary.run(["explain", "frobnicate"])
        expectEqual(result.status, 2)
        expectEqual(result.stdout, "")
        expectEqual(result.stderr, "parselogs explain: 'frobnicate' is neither an event kind nor a known error code (CODE or DOMAIN:CODE); `parselogs explain` lists both\n")
    }

    @Test func theTimelineHintsUnderEachErrorWithTheCodeSeen() throws {
        let result = try Binary.run(["fixtures/example.log"])
        // example.log's import failure carries a 134302: the hint is that code's advice and topic.
        expect(result.stdout.contains("\n      hint: If one log fails on every launch, it is corrupt: rebuild the cloud content from a healthy device. (parselogs explain 134302)\n"))
    }

    @Test func unhandledReportsTemplates() throws {
        let result = try Binary.run(["--unhandled", "fixtures/example.log"])
        expectEqual(result.stderr, "")
        expectEqual(result.status, 1, "the exit status keeps its meaning: the example has errors")
        expect(result.stdout.hasPrefix("1 unhandled record of 26 sync records, in 1 template\n\n1×  -[PFUbiquityContainerMonitor deferPendingChecks:]: Deferring <n> pending container checks until the ubiquity container at <path> is reachable\n    e.g. fixtures/example.log:96: -[PFUbiquityContainerMonitor deferPendingChecks:]: Deferring 3"))

        let misuse = try Binary.run(["--unhandled", "--format", "json", "fixtures/example.log"])
        expectEqual(misuse.status, 2)
        expect(misuse.stderr.contains("--unhandled prints its own report"))
    }
}
