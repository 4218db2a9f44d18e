// Every format says the same about whether a run fails, and the exit status follows it: the
// text summary's `Outcome:` line, the JSON summary's `outcome`, the Markdown heading's
// Fails/Passes, GitHub's `::error` annotations, JUnit's failures.
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
        ["fixtures/scenarios/empty.log"],
        ["fixtures/scenarios/clean-cloud-load.log", "no-such.log"],
    ]
    static let failOns = ["degraded", "broken", "none", "import-failed", "no-evidence"]

    /// Whether a format's output says the run fails.
    private func saysFail(_ format: String, _ stdout: String) throws -> Bool {
        switch format {
        case "text":
            let outcome = try #require(stdout.split(separator: "\n").last { $0.hasPrefix("Outcome: ") })
            return outcome.hasPrefix("Outcome: fail")
        case "json", "jsonl":
            let last = try #require(stdout.split(separator: "\n").last)
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
            let outcome = try #require(summary["outcome"] as? [String: Any])
            return try #require(outcome["result"] as? String) == "fail"
        case "markdown":
            return stdout.contains("\n**Fails** the run")
        case "github":
            return stdout.split(separator: "\n").contains { $0.hasPrefix("::error ") }
        case "junit":
            let document = try XMLDocument(data: Data(stdout.utf8))
            return try #require(document.nodes(forXPath: "/testsuites/@failures").first?.stringValue) != "0"
        default:
            Issue.record("unknown format \(format)")
            return false
        }
    }

    @Test(arguments: inputs)
    func everyFormatAgreesWithTheExitStatus(inputs: [String]) throws {
        for failOn in FormatAgreementTests.failOns {
            var statuses: [String: Int32] = [:]
            for format in ["text", "json", "jsonl", "markdown", "github", "junit"] {
                let result = try Binary.run(["--format", format, "--fail-on", failOn] + inputs)
                statuses[format] = result.status
                #expect([0, 1, 2].contains(result.status))
                #expect(try saysFail(format, result.stdout) == (result.status != 0), "\(format) --fail-on \(failOn) \(inputs): status \(result.status)")
            }
            #expect(Set(statuses.values).count == 1, "--fail-on \(failOn) \(inputs): \(statuses)")
        }
    }

    @Test func theDefaultPassesOnlyAHealthyVerdict() throws {
        let healthy = [["fixtures/scenarios/clean-cloud-load.log"], ["fixtures/device-console-daemons.log"]]
        for inputs in healthy { #expect(try Binary.run(["-q"] + inputs).status == 0, "\(inputs)") }
        for inputs in FormatAgreementTests.inputs where !healthy.contains(inputs) {
            #expect(try Binary.run(["-q"] + inputs).status != 0, "\(inputs)")
        }
    }
}
