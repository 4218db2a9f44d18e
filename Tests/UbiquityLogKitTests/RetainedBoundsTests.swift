// What the summary keeps of a log is bounded whatever the log holds (issue #41): requests that
// never finish, failures that each name another field, request types, processes, peers and
// store UUIDs past their caps are counted, not kept. Each test checks the entries retained and
// that the counts stay exact.
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

/// Generated CloudKit and ubiquity records, in the envelopes real logs use.
enum GeneratedRecords {
    /// `0000002A-…`: a request id or store UUID of its own for each number.
    static func uuid(_ number: Int, _ salt: Int = 0) -> String {
        String(format: "%08X-%04X-4%03X-8000-%012X", number, salt, number % 0xFFF, number &* 7919)
    }

    /// A class name part made of letters alone (`[A-Za-z]+` in the request pattern).
    static func letters(_ number: Int) -> String {
        var rest = number
        var text = ""
        repeat {
            text.append(Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(rest % 26))))
            rest /= 26
        } while rest > 0
        return text
    }

    /// `Executing:` in the Xcode console (with a timestamp) or `log show`'s default style, by turns.
    static func executing(_ id: String, type: String = "Export", second: Int = 0) -> String {
        let message = "<NSCloudKitMirroringDelegate: 0x600003d1c000>: Executing: <NSCloudKitMirroring\(type)Request: 0x600002a1c0a0> \(id)"
        let clock = String(format: "09:%02d:%02d", second / 60 % 60, second % 60)
        return second % 2 == 0
            ? "2025-03-14 \(clock).532641+0100 Recipes[2210:8e41f] CoreData: debug: CoreData+CloudKit: -[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke(3566): \(message)"
            : "2025-03-14 \(clock).118204-0700 0x3c1f2    Default     0x0                  2210   0    Recipes: (CoreData) [com.apple.coredata:CloudKit] CoreData+CloudKit: -[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke(3583): \(message)"
    }

    static func finished(_ id: String, type: String = "Export", success: Bool = true, second: Int = 1) -> String {
        let clock = String(format: "09:%02d:%02d", second / 60 % 60, second % 60)
        return "2025-03-14 \(clock).907113+0100 Recipes[2210:8e41f] CoreData: debug: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _finishedRequest:withResult:](3584): Finished request: <NSCloudKitMirroring\(type)Request: 0x600002a2c0f0> \(id) with result: <NSCloudKitMirroringResult: 0x600000c2b480> storeIdentifier: 4C8A7D1E-2F6B-4E0A-9D3C-71B5A2E8F046 success: \(success ? 1 : 0) madeChanges: 0 error: \(success ? "(null)" : "<private>")"
    }

    /// An export refused for a field the production schema lacks, naming `field` of `recordType`.
    static func schemaGap(field: String, recordType: String = "CD_Recipe", number: Int = 0) -> String {
        "2023-09-21 16:04:11.027384-0700 0x1f3a09   Error       0x0                  5120   0    Pantry: (CoreData) [com.apple.coredata:CloudKit] CoreData+CloudKit: -[NSCloudKitMirroringDelegate _finishedRequest:withResult:](3584): Finished request: <NSCloudKitMirroringExportRequest: 0x600002b1c4e0> \(uuid(number, 3)) with result: <NSCloudKitMirroringResult: 0x600000d4a1c0> storeIdentifier: 71C3E5A7-9B1D-4F3A-8C5E-7A9B1D3F5A7C success: 0 madeChanges: 0 error: <CKError 0x600000c4e9b0: \"Partial Failure\" (2/1011); \"Failed to modify some records\"; partial errors: {\n\tREC-\(number):(com.apple.coredata.cloudkit.zone:__defaultOwner__) = <CKError 0x600000c4f2a0: \"Invalid Arguments\" (12/2006); server message = \"Cannot create or modify field '\(field)' in record '\(recordType)' in production schema\">\n}>"
    }

    static func classified(_ lines: [String]) throws -> [(record: Record, classification: Classification)] {
        try classify(lines.joined(separator: "\n"))
    }
}

@Suite struct CloudKitRequestBoundsTests {
    private typealias G = GeneratedRecords

