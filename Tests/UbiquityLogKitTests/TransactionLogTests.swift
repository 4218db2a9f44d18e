import Testing
import TestSupport
@testable import UbiquityLogKit

/// Transaction logs across devices, object changes per entity, and the links between inputs.
@Suite struct TransactionLogTests {
    static let peerA = Sample.peer
    static let peerB = Sample.otherPeer
    static let log = Sample.logFile
    static let path = "\(Sample.root)/\(peerB)/JournalStore/\(Sample.storeUUID)/\(log)"

    private func at(_ thread: String, _ time: String, _ message: String) -> String {
        "2014-06-12 10:15:\(time) Journal[412:\(thread)] \(message)"
    }

    @Test func anImportIsTiedToItsLogByTheThreadThatParsedIt() throws {
        let log = [
            at("4e13", "01.000", "-[_PFUbiquityRecordImportOperation main](188): CoreData: Ubiquity:  <_PFUbiquityRecordImportOperation: 0x1>: Beginning parse of log file: <PFUbiquityLocation: 0x2>: \(Self.path)"),
            at("5a07", "01.500", "-[_PFUbiquityRecordImportOperation main](390): CoreData: Ubiquity:  Changes applied for transaction log content, managed object context changes: \n\tinserted: {(\n)}\n\tupdated: {(\n)}\n\tdeleted: {(\n)}."),
            at("4e13", "02.000", "-[_PFUbiquityRecordImportOperation main](390): CoreData: Ubiquity:  Changes applied for transaction log content, managed object context changes: \n\tinserted: {(\n    <Entry: 0x3> (entity: Entry; id: 0x4 <x-coredata://S/Entry/p31> ; data: <fault>)\n)}\n\tupdated: {(\n)}\n\tdeleted: {(\n)}."),
        ].joined(separator: "\n")
        let summary = try summarize([("a.log", log)])
        expectEqual(summary.ubiquity.transactionLogs, [TransactionLogStory(name: Self.log, peer: Self.peerB, imports: [.init(input: "a.log", line: 9, outcome: .applied, startLine: 1)])])
        expectEqual(summary.ubiquity.entities, ["Entry": EntityChanges(exported: 0, imported: 1)])
    }

    @Test func anImportThatNeverFinishedStaysStarted() throws {
        let log = at("4e13", "01.000", "-[_PFUbiquityRecordImportOperation main](188): CoreData: Ubiquity:  <_PFUbiquityRecordImportOperation: 0x1>: Beginning parse of log file: <PFUbiquityLocation: 0x2>: \(Self.path)")
        let summary = try summarize([("a.log", log)])
        expectEqual(summary.ubiquity.transactionLogs.first?.imports, [.init(input: "a.log", line: 1, outcome: .started)])
        expect(SummaryText.lines(summary).contains("    \(Self.log) (peer \(Self.peerB)): started at a.log:1"))
    }

    @Test func aLogImportedManyTimesIsOneLineOfCountsWithTheFirstPlaces() {
        var story = TransactionLogStory(name: Self.log, peer: Self.peerB, writtenIn: "b.log", writtenLine: 40)
        story.imports = (1...80).map { .init(input: "a.log", line: $0, outcome: .alreadyImported) }
            + (1...7).map { .init(input: "a.log", line: 100 + $0, outcome: .failed) }
            + [.init(input: "a.log", line: 200, outcome: .applied, startLine: 190),
               .init(input: "a.log", line: 210, outcome: .skipped)]
        expectEqual(UbiquityStory.describe(story), "\(Self.log) (peer \(Self.peerB)): written at b.log:40; "
                + "7 failed at a.log:101, a.log:102, a.log:103 and 4 more; skipped at a.log:210; applied at a.log:190-200; 80 already-imported")
    }

    @Test func theFolderOfALogNamesItsPeer() throws {
        let record = try require(assemble(at("4e13", "01.000", "CoreData: Ubiquity:  Skipping log because it has already been imported into the local store: <PFUbiquityLocation: 0x1>: \(Self.path)")).first)
        expectEqual(TransactionLogTracker.peer(holding: Self.log, in: record), Self.peerB)
        expect(TransactionLogTracker.isPeerID("mobile.6F2C0E8A1B7D4C559A342B8E1D0C7F11"))
        expect(!TransactionLogTracker.isPeerID("JournalStore"))
        expect(!TransactionLogTracker.isPeerID("5A1E2F3B-7C8D-4E9F-A0B1-C2D3E4F5A6B7"))
    }

