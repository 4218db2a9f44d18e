// --report (several outputs from one run), --format xcode and --format sarif, and the help
// and completions that describe them.
import Foundation
import Testing
import TestSupport

@Suite struct ReportFormatTests {
    static func sarifSchema() throws -> [String: Any] {
        let file = Binary.packageRoot.appendingPathComponent("Tests/Reference/sarif/sarif-2.1.0-subset.schema.json")
        return try require(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    }

    @Test func theSARIFValidatorRejectsWhatTheStandardForbids() throws {
        let validator = SchemaValidator(root: try Self.sarifSchema())
        let bad = [
            #"{"version":"2.1.0"}"#,
            #"{"version":"2.0.0","runs":[]}"#,
            #"{"version":"2.1.0","runs":[{"results":[]}]}"#,
            #"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"p"}},"results":[{"level":"fatal","message":{"text":"x"}}]}]}"#,
            #"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"p"}},"results":[{"ruleId":"x"}]}]}"#,
            #"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"p"}},"results":[{"message":{"text":"x"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a"},"region":{"startLine":0}}}]}]}]}"#,
            #"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"p"}},"results":[{"message":{"text":"x"},"failsTheRun":true}]}]}"#,
        ]
        for text in bad {
            let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
            expect(!validator.validate(value, against: validator.root).isEmpty, "\(text)")
        }
    }

    @Test(arguments: [["fixtures/example.log"], ["fixtures/cloudkit/quota.log"], ["fixtures/device-console.log"],
                      ["fixtures/scenarios/empty.log", "no-such.log"], ["--fail-on", "info", "fixtures/logshow.log"]])
    func sarifIsValidAgainstTheSchema(arguments: [String]) throws {
        let validator = SchemaValidator(root: try Self.sarifSchema())
        let result = try Binary.run(["--format", "sarif"] + arguments)
        expectEqual(result.stdout.split(separator: "\n").count, 1, "one JSON document, one line")
        let log = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        let problems = validator.validate(log, against: validator.root)
        expect(problems.isEmpty, "\(problems)")
        let run = try require(((log as? [String: Any])?["runs"] as? [[String: Any]])?.first)
        let rules = try require(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        for result in try require(run["results"] as? [[String: Any]]) {
            // Each result names a rule of the run at its index, and has a place in a file.
            let index = try require(result["ruleIndex"] as? Int)
            expectEqual(rules[index]["id"] as? String, result["ruleId"] as? String)
            let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
            expect(((location?["region"] as? [String: Any])?["startLine"] as? Int ?? 0) >= 1, "\(result)")
        }
    }

    @Test func sarifRulesAreTheEventKindsAndResultsHaveLocations() throws {
        let result = try Binary.run(["--format", "sarif", "fixtures/example.log"])
        expectEqual(result.status, 1)
        let log = try require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        expectEqual(log["version"] as? String, "2.1.0")
        let run = try require((log["runs"] as? [[String: Any]])?.first)
        let results = try require(run["results"] as? [[String: Any]])
        let importFailed = try require(results.first { $0["ruleId"] as? String == "import-failed" })
        expectEqual(importFailed["level"] as? String, "error")
        expectEqual((importFailed["properties"] as? [String: Any])?["failsTheRun"] as? Bool, true)
        let place = (importFailed["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
        expectEqual((place?["artifactLocation"] as? [String: Any])?["uri"] as? String, "fixtures/example.log")
        expectEqual((place?["region"] as? [String: Any])?["startLine"] as? Int, 85)
        let handling = try require(results.first { $0["ruleId"] as? String == "corruption-handling" })
        expectEqual(handling["level"] as? String, "warning", "a warning that does not fail the run keeps its severity")
        let rules = ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]] ?? []
        let rule = try require(rules.first { $0["id"] as? String == "import-failed" })
        expect((rule["shortDescription"] as? [String: Any])?["text"] as? String != nil)
        expectEqual((rule["properties"] as? [String: Any])?["category"] as? String, "import")
    }

    @Test func sarifURIsArePercentEncoded() throws {
        let folder = try ScratchFolder("parselogs-sarif")
        let path = try folder.write("a b#c.log", Data())
        let result = try Binary.run(["--format", "sarif", path])
        expect(result.stdout.contains(#""uri":"file://"#))
        expect(result.stdout.contains("a%20b%23c.log"))
    }

    @Test func xcodeDiagnosticsAreOneALineWithTheirPlace() throws {
        let result = try Binary.run(["--format", "xcode", "fixtures/example.log"])
        expectEqual(result.status, 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        expectEqual(lines.first?.hasPrefix("parselogs: error: Verdict: broken; fixtures/example.log:85 import-failed: "), true)
        expect(lines.contains("fixtures/example.log:85: error: Import failed for log 0C9B8A7F-6E5D-4C3B-2A19-F8E7D6C5B4A3.1.cdt: NSCocoaErrorDomain 134302: Could not read the transaction log (import-failed; fails the run)"))
        expect(lines.contains("fixtures/example.log:93: warning: Handling cloud corruption with default strategy: Wait for a remote rebuild. (corruption-handling)"))
        expectEqual(lines.last, "parselogs: error: Outcome: fail: the verdict is broken (--fail-on degraded)")

        let passing = try Binary.run(["--format", "xcode", "--fail-on", "none", "fixtures/example.log"])
        expectEqual(passing.status, 0)
        expect(passing.stdout.contains("fixtures/example.log:85: error: Import failed"), "an error stays an error")
        expect(!passing.stdout.contains("fails the run"))
        expect(passing.stdout.hasSuffix("parselogs: note: Outcome: pass (--fail-on none)\n"))
    }

    /// Each report is what `--format` prints for the same run, and stdout keeps its format.
    @Test func reportsAreWrittenBesideStandardOutput() throws {
        let folder = try ScratchFolder("parselogs-report")
        let formats = ["junit", "json", "markdown", "xcode", "sarif", "jsonl", "text", "html"]
        let reports = formats.flatMap { ["--report", "\($0):\(folder.path("report.\($0)"))"] }
        let both = try Binary.run(reports + ["fixtures/example.log"])
        expectEqual(both.status, 1)
        expect(both.stderr.isEmpty)
        let alone = try Binary.run(["fixtures/example.log"])
        expectEqual(both.stdout, alone.stdout, "stdout keeps the text")
        for format in formats {
            let written = try String(contentsOfFile: folder.path("report.\(format)"), encoding: .utf8)
            var expected = try Binary.run(["--format", format, "fixtures/example.log"]).stdout
            if format == "jsonl" {
                // The begin line names the tool's version only; the rest is the same.
                expected = String(expected.drop { $0 != "\n" })
                expectEqual(String(written.drop { $0 != "\n" }), expected, "\(format)")
            } else {
                expectEqual(written, expected, "\(format)")
            }
        }
    }

    @Test func reportsThatCannotBeWrittenAreRefusedBeforeReading() throws {
        let missing = try Binary.run(["--report", "junit:/no/such/folder/x.xml", "fixtures/example.log"])
        expectEqual(missing.status, 2)
        expect(missing.stdout.isEmpty, "nothing is read")
        expect(missing.stderr.contains("--report junit:/no/such/folder/x.xml"))
        for bad in ["github:x.txt", "junit", "junit:", "weird:x", "xml:x"] {
            let result = try Binary.run(["--report", bad, "fixtures/example.log"])
            expectEqual(result.status, 2, "\(bad)")
            expect(result.stdout.isEmpty, "\(bad)")
        }
        // A report over an input would empty the log before it is read.
        let folder = try ScratchFolder("parselogs-report-input")
        let log = try folder.write("device.log", Data(contentsOf: URL(fileURLWithPath: Binary.fixture("example.log"))))
        let over = try Binary.run(["--report", "text:\(folder.path("."))/device.log", log])
        expectEqual(over.status, 2)
        expect(over.stderr.contains("is the input"))
        try expectEqual(Data(contentsOf: URL(fileURLWithPath: log)), Data(contentsOf: URL(fileURLWithPath: Binary.fixture("example.log"))), "the log is kept")

        let twice = try Binary.run(["--report", "junit:/tmp/x", "--report", "sarif:/tmp/x", "fixtures/example.log"])
        expectEqual(twice.status, 2)
        expect(twice.stderr.contains("named twice"))
    }

    @Test func helpNamesBothFamiliesExplainAndTheEnvironment() throws {
        let help = try Binary.run(["--help"])
        expectEqual(help.status, 0)
        expect(help.stdout.contains("iCloud ubiquity or\nCloudKit mirroring") || help.stdout.contains("iCloud ubiquity or CloudKit mirroring"))
        expect(help.stdout.contains("USAGE: parselogs [<options>] [<file> ...]\n       parselogs explain"))
        expect(help.stdout.contains("Environment:\n  NO_COLOR"))
        expect(help.stdout.contains("GITHUB_STEP_SUMMARY"))
        expect(help.stdout.contains("PARSELOGS_THREADS"))
        expect(!help.stdout.contains("unhandled ubiquity records"), "-U speaks of sync records of either family")

        let explain = try Binary.run(["help", "explain"])
        expectEqual(explain.status, 0)
        expect(explain.stdout.hasPrefix("USAGE: parselogs explain"))
        expect(explain.stderr.isEmpty, "no file named help or explain is read")
        let main = try Binary.run(["help"])
        expectEqual(main.stdout, help.stdout)
        try expectEqual(Binary.run(["help", "nonsense"]).status, 2)
    }

    @Test func aBadValueErrorKeepsItsLineBreaksAndEscapesTheValue() throws {
        let result = try Binary.run(["--format", "bogus", "x.log"])
        expectEqual(result.status, 2)
        expect(result.stderr.contains("Please provide one of the following:\n  - text\n"))
        expect(!result.stderr.contains("\\x0A"))
        let hostile = try Binary.run(["--format=a\n::error::x", "x.log"])
        expect(hostile.stderr.contains("'a\\x0A::error::x'"), "the value's own line break is escaped")
        expect(!hostile.stderr.split(separator: "\n").contains { $0.hasPrefix("::") })
    }
}