    private func track(_ lines: [String]) throws -> CloudKitTracker {
        var tracker = CloudKitTracker()
        tracker.switchGroup(to: 0, input: "requests.log")
        for (record, classification) in try G.classified(lines) { tracker.add(record, classification.event) }
        return tracker
    }

    /// 500,000 `Executing:` lines with ids of their own took 283 MB: each stayed open to the end.
    /// The oldest open requests past the cap are let go, counted as unfinished unless their end
    /// comes; the counts of every type stay those of the records.
    @Test func requestsNeverFinishedKeepAtMostTheCapAndEachIsCounted() throws {
        let cap = CloudKitTracker.maxOpenRequests
        let count = cap + 1_500
        var lines = (0..<count).map { G.executing(G.uuid($0), second: $0 % 7) }
        // Two let go long ago, two still held: each ends once, and only a held one has a duration.
        lines += [0, 1, count - 2, count - 1].map { G.finished(G.uuid($0), second: 30) }
        let tracker = try track(lines)
        expect(tracker.openRequestCount <= cap)
        let tally = try require(tracker.finishedStory.requests.first { $0.type == "export" })
        expectEqual(tally.started, count)
        expectEqual(tally.succeeded, 4)
        expectEqual(tally.unfinished, count - 4)
        expectEqual(tally.timed, 2)
    }

    /// `Executing: <private>` twice, then `Finished request: <private>` twice: two requests, each
    /// ended once (it was `3 started, 2 failed`: the second start overwrote the first).
    @Test func privateRequestIdsAreNotOneRequest() throws {
        let start = "2024-11-02 21:12:40.101311-0700 0x9a41     Default     0x0                  611    0    Notes Plus: (CoreData) [com.apple.coredata:CloudKit] CoreData+CloudKit: -[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke(3583): <private>: Executing: <private>"
        let end = "2024-11-02 21:12:43.207459-0700 0x9a41     Error       0x0                  611    0    Notes Plus: (CoreData) [com.apple.coredata:CloudKit] CoreData+CloudKit: -[NSCloudKitMirroringDelegate _finishedRequest:withResult:](3584): Finished request: <private> with result: <private> storeIdentifier: <private> success: 0 madeChanges: 0 error: <private>"
        let story = try track([start, start, end, end]).finishedStory
        expectEqual(story.requests.map(\.started), [2], "\(story.requests)")
        expectEqual(story.requests.map(\.failed), [2])
        expectEqual(story.requests.map(\.unfinished), [0])
        // A type shown with a `<private>` id: the same, by type.
        let typed = try track([G.executing("<private>"), G.executing("<private>"), G.finished("<private>"), G.finished("<private>")]).finishedStory
        expectEqual(typed.requests.map(\.started), [2], "\(typed.requests)")
        expectEqual(typed.requests.map(\.succeeded), [2])
        expectEqual(typed.requests.map(\.unfinished), [0])
    }

    /// 40,000 request types took 0.9 s (each looked for along the list of types): past the cap a
    /// type is counted under one row for the others.
    @Test func requestTypesPastTheCapAreCountedTogether() throws {
        let cap = CloudKitTracker.maxRequestTypes
        let count = cap + 300
        let lines = (0..<count).map { G.executing(G.uuid($0), type: "Kind" + G.letters($0)) }
        let story = try track(lines).finishedStory
        expectEqual(story.requests.count, cap + 1)
        expectEqual(story.requests.last?.type, CloudKitTracker.otherRequestTypes)
        expectEqual(story.requests.last?.started, 300)
        expectEqual(story.requests.reduce(0) { $0 + $1.started }, count)
        expectEqual(story.requests.reduce(0) { $0 + $1.unfinished }, count)
    }
}

@Suite struct CloudKitCauseBoundsTests {
    private typealias G = GeneratedRecords

