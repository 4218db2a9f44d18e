// The CloudKit fixtures, one session per envelope, give the verdicts issue #29 asks for:
// the binary's JSON summary and exit status, read as a CI job would.
import Foundation
import Testing
import TestSupport

@Suite struct CloudKitEndToEndTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var fixture: String
        var verdict: String
        /// Exit status with the default `--fail-on` (degraded or worse fails).
        var status: Int32
        /// A text the verdict's evidence or the causes must hold.
        var evidence: String?
        var testDescription: String { fixture }
    }

    static let cases: [Case] = [
        Case(fixture: "healthy-xcode.log", verdict: "healthy", status: 0),
        Case(fixture: "schema-not-deployed.log", verdict: "broken", status: 1,
             evidence: "export blocked: field CD_rating of record type CD_Recipe is not in the production schema"),
        Case(fixture: "no-account.ndjson", verdict: "degraded", status: 1, evidence: "no iCloud account (134400)"),
        Case(fixture: "quota.log", verdict: "degraded", status: 1, evidence: "the user's iCloud storage is full"),
        Case(fixture: "two-containers.log", verdict: "broken", status: 1, evidence: "a second container mirrors the same store"),
        Case(fixture: "throttled-then-healthy.log", verdict: "healthy", status: 0),
        Case(fixture: "migrated-app.log", verdict: "degraded", status: 1, evidence: "Store Removed"),
    ]

    @Test(arguments: cases)
    func verdictAndExitStatus(_ item: Case) throws {
        let result = try Binary.run(["--format", "json", "fixtures/cloudkit/\(item.fixture)"])
        #expect(result.status == item.status)
        #expect(result.stderr == "")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(summary["verdict"] as? String == item.verdict)
        let cloudKit = try #require((summary["families"] as? [String: Any])?["cloudkit"] as? [String: Any], "the summary tells the CloudKit story")
        #expect((cloudKit["records"] as? Int ?? 0) > 0)
        if let evidence = item.evidence {
            let verdicts = summary["verdicts"] as? [[String: Any]] ?? []
            let said = verdicts.flatMap { $0["evidence"] as? [String] ?? [] }
            #expect(said.contains { $0.contains(evidence) }, "\(said)")
        } else {
            #expect((summary["verdicts"] as? [[String: Any]])?.first?["evidence"] as? [String] == [])
        }
    }

    @Test func schemaGapsAreCountedPerFieldWithTheRecordsTheyBlock() throws {
        let result = try Binary.run(["--format", "json", "fixtures/cloudkit/schema-not-deployed.log"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let causes = try #require(((summary["families"] as? [String: Any])?["cloudkit"] as? [String: Any])?["causes"] as? [[String: Any]])
        let rating = try #require(causes.first { ($0["text"] as? String)?.contains("CD_rating") == true })
        // Four distinct records across three reports (one record failed in both exports).
        #expect(rating["records"] as? Int == 4)
        #expect(rating["reports"] as? Int == 3)
        #expect(causes.contains { ($0["text"] as? String)?.contains("field CD_stepCount of record type CD_Recipe") == true })
    }

    @Test func theFamilyHasFailOnTerms() throws {
        // Quota is a warning: `--fail-on error` passes, the family's category and kind fail.
        #expect(try Binary.run(["-q", "--fail-on", "error", "fixtures/cloudkit/quota.log"]).status == 0)
        #expect(try Binary.run(["-q", "--fail-on", "account", "fixtures/cloudkit/quota.log"]).status == 1)
        #expect(try Binary.run(["-q", "--fail-on", "cloudkit-quota-exceeded", "fixtures/cloudkit/quota.log"]).status == 1)
        #expect(try Binary.run(["-q", "--fail-on", "schema", "fixtures/cloudkit/quota.log"]).status == 0)
        #expect(try Binary.run(["-q", "--fail-on", "schema", "fixtures/cloudkit/schema-not-deployed.log"]).status == 1)
        // A throttle that clears fails nothing, not even on warnings' category by verdict.
        #expect(try Binary.run(["-q", "--fail-on", "degraded", "fixtures/cloudkit/throttled-then-healthy.log"]).status == 0)
    }

    @Test func routineChatterOnlyFromVV() throws {
        let plain = try Binary.run(["fixtures/cloudkit/healthy-xcode.log"]).stdout
        let vv = try Binary.run(["-vv", "fixtures/cloudkit/healthy-xcode.log"]).stdout
        #expect(!plain.contains("Checking for pending requests"))
        let v = try Binary.run(["-v", "fixtures/cloudkit/healthy-xcode.log"]).stdout
        #expect(!v.contains("No more requests to execute"))
        #expect(v.contains("Executing:"))
        #expect(vv.contains("Checking for pending requests"))
        #expect(vv.contains("No more requests to execute"))
    }
}
