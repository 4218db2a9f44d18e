// Counts and sums fed by a log's values hold at the integer's bounds: a log that says a
// billion billion objects, or stamps a request at year 1 and its end at 9999, makes a large
// figure, never a trap (issue #41: status 132 and no output).
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct SaturationTests {
    private let header = "0x9a41     Default     0x0                  611    0    Notes: (CoreData) [com.apple.coredata:CloudKit] "

    @Test func theHelperHoldsAtTheBounds() {
        var sum = Int.max - 1
        sum.saturatingAdd(5)
        expectEqual(sum, .max)
        sum.saturatingAdd(-3)
        expectEqual(sum, .max - 3)
        var low = Int.min + 1
        low.saturatingAdd(-5)
        expectEqual(low, .min)
        expectEqual((40).saturatingAdding(2), 42)
    }

    @Test func aDurationOfAnySizePrints() {
        for milliseconds in [Int.max, Int.min, Int.max - 49, Int.min + 49, -999, 0, 999, 1_000, -1_000] {
            expect(!SummaryText.duration(milliseconds).isEmpty)
        }
        expectEqual(SummaryText.duration(1_250), "1.3 s")
        expectEqual(SummaryText.duration(-1_250), "-1.3 s")
        expectEqual(SummaryText.duration(400), "400 ms")
    }

    @Test func objectCountsNearIntMaxAddUpWithoutATrap() throws {
        let found = "CoreData: debug: CoreData+CloudKit: -[PFCloudKitExporter exportIfNecessary]_block_invoke_2(196): <PFCloudKitExporter: 0x1>: Found 999999999999999999 objects needing export."
        let summary = try summarize([("a.log", Array(repeating: found, count: 10).joined(separator: "\n"))])
        let story = try require(summary.cloudKit)
        expectEqual(story.objectsToExport, .max)
        expect(SummaryText.lines(summary).joined(separator: "\n").contains("found needing export"))
    }

    /// Requests stamped at year 1 and 9999: each lasts 3×10^14 ms, and 30,000 of them pass
    /// `Int.max` in the tally's total. Stamped the other way round, each lasts as long below
    /// zero: no duration (the clock was reset), as a store load's.
    @Test func requestDurationsAtTheEndsOfTimeAddUpWithoutATrap() throws {
        let early = "0001-01-01 00:00:00.000000-0000 "
        let late = "9999-12-31 23:59:59.999999-0000 "
        let executing = "CoreData+CloudKit: -[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke(3566): <NSCloudKitMirroringDelegate: 0x1>: Executing: <NSCloudKitMirroringExportRequest: 0x2> 3A5C7E9B-1D3F-4A5C-8E7A-9B1D3F5A7C9E"
        let finished = "CoreData+CloudKit: -[NSCloudKitMirroringDelegate _finishedRequest:withResult:](3584): Finished request: <NSCloudKitMirroringExportRequest: 0x2> 3A5C7E9B-1D3F-4A5C-8E7A-9B1D3F5A7C9E with result: <NSCloudKitMirroringResult: 0x3> storeIdentifier: 71C3E5A7-9B1D-4F3A-8C5E-7A9B1D3F5A7C success: 1 madeChanges: 1 error: (null)"
        for (start, end, sign) in [(early, late, 1), (late, early, -1)] {
            let pair = start + header + executing + "\n" + end + header + finished + "\n"
            let summary = try summarize([("a.log", String(repeating: pair, count: 30_000))])
            let tally = try require(summary.cloudKit?.requests.first)
            expectEqual(tally.succeeded, 30_000)
            expectEqual(tally.timed, (sign > 0 ? 30_000 : 0))
            expectEqual(tally.totalMilliseconds, (sign > 0 ? Int.max : 0))
            expectEqual(tally.longestMilliseconds, (sign > 0 ? 315_537_897_599_999 : 0))
            expect(!SummaryText.lines(summary).isEmpty)
        }
    }
}