    @Test func devicesAreLinkedByTheLogsTheyWroteAndTheStoresTheyRebuilt() throws {
        let failure = at("4e13", "44.807", "-[_PFUbiquityRecordsImporter operation:failedWithError:](1489): CoreData: Ubiquity:  Import operation encountered had trouble importing log file, Error Domain=NSCocoaErrorDomain Code=134302 \"x\" UserInfo=0x1 {}\n User Info: {\n}\n The log file is at: \(Self.path).\nOperation: <_PFUbiquityRecordImportOperation: 0x2>")
        let iphone = [
            at("60b", "02.700", "-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): CoreData: Ubiquity:  \(Self.peerA):JournalStore\nUsing local storage: 0"),
            failure,
            at("1403", "50.000", "UbiquityStoreManager: StoreUUID changed 5A1E2F3B-7C8D-4E9F-A0B1-C2D3E4F5A6B7 -> 9B8C7D6E-5F40-4132-A3B4-C5D6E7F8A9B0"),
        ].joined(separator: "\n")
        let ipad = [
            at("60b", "40.100", "-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): CoreData: Ubiquity:  \(Self.peerB):JournalStore\nUsing local storage: 0"),
            at("3a07", "45.000", "UbiquityStoreManager: Cloud content corruption detected (device store is healthy)."),
            at("3a07", "45.100", "UbiquityStoreManager: Will rebuild cloud content from the cloud store (using cloud logs)."),
            at("3a07", "46.000", "UbiquityStoreManager: Writing new StoreUUID:9B8C7D6E-5F40-4132-A3B4-C5D6E7F8A9B0 to /x/StoreUUID (v1)."),
        ].joined(separator: "\n")
        let summary = try summarize([("iphone.log", iphone), ("ipad.log", ipad)])
        expectEqual(summary.ubiquity.devices.map(\.peers), [[Self.peerA], [Self.peerB]])
        expectEqual(summary.ubiquity.devices[1].deviceStore, "healthy")
        // Logs first, then the devices in input order.
        expectEqual(summary.ubiquity.correlations, [
            "\(Self.log) failed to import on iphone.log:3; it comes from ipad.log (peer \(Self.peerB))",
            "iphone.log moved to the cloud store ipad.log rebuilt, 9B8C7D6E-5F40-4132-A3B4-C5D6E7F8A9B0 (iphone.log:8, ipad.log:5)",
            "ipad.log: its store was healthy; it rebuilt the cloud content (ipad.log:4)",
        ])
    }
}

/// The peer found on bytes is the one found by Characters, for paths and record texts built
/// from pieces that matter to either: peers of each spelling, near misses, empty components,
/// line ends (`\r\n` is one Character), and text the bytes cannot stand for (which takes the
/// Character path).
@Suite struct PeerSearchTests {
    static let pieces = [
        "/", "/", "//", "mobile~6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F11", "mobile.6F2C0E8A1B7D4C559A342B8E1D0C7F11", "~6F2C0E8A1B7D4C559A342B8E1D0C7F11",
        "mobile~6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F1", "mobile~6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F11Z", "a~b.6F2C0E8A1B7D4C559A342B8E1D0C7F11", "x.",
        "CoreDataLogs", "JournalStore", "Mobile Documents", "\n", "\r\n", "\r", " ", "é", "\u{301}", "log.cdt", "/log.cdt",
    ]

    @Test func thePeerOfAPathIsTheSameOnBytes() {
        var generator = SeededGenerator(state: 30)
        for _ in 0..<4000 {
            let path = (0..<Int.random(in: 0...8, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator) ?? "" }.joined()
            expectEqual(TransactionLogTracker.peer(inPath: path), TransactionLogTracker.peerByCharacters(inPath: path), "\(path.debugDescription)")
        }
    }

    @Test func thePeerHoldingALogIsTheSameOnBytes() {
        var generator = SeededGenerator(state: 31)
        for _ in 0..<2000 {
            let text = (0..<Int.random(in: 0...10, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator) ?? "" }.joined()
            let record = Record(input: "a.log", firstLine: 1, lineCount: 1, text: Array(text.utf8), header: nil, bodyStart: 0)
            for log in ["log.cdt", "cdt", "mobile", "\u{301}", "x\ny"] {
                expectEqual(TransactionLogTracker.peer(holding: log, in: record), TransactionLogTracker.peerByCharacters(holding: log, in: record), "\(log) in \(text.debugDescription)")
            }
        }
    }
}
