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
        expectEqual(result.status, item.status)
        expectEqual(result.stderr, "")
        let summary = try require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        expectEqual(summary["verdict"] as? String, item.verdict)
        let cloudKit = try require((summary["families"] as? [String: Any])?["cloudkit"] as? [String: Any], "the summary tells the CloudKit story")
        expect((cloudKit["records"] as? Int ?? 0) > 0)
        if let evidence = item.evidence {
            let verdicts = summary["verdicts"] as? [[String: Any]] ?? []
            let said = verdicts.flatMap { $0["evidence"] as? [String] ?? [] }
            expect(said.contains { $0.contains(evidence) }, "\(said)")
        } else {
            expectEqual((summary["verdicts"] as? [[String: Any]])?.first?["evidence"] as? [String], [])
        }
    }

    @Test func schemaGapsAreCountedPerFieldWithTheRecordsTheyBlock() throws {
        let result = try Binary.run(["--format", "json", "fixtures/cloudkit/schema-not-deployed.log"])
        let summary = try require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let causes = try require(((summary["families"] as? [String: Any])?["cloudkit"] as? [String: Any])?["causes"] as? [[String: Any]])
        let rating = try require(causes.first { ($0["text"] as? String)?.contains("CD_rating") == true })
        // Four distinct records across three reports (one record failed in both exports).
        expectEqual(rating["records"] as? Int, 4)
        expectEqual(rating["reports"] as? Int, 3)
        expect(causes.contains { ($0["text"] as? String)?.contains("field CD_stepCount of record type CD_Recipe") == true })
    }

    @Test func theFamilyHasFailOnTerms() throws {
        // Quota is a warning: `--fail-on error` passes, the family's category and kind fail.
        try expectEqual(Binary.run(["-q", "--fail-on", "error", "fixtures/cloudkit/quota.log"]).status, 0)
        try expectEqual(Binary.run(["-q", "--fail-on", "account", "fixtures/cloudkit/quota.log"]).status, 1)
        try expectEqual(Binary.run(["-q", "--fail-on", "cloudkit-quota-exceeded", "fixtures/cloudkit/quota.log"]).status, 1)
        try expectEqual(Binary.run(["-q", "--fail-on", "schema", "fixtures/cloudkit/quota.log"]).status, 0)
        try expectEqual(Binary.run(["-q", "--fail-on", "schema", "fixtures/cloudkit/schema-not-deployed.log"]).status, 1)
        // A throttle that clears fails nothing, not even on warnings' category by verdict.
        try expectEqual(Binary.run(["-q", "--fail-on", "degraded", "fixtures/cloudkit/throttled-then-healthy.log"]).status, 0)
    }

    @Test func routineChatterOnlyFromVV() throws {
        let plain = try Binary.run(["fixtures/cloudkit/healthy-xcode.log"]).stdout
        let vv = try Binary.run(["-vv", "fixtures/cloudkit/healthy-xcode.log"]).stdout
        expect(!plain.contains("Checking for pending requests"))
        let v = try Binary.run(["-v", "fixtures/cloudkit/healthy-xcode.log"]).stdout
        expect(!v.contains("No more requests to execute"))
        expect(v.contains("Executing:"))
        expect(vv.contains("Checking for pending requests"))
        expect(vv.contains("No more requests to execute"))
    }
}

/// Issue #41: an NDJSON event longer than the line reader's cap (1 MiB) is still an event.
@Suite struct LongNDJSONEventTests {
    private let scratch: ScratchFolder
    init() throws { scratch = try ScratchFolder("parselogs-long-event") }