    /// 400,000 failures naming fields of their own took 262 MB: each was a failure and a cause of
    /// its own. Failures past the cap of distinct texts are told apart by their kind alone; the
    /// causes list keeps its first entries and counts the reports of the others.
    @Test func failuresNamingDistinctFieldsKeepAtMostTheCap() throws {
        let cap = CloudKitTracker.Failures.maxTexts
        var failures = CloudKitTracker.Failures()
        for line in 1...(cap + 2_000) {
            failures.add(CloudKitTracker.Failure(stage: "export", cause: .schemaMissingField, kind: .cloudKitRequestFailed, line: line,
                                                 text: "export blocked: field CD_f\(line) is not in the production schema"), epoch: 0)
        }
        let kept = Array(failures.all)
        expect(failures.keyCount <= cap + 1)
        expect(kept.count <= 2 * (cap + 1))
        expectEqual(kept.first?.line, 1, "the first is cited where it came")
    }

    @Test func causesPastTheCapAreCountedNotKept() throws {
        let cap = RunSummary.maxKeptFindings
        let count = cap + 250
        let lines = (0..<count).map { G.schemaGap(field: "CD_" + G.letters($0), recordType: "CD_Item", number: $0) }
        let summary = try summarize([("causes.log", lines.joined(separator: "\n"))])
        let story = try require(summary.cloudKit)
        expect(story.causes.count <= cap)
        expectEqual(story.causes.reduce(0) { $0 + $1.reports } + story.causeReportsNotListed, count)
        expectEqual(summary.verdict, .broken)
        let row = try require(story.rows(in: summary).first { $0.label == "cloudkit causes" })
        expect(row.value.contains("\(story.causeReportsNotListed) more reports"), "\(row.value)")
    }
}

@Suite struct ProcessBoundsTests {
    private typealias G = GeneratedRecords

    /// 200,000 processes of app lines took 353 MB: a summary and trackers' states for each.
    /// Processes past the cap are one group of the input, counted and judged together.
    @Test func processesPastTheCapAreCountedAndJudgedTogether() throws {
        let cap = SummaryBuilder.maxGroups
        let count = cap + 400
        var lines = (0..<count).map { number in
            number % 3 == 0
                ? "2014-03-02 09:14:07.318 App\(number)[\(number + 100):60b] Saved the draft."
                : "Mar  2 09:14:07 Joes-iPad Daemon\(number)[\(number + 100)] <Notice>: Refreshed \(number) items."
        }
        // The only failure comes from a process past the cap: it still decides the verdict.
        lines.append(G.schemaGap(field: "CD_rating", recordType: "CD_Recipe").replacingOccurrences(of: "Pantry:", with: "Late\(count):"))
        var builder = SummaryBuilder()
        builder.beginInput("console.log")
        for (record, classification) in try G.classified(lines) { builder.add(record, classification.event, message: "") }
        expect(builder.groupCount <= cap + 1)
        // Every process past the cap had a table entry of its own: 1,000,000 of them took 173 MB.
        expect(builder.groupsFoundByBytes <= cap, "\(builder.groupsFoundByBytes) processes kept by their bytes")
        let summary = builder.summary
        expectEqual(summary.records, count + 1)
        expectEqual(summary.verdict, .broken)
        let other = try require(summary.processes.first { $0.isOtherProcesses })
        expectEqual(other.process, ProcessSummary.otherProcessesName)
        expectEqual(other.syncRecords, 1)
        expect(other.isJudged)
    }

    /// The verdict listed one line per process: a console of thousands printed thousands. It
    /// lists the judged processes with the worst verdicts, and says how many it left out.
    @Test func theVerdictListsAFewProcessesAndTheOneThatDecides() throws {
        var processes = (0..<40).map { number in
            var process = ProcessSummary(input: "console.log", process: "Daemon\(number)")
            process.isJudged = number % 2 == 0
            process.verdict = .healthy
            return process
        }
        processes[33].isJudged = false
        processes[33].verdict = .broken
        processes[37].isJudged = false
        processes[37].verdict = .degraded
        processes[38].verdict = .broken
        processes[38].evidence = ["console.log:9 cloudkit-schema-not-deployed: export blocked"]
        let input = InputVerdict(input: "console.log", verdict: .broken, evidence: processes[38].evidence, processes: processes)
        let lines = SummaryText.verdictDetails(input, indent: "  ")
        let listed = lines.filter { !$0.hasPrefix("    ") && !$0.contains("more processes") }
        expectEqual(listed.count, SummaryText.maxVerdictProcesses)
        expect(lines.contains("  Daemon38: broken"), "\(lines)")
        expect(lines.contains("    console.log:9 cloudkit-schema-not-deployed: export blocked"))
        expect(!lines.contains { $0.hasPrefix("  Daemon33:") }, "a daemon not judged comes after the judged")
        expectEqual(lines.last, "  … and 30 more processes (all are in --format json)")
        let few = InputVerdict(input: "console.log", verdict: .healthy, evidence: [], processes: Array(processes.prefix(3)))
        expectEqual(SummaryText.verdictDetails(few, indent: "  ").count, 3, "a few processes are all listed")
    }
}

