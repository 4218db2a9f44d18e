// Every format says the same about whether a run fails, and the exit status follows it: the
// text summary's `Outcome:` line, the JSON summary's `outcome`, the Markdown heading's
// Fails/Passes, GitHub's annotations titled `(fails the run)` (always `::error`s), JUnit's
// failures, the Xcode-style `Outcome:` diagnostic, SARIF's invocation and results. Every kind
// of gate is run: each verdict, each severity, a category, a kind, none, and
// `--allow-no-evidence`.
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

@Suite struct FormatAgreementTests {
    static let inputs: [[String]] = [
        ["fixtures/example.log"],
        ["fixtures/ios6-session.log"],
        ["fixtures/scenarios/clean-cloud-load.log"],
        ["fixtures/device-console-daemons.log"],
        ["fixtures/device-console-app-silent.log"],
        ["fixtures/scenarios/clean-cloud-load.log", "fixtures/scenarios/empty.log"],
        ["fixtures/scenarios/clean-cloud-load.log", "no-such.log"],
        ["fixtures/cloudkit/quota.log"],
        // A system framework's store judged apart: `error` fails the run by its error alone.
        ["fixtures/scenarios/system-stores-logshow.log"],
    ]
    /// A gate of each kind: every verdict, severities, a category, an error kind, an info
    /// kind, none, and a verdict with `--allow-no-evidence`.
    static let failOns: [[String]] = [
        ["degraded"], ["no-evidence"], ["unknown"], ["broken"], ["error"], ["warning"], ["info"],
        ["corruption"], ["import-failed"], ["store-load-succeeded"], ["none"], ["broken", "--allow-no-evidence"],
    ]
    static let formats = ["text", "json", "jsonl", "markdown", "github", "junit", "xcode", "sarif"]

    /// Whether a format's output says the run fails.
    private func saysFail(_ format: String, _ stdout: String) throws -> Bool {
        switch format {
        case "text":
            let outcome = try require(stdout.split(separator: "\n").last { $0.hasPrefix("Outcome: ") })
            return outcome.hasPrefix("Outcome: fail")
        case "json", "jsonl":
            let last = try require(stdout.split(separator: "\n").last)
            let summary = try require(JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
            let outcome = try require(summary["outcome"] as? [String: Any])
            return try require(outcome["result"] as? String) == "fail"
        case "markdown":
            return stdout.contains("\n**Fails** the run")
        case "github":
            let annotations = stdout.split(separator: "\n").filter { $0.hasPrefix("::error ") || $0.hasPrefix("::warning ") || $0.hasPrefix("::notice ") }
            let failing = annotations.filter { $0.contains(" (fails the run)::") }
            expect(failing.allSatisfy { $0.hasPrefix("::error ") }, "what fails the run is an ::error: \(failing)")
            return !failing.isEmpty
        case "xcode":
            let outcome = try require(stdout.split(separator: "\n").last)
            let failing = stdout.split(separator: "\n").filter { $0.hasSuffix("; fails the run)") }
            expect(failing.allSatisfy { $0.contains(": error: ") }, "what fails the run is an error: \(failing)")
            expectEqual(outcome.hasPrefix("parselogs: error: Outcome: fail"), !failing.isEmpty)
            return outcome.hasPrefix("parselogs: error: Outcome: fail")
        case "sarif":
            let log = try require(JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
            let run = try require((log["runs"] as? [[String: Any]])?.first)
            let results = try require(run["results"] as? [[String: Any]])
            let failing = results.filter { ($0["properties"] as? [String: Any])?["failsTheRun"] as? Bool == true }
            expect(failing.allSatisfy { $0["level"] as? String == "error" })
            let invocation = try require((run["invocations"] as? [[String: Any]])?.first)
            let result = try require((invocation["properties"] as? [String: Any])?["result"] as? String)
            expect((result == "fail") == !failing.isEmpty || invocation["exitCode"] as? Int == 2)
            return result == "fail"
        case "junit":
            let document = try XMLDocument(data: Data(stdout.utf8))
            return try require(document.nodes(forXPath: "/testsuites/@failures").first?.stringValue) != "0"
        default:
            Issue.record("unknown format \(format)")
            return false
        }
    }

    /// Every format's output for one run of `arguments`, and its exit status: github on
    /// stdout (it cannot be a `--report`), every other format as a `--report` file, each the
    /// same as that format on stdout (ReportFormatTests).
    private func everyFormat(_ arguments: [String], stdin: Data? = nil) throws -> (outputs: [String: String], status: Int32) {
        let folder = try ScratchFolder("parselogs-agree")
        let reported = FormatAgreementTests.formats.filter { $0 != "github" }
        let reports = reported.flatMap { ["--report", "\($0):\(folder.path($0))"] }
        let run = try Binary.run(["--format", "github"] + reports + arguments, stdin: stdin)
        var outputs = ["github": run.stdout]
        for format in reported { outputs[format] = try String(contentsOfFile: folder.path(format), encoding: .utf8) }
        return (outputs, run.status)
    }

    @Test(arguments: inputs)
    func everyFormatAgreesWithTheExitStatus(inputs: [String]) throws {
        for failOn in FormatAgreementTests.failOns {
            let run = try everyFormat(["--fail-on"] + failOn + inputs)
            let status = run.status
            expect([0, 1, 2].contains(status))
            for format in FormatAgreementTests.formats {
                try expectEqual(saysFail(format, run.outputs[format] ?? ""), (status != 0), "\(format) --fail-on \(failOn) \(inputs): status \(status)")
            }
        }
    }

    /// A log with no evidence (empty, or another framework's) fails every gate but `none`, in
    /// every format, unless `--allow-no-evidence` lets it pass.
    @Test func noGatePassesALogWithNoEvidence() throws {
        let otherFramework = Data("2014-03-02 09:14:05.001 Journal[412:60b] Journal 2.1 did finish launching\nSaved entry\n".utf8)
        for (name, log) in [("an empty log", Data()), ("another framework's log", otherFramework)] {
            for failOn in FormatAgreementTests.failOns where failOn.count == 1 {
                let run = try everyFormat(["--fail-on"] + failOn, stdin: log)
                expectEqual(run.status, (failOn == ["none"] ? 0 : 1), "\(name): --fail-on \(failOn)")
                for format in FormatAgreementTests.formats {
                    try expectEqual(saysFail(format, run.outputs[format] ?? ""), (failOn != ["none"]), "\(name): --fail-on \(failOn) --format \(format)")
                }
                // The app's own lines are info events: `--fail-on info` fails on them, evidence or not.
                let allowed = try Binary.run(["-q", "--fail-on"] + failOn + ["--allow-no-evidence"], stdin: log)
                expectEqual(allowed.status, (failOn == ["info"] && !log.isEmpty ? 1 : 0), "\(name): --fail-on \(failOn) --allow-no-evidence")
            }
        }
    }

    @Test func theDefaultPassesOnlyAHealthyVerdict() throws {
        let healthy = [["fixtures/scenarios/clean-cloud-load.log"], ["fixtures/device-console-daemons.log"]]
        for inputs in healthy { try expectEqual(Binary.run(["-q"] + inputs).status, 0, "\(inputs)") }
        for inputs in FormatAgreementTests.inputs where !healthy.contains(inputs) {
            try expect(Binary.run(["-q"] + inputs).status != 0, "\(inputs)")
        }
    }
}
