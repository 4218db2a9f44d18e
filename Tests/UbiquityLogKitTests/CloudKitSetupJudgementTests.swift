import Testing
import TestSupport
@testable import UbiquityLogKit

/// A set-up is judged per store: one store's success never overcomes another's failure, and a
/// set-up that began and never ended leaves the process short of `healthy`.
@Suite struct CloudKitSetupJudgementTests {
    static func setup(_ outcome: String, store: String) -> String {
        let url = "file:///Users/dev/Library/Application%20Support/\(store).sqlite"
        if outcome == "failed" {
            return "CoreData: error: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1242): <NSCloudKitMirroringDelegate: 0x600003d1c111>: Failed to set up CloudKit integration for store: <NSSQLCore: 0x10451caaa> (URL: \(url))\n<CKError 0x600000c1d4a0: \"Server Rejected Request\" (15/2000); server message = \"Internal server error\"; op = 8F2A1C3E4B5D6F70>"
        }
        return "CoreData: CloudKit: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1242): <NSCloudKitMirroringDelegate: 0x600003d1c000>: Successfully set up CloudKit integration for store (8B2E4C1A-6D3F-4A9E-B5C7-0F1E2D3C4B5A): <NSSQLCore: 0x10451c9a0> (URL: \(url))"
    }

    static func verdict(_ lines: [String]) throws -> (Verdict, String) {
        let summary = try summarize([("ck.log", lines.joined(separator: "\n") + "\n")])
        return (summary.verdict, summary.verdictSentence + ": " + (summary.verdicts.first?.evidence ?? []).joined(separator: "; "))
    }

    @Test func anotherStoresSuccessDoesNotOvercomeAFailedSetUp() throws {
        let (other, said) = try Self.verdict([Self.setup("failed", store: "Shared"), Self.setup("succeeded", store: "Private")])
        expectEqual(other, .broken, said)
        let (same, sameSaid) = try Self.verdict([Self.setup("failed", store: "Shared"), Self.setup("succeeded", store: "Shared")])
        expectEqual(same, .degraded, sameSaid)
    }

    @Test func aSetUpThatNeverEndsIsNotHealthy() throws {
        let enqueued = "CoreData+CloudKit: -[NSCloudKitMirroringDelegate _setUpCloudKitIntegration:](591): <NSCloudKitMirroringDelegate: 0x600003d1c000>: Successfully enqueued setup request: <NSCloudKitMirroringDelegateSetupRequest: 0x600002a00c30> 0C4F2A9E-3B1D-4E7C-8A5F-6D2B9E1C3A70"
        let executing = "CoreData+CloudKit: -[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke(3566): <NSCloudKitMirroringDelegate: 0x600003d1c000>: Executing: <NSCloudKitMirroringDelegateSetupRequest: 0x600002a00c30> 0C4F2A9E-3B1D-4E7C-8A5F-6D2B9E1C3A70"
        let (open, said) = try Self.verdict([enqueued, executing])
        expectEqual(open, .degraded, said)
        expect(said.contains("ck.log:2 set-up began and did not finish"), said)
        let (done, doneSaid) = try Self.verdict([enqueued, executing, Self.setup("succeeded", store: "Recipes")])
        expectEqual(done, .healthy, doneSaid)
    }
}