@Suite struct DeviceBoundsTests {
    private typealias G = GeneratedRecords

    static func storeUUIDLine(_ number: Int) -> String {
        "2014-03-02 09:14:07.318 Journal[412:60b] UbiquityStoreManager: Writing new StoreUUID:\(G.uuid(number, 9)) to StoreUUID (v2)."
    }

    static func peerLine(_ number: Int) -> String {
        "Mar  2 09:14:07 Joes-iPad Journal[412] <Warning>: -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): CoreData: Ubiquity:  mobile~\(G.uuid(number, 5)):JournalStore\nUsing local storage: \(number % 2)"
    }

    /// A device's peers and store UUIDs keep their first `maxKeptFindings` (the JSON `devices`
    /// lists passed it); each record naming one more is counted.
    @Test func aDeviceKeepsItsFirstPeersAndStoreUUIDsAndCountsTheRest() throws {
        let cap = RunSummary.maxKeptFindings
        let lines = (0..<(cap + 300)).flatMap { [Self.storeUUIDLine($0), Self.peerLine($0)] } + [Self.storeUUIDLine(3), Self.peerLine(cap + 5)]
        var tracker = TransactionLogTracker()
        tracker.beginInput("test.log")
        for (record, classification) in try G.classified(lines) { tracker.add(record, classification.event) }
        let device = try require(tracker.devices.first)
        expectEqual(device.storeUUIDs.count, cap)
        expectEqual(device.moreStoreUUIDs, 300, "one kept named again is not counted again")
        expectEqual(device.peers.count, cap)
        expectEqual(device.morePeers, 301, "one past the cap named again is counted again")
        let fields = JSON.object(device.fields)
        expect(fields.contains(#""moreStoreUUIDs":300"#), "\(fields.suffix(80))")
    }
}

/// Lists that grew by comparing each new entry with every one before: timed on a quarter of
/// the records and on all of them, the records classified beforehand. Linear work takes about
/// four times as long on all of them, quadratic sixteen. Timed as in LinearScanTests.swift.
@Suite struct ListGrowthTimeTests {
    private typealias G = GeneratedRecords
    private typealias Classified = [(record: Record, classification: Classification)]

    private func ratio(_ records: Classified, _ feed: (Classified.SubSequence) -> Void) -> (ratio: Double, short: Double, long: Double) {
        Timing.ratio(bound: 8, short: { feed(records.prefix(records.count / 4)) }, long: { feed(records[...]) })
    }

    /// 80,000 distinct store UUIDs or peers took over 8 s.
    @Test func storeUUIDsAndPeersAreAddedInLinearTime() throws {
        for line in [DeviceBoundsTests.storeUUIDLine, DeviceBoundsTests.peerLine] {
            let records = try G.classified((0..<8_000).map(line))
            let (ratio, short, long) = ratio(records) { records in
                var tracker = TransactionLogTracker()
                tracker.beginInput("test.log")
                for (record, classification) in records { tracker.add(record, classification.event) }
            }
            expect(ratio < 8, "2,000: \(short) s, 8,000: \(long) s")
        }
    }

    /// 40,000 request types took 0.9 s, each looked for along the list of types.
    @Test func requestTypesAreCountedInLinearTime() throws {
        let records = try G.classified((0..<12_000).map { G.executing(G.uuid($0), type: "Kind" + G.letters($0 * 31 + 17)) })
        let (ratio, short, long) = ratio(records) { records in
            var tracker = CloudKitTracker()
            tracker.switchGroup(to: 0, input: "requests.log")
            for (record, classification) in records { tracker.add(record, classification.event) }
        }
        expect(ratio < 8, "3,000: \(short) s, 12,000: \(long) s")
    }
}