    /// A CloudKit partial failure of `entries` records, as `log show` prints its message.
    private func failureMessage(entries: Int) -> String {
        var message = "CoreData+CloudKit: -[NSCloudKitMirroringDelegate _finishedRequest:withResult:](3584): Finished request: "
            + "<NSCloudKitMirroringExportRequest: 0x2819a4be0> 7B9D1F3A-5C7E-4A2B-8D0F-1E3A5C7B9D2F with result: "
            + "<NSCloudKitMirroringResult: 0x28315c0c0> storeIdentifier: D17A3B5C-9E2F-4C8A-B6D4-1F3E5A7C9B0D success: 0 madeChanges: 0 "
            + "error: <CKError 0x2839c4b70: \"Partial Failure\" (2/1011); \"Failed to modify some records\"; "
            + "uuid = 1A3C5E7F-9B2D-4F6A-8C0E-2B4D6F8A0C1E; container ID = \"iCloud.com.example.recipes\"; partial errors: {"
        for index in 0..<entries {
            let id = String(format: "E3F5A7B9-%04d-4C2E-9A1B-3D5F7A9C1E01", index)
            message += "\n\t\(id):(com.apple.coredata.cloudkit.zone:__defaultOwner__) = <CKError 0x283981a50: \"Invalid Arguments\" (12/2006); "
                + "server message = \"Cannot create or modify field 'CD_rating' in record 'CD_Recipe' in production schema\"; "
                + "op = 4E2A9C1B7D3F5A80; uuid = 6C8E0A2B-4D6F-4817-9B3D-5F7A9C1E3B5D; container ID = \"iCloud.com.example.recipes\">"
        }
        return message + "\n}>"
    }

    private func jsonString(_ text: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes]), as: UTF8.self)
            .dropFirst().dropLast().description
    }

    private func verdict(_ result: RunResult) -> String? {
        result.stdout.split(separator: "\n").first { $0.hasPrefix("Verdict:") }.map(String.init)
    }

    @Test func longEventIsReadAsAnEvent() throws {
        let message = failureMessage(entries: 6_000)
        expect(message.utf8.count > 1 << 20)
        let text = "2025-04-02 11:02:17.640288+0200 0x1c2b44   Default     0x0                  3144   0    Recipes: "
            + "(CoreData) [com.apple.coredata:CloudKit] " + message + "\n"
        let event = "{\"traceID\": 812736451, \"eventMessage\": \(try jsonString(message)), \"eventType\": \"logEvent\", "
            + "\"source\": null, \"formatString\": \"%s\", \"subsystem\": \"com.apple.coredata\", \"category\": \"CloudKit\", "
            + "\"threadID\": 1846084, \"processImagePath\": \"/private/var/containers/Bundle/Application/5D7F9A1B/Recipes.app/Recipes\", "
            + "\"timestamp\": \"2025-04-02 11:02:17.640288+0200\", \"messageType\": \"Default\", \"processID\": 3144}\n"
        let textPath = try scratch.write("long.log", Data(text.utf8))
        let eventPath = try scratch.write("long.ndjson", Data(event.utf8))

        let asText = try Binary.run([textPath])
        let asEvent = try Binary.run([eventPath])
        expectEqual(verdict(asText)?.hasPrefix("Verdict: broken"), true)
        expectEqual(verdict(asEvent), verdict(asText))
        expectEqual(asEvent.status, asText.status)
        expectEqual(asEvent.status, 1)
        // The header fields after the message are kept: the event is Recipes' own.
        let named = try Binary.run(["--process", "Recipes", eventPath])
        expectEqual(verdict(named), verdict(asText))
        // So is a long event after a short one (the input is known as NDJSON by then).
        let first = "{\"eventMessage\": \"CoreData+CloudKit: -[NSCloudKitMirroringDelegate _setUpCloudKitIntegration:](591): Successfully enqueued setup request\", "
            + "\"processImagePath\": \"/Recipes.app/Recipes\", \"timestamp\": \"2025-04-02 11:02:17.100000+0200\", \"processID\": 3144}\n"
        let secondPath = try scratch.write("second.ndjson", Data((first + event).utf8))
        let second = try Binary.run(["--process", "Recipes", secondPath])
        expectEqual(verdict(second), verdict(asText))
        expectEqual(second.status, 1)
        // The message is capped, and says so.
        let json = try Binary.run(["--format", "json", eventPath])
        expect(json.stdout.contains("\"truncatedRecords\":1,"))
    }
}
