// A process's CloudKit failures are kept as the verdict can tell them apart, not one per
// record: a log that repeats a failure all day keeps two of it, and cites it as before.
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct CloudKitFailureMemoryTests {
    private func failure(_ text: String, line: Int) -> CloudKitTracker.Failure {
        CloudKitTracker.Failure(stage: "export", cause: .throttled, kind: .cloudKitRequestFailed, line: line, text: text)
    }

    @Test func oneFailureInOneEpochIsKeptOnce() {
        var failures = CloudKitTracker.Failures()
        for line in 1...1_000 { failures.add(failure("waiting", line: line), epoch: 0) }
        expectEqual(failures.all.map(\.line), [1])
    }

    @Test func aFailureThatRecursAfterSuccessesKeepsItsFirstAndNewest() {
        var failures = CloudKitTracker.Failures()
        for line in 1...1_000 {
            failures.add(failure("waiting", line: line), epoch: line / 10)
            failures.add(failure("other", line: line), epoch: 0)
        }
        expectEqual(failures.all.map(\.line), [1, 1, 1_000], "the first of each, then the first of the newest epoch of the one that recurs")
        expect(failures.kept.count < 200, "places of failures left out are given back")
    }

    /// The verdict cites a sentence once, where it first came; an input's name with a blank
    /// in it made each line's citation look different, and a repeated failure was cited three times.
    @Test func aRepeatedFailureIsCitedOnceWhateverTheInputIsCalled() throws {
        let failed = "2024-11-02 21:12:43.207459-0700 0x9a41     Error       0x0                  611    0    Notes Plus: (CoreData) [com.apple.coredata:CloudKit] CoreData+CloudKit: -[NSCloudKitMirroringDelegate _finishedRequest:withResult:](3584): Finished request: <private> with result: <private> storeIdentifier: <private> success: 0 madeChanges: 0 error: <CKError 0x3016c4a80: \"Service Unavailable\" (6/2022); \"Request failed with http status code 503\"; uuid = <private>; Retry after 30.0 seconds>"
        for name in ["phone.log", "My Logs/phone.log"] {
            let summary = try summarize([(name, Array(repeating: failed, count: 4).joined(separator: "\n"))])
            let verdict = try require(summary.verdicts.first)
            expectEqual(verdict.verdict, .degraded)
            expectEqual(verdict.evidence.count, 1, "\(name): \(verdict.evidence)")
            expectEqual(verdict.evidence.first?.hasPrefix("\(name):1 "), true, "\(verdict.evidence)")
        }
    }
}

@Suite struct CloudKitStoryBoundsTests {
    /// A day of set-ups, teardowns and an account that comes and goes: the story keeps the first
    /// `maxKeptFindings` of each list, and its counts stay exact.
    @Test func theStoryKeepsTheFirstOfEachListAndCountsEveryOne() throws {
        let cap = RunSummary.maxKeptFindings
        let prefix = "CoreData: CloudKit: CoreData+CloudKit: "
        let setUp = prefix + "-[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1242): <NSCloudKitMirroringDelegate: 0x600003d1c000>: Successfully set up CloudKit integration for store (8B2E4C1A-6D3F-4A9E-B5C7-0F1E2D3C4B5A): <NSSQLCore: 0x10451c9a0> (URL: file:///var/mobile/Recipes.sqlite)"
        let tearDown = prefix + "-[NSCloudKitMirroringDelegate tearDown:]_block_invoke(806): <NSCloudKitMirroringDelegate: 0x600003d1c000>: Told to tear down with reason: Store Removed"
        func account(_ status: String) -> String {
            "CoreData: warning: CoreData+CloudKit: -[PFCloudKitSetupAssistant _checkAccountStatus:]_block_invoke(521): Fetched account info for store 8B2E4C1A-6D3F-4A9E-B5C7-0F1E2D3C4B5A: <CKAccountInfo: 0x600000c3a3c0; accountStatus=\(status), accountPartition=Prod>\n(null)"
        }
        let rounds = cap + 200
        var lines: [String] = []
        for _ in 0..<rounds { lines += [setUp, tearDown, account("Available"), account("No account")] }
        let story = try require(summarize([("day.log", lines.joined(separator: "\n"))]).cloudKit)
        expectEqual(story.setupsSucceeded, rounds)
        expectEqual(story.stores.count, cap)
        expectEqual(story.teardowns.count, cap)
        expectEqual(story.account.count, cap)
        expectEqual(story.rows(in: RunSummary()).first?.value.contains("set-up: \(rounds) succeeded, 0 failed"), true, "\(story.rows(in: RunSummary()).first?.value ?? "")")
    }
}
