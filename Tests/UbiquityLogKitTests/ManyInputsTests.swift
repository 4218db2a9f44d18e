// Many inputs cost what their records cost (issue #46): an input's end closes the state of its
// own process groups, not of every group of every earlier input. Timed as LinearScanTests are:
// in the thread's CPU time, the short and long runs in turns.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct ManyInputsTests {
    /// One input: `processes` processes, each beginning a store load that the input's end
    /// leaves unfinished, so that every group has a tracker's state to close.
    static func input(processes: Int) -> String {
        (0..<processes).map { process in
            "2014-03-02 09:14:05.118 App\(process)[\(400 + process):60b] UbiquityStoreManager: Will load cloud store.\n"
        }.joined()
    }

    /// The summary of `count` such inputs, read one after another by one run.
    static func summarize(inputs count: Int, text: String, catalog: Catalog) throws -> RunSummary {
        let run = LogRun(catalog: catalog, reporters: [])
        run.usesThreads = false
        for index in 0..<count {
            var source = MemorySource(text)
            try run.process(&source, name: "input-\(index).log")
        }
        return run.finish()
    }

    /// Every family's tracker through `inputs` inputs of `groups` process groups each, as the
    /// summary drives them: an input begins, then its groups' records come, each group new.
    static func drive(inputs: Int, groups: Int) {
        let trackers = Catalog.families.map { $0.makeTracker() }
        var group = 0
        for input in 0..<inputs {
            let name = "input-\(input).log"
            for tracker in trackers { tracker.beginInput(name) }
            for _ in 0..<groups {
                for tracker in trackers { tracker.switchGroup(to: group, input: name) { "App\(group)" } }
                group += 1
            }
        }
        _ = trackers.map { $0.ending(inputs: []) }
    }

    /// Four times the inputs take about four times as long. When each input's beginning
    /// closed the state of every group of every earlier input, 50 inputs of 64 groups to 200
    /// took 16 times as long, and the ratio grows with the count.
    @Test func inputsCostWhatTheirGroupsCost() {
        let (ratio, short, long) = Timing.ratio(bound: 8, short: { Self.drive(inputs: 50, groups: 64) },
                                                long: { Self.drive(inputs: 200, groups: 64) })
        expect(ratio < 8, "50 inputs: \(short) s, 200 inputs: \(long) s")
    }

    /// The run's end, its verdicts and the summary's text, for eight times the inputs takes
    /// about eight times as long (5 in debug builds). When each input's verdict looked through
    /// every input's processes, and each device's line through every input's loads, it took 30
    /// times as long, and the end of 1,000 inputs of 5 KB cost more than reading them.
    @Test func theEndCostsWhatTheInputsCost() throws {
        let text = Self.input(processes: 2)
        try Self.expectEndScales(input: { _ in text }) { summary, count in
            expect(SummaryText.lines(summary).contains { $0.contains("\(count) inputs, one device each") })
        }
    }

    /// The run's end (`finish`, and what `check` does with its summary) for 1,600 inputs takes
    /// less than 16 times as long as for 200, in the thread's CPU time: the two are timed in
    /// turns, each keeping its best, until the ratio is below 16 or five rounds are done.
    /// `input(index)` is the text of the input of that index.
    static func expectEndScales(input: (Int) -> String, check: (RunSummary, Int) -> Void) throws {
        let catalog = try Catalog.standard()
        func end(inputs count: Int) throws -> Double {
            let run = LogRun(catalog: catalog, reporters: [])
            run.usesThreads = false
            for index in 0..<count {
                var source = MemorySource(input(index))
                try run.process(&source, name: "input-\(index).log")
            }
            let start = Timing.cpuSeconds()
            let summary = run.finish()
            check(summary, count)
            return Timing.cpuSeconds() - start
        }
        var short = Double.infinity, long = Double.infinity, ratio = Double.infinity
        for _ in 0..<5 where ratio >= 16 {
            short = min(short, try end(inputs: 200))
            long = min(long, try end(inputs: 1_600))
            ratio = max(long, 0.001) / max(short, 0.000_25)
        }
        expect(ratio < 16, "the end of 200 inputs: \(short) s, of 1,600: \(long) s")
    }

    /// One input whose device failed to import a log of its own (`transaction`) from a peer no
    /// input shows, and moved to a cloud store no input wrote: each of its links is looked for
    /// among every device of the run.
    static func unlinkedInput(transaction: Int) -> String {
        let path = "\(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.\(transaction).cdt"
        return [
            "2014-06-12 10:15:02.700 Journal[412:60b] -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): CoreData: Ubiquity:  \(Sample.peer):JournalStore\nUsing local storage: 0",
            "2014-06-12 10:15:44.807 Journal[412:4e13] -[_PFUbiquityRecordsImporter operation:failedWithError:](1489): CoreData: Ubiquity:  Import operation encountered had trouble importing log file, Error Domain=NSCocoaErrorDomain Code=134302 \"x\" UserInfo=0x1 {}\n User Info: {\n}\n The log file is at: \(path).\nOperation: <_PFUbiquityRecordImportOperation: 0x2>",
            "2014-06-12 10:15:50.000 Journal[412:1403] UbiquityStoreManager: StoreUUID changed 5A1E2F3B-7C8D-4E9F-A0B1-C2D3E4F5A6B7 -> 9B8C7D6E-5F40-4132-A3B4-C5D6E7F8A9B0",
        ].joined(separator: "\n") + "\n"
    }

    /// The links between devices, for eight times the inputs, take about eight times as long.
    /// When each failed import and each move looked through every device for its peer or its
    /// store, the end of 1,600 inputs took 44 times as long as that of 200 (a debug build).
    @Test func theLinksBetweenDevicesCostWhatTheInputsCost() throws {
        try Self.expectEndScales(input: { Self.unlinkedInput(transaction: $0) }) { summary, count in
            expectEqual(summary.ubiquity.correlations.count, min(count, TransactionLogTracker.maxLogs))
            expect(summary.ubiquity.correlations.first?.hasSuffix("; peer \(Sample.otherPeer) wrote it, which no input shows") == true)
        }
    }

    /// A regular file below `LogRun.smallInputBytes` is read on the caller's thread; one as
    /// large, a pipe and an input without a descriptor (a decompressed one) go through the
    /// stage threads.
    @Test func onlySmallRegularFilesSkipTheStageThreads() throws {
        let folder = try ScratchFolder("many-inputs")
        func opened(_ bytes: Int) throws -> Int32 {
            let path = try folder.write("\(bytes).log", Data(repeating: 0x0A, count: bytes))
            return open(path, O_RDONLY)
        }
        let small = try opened(LogRun.smallInputBytes - 1), large = try opened(LogRun.smallInputBytes)
        defer { close(small); close(large) }
        expect(LogRun.isSmall(small))
        expect(!LogRun.isSmall(large))
        expect(!LogRun.isSmall(nil))
        var ends: [Int32] = [-1, -1]
        try require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        expect(!LogRun.isSmall(ends[0]))
    }

    /// Every input's loads are closed at its end, unfinished, each with its own input and
    /// process, in log order.
    @Test func eachInputClosesItsOwnLoads() throws {
        let summary = try Self.summarize(inputs: 3, text: Self.input(processes: 5), catalog: try Catalog.standard())
        let loads = summary.ubiquity.storeLoadAttempts
        expectEqual(loads.map(\.input), (0..<3).flatMap { input in Array(repeating: "input-\(input).log", count: 5) })
        expectEqual(loads.map(\.process), Array(repeating: (0..<5).map { "App\($0)" }, count: 3).flatMap { $0 })
        expect(loads.allSatisfy { $0.outcome == .unfinished })
    }
}
