// Names a user can find (issue #28, item 3): a transaction log by its `.cdt` file, never by
// an object's description; an unhandled record by its logging method and its words, not the
// description before them; a store by its file name, saying when it sits in the ubiquity
// container.
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct NamingTests {
    static let root = "/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs"
    static let otherPeer = "mobile~A3D19B52-7E0C-4F8A-B1D6-5C2E9F04A7B3"
    static let logFile = "DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.7.cdt"
    static let ios7 = "2014-03-02 09:14:07.318 Journal[412:60b] "

    /// Import failures that print the log as `<PFUbiquityTransactionLog: 0x…>`: the log is
    /// named by the `.cdt` file the record shows elsewhere (its `transactionLogLocation:`, a
    /// path), keeps its peer, and the cross-device link to the device that wrote it holds.
    @Test(arguments: [
        "Error saving managed object context changes for transaction log: <PFUbiquityTransactionLog: 0x1d5e3f20>\n\ttransactionLogLocation: <PFUbiquityLocation: 0x1d5e4a10>: \(root)/\(otherPeer)/JournalStore/6F0D/\(logFile)\n\ttransactionNumber: 7\nError: Error Domain=NSCocoaErrorDomain Code=134302 \"(null)\" UserInfo={reason=Could not save, merge conflict}",
        "Error loading comparison metadata for transaction log: <PFUbiquityTransactionLog: 0x1d5e3f20>\nLocation: file://\(root)/\(otherPeer)/JournalStore/6F0D/\(logFile)",
    ])
    func aTransactionLogIsNamedByItsFile(_ message: String) throws {
        let failing = Self.ios7 + "-[_PFUbiquityRecordImportOperation main](402): CoreData: Ubiquity:  " + message
        let event = try require(classify(failing).first).classification.event
        guard case .importFailed(let log, _) = event else { Issue.record("not an import failure: \(event)"); return }
        expectEqual(log, Self.logFile)
        let writer = Self.ios7.replacingOccurrences(of: "09:14:07.318", with: "09:10:00.000")
            + "-[_PFUbiquityRecordsExporter managedObjectContextDidSave:](446): CoreData: Ubiquity:  <_PFUbiquityRecordsExporter: 0x15d6a0f0>\n Successfully wrote transaction log: <PFUbiquityTransactionEntryLight: 0x15e52e80>\n\ttransactionNumber: 7\n\ttransactionLogLocation: <PFUbiquityLocation: 0x1>: \(Self.root)/\(Self.otherPeer)/JournalStore/6F0D/\(Self.logFile)"
        let summary = try summarize([("ipad.log", writer), ("iphone.log", failing)])
        let story = try require(summary.ubiquity.transactionLogs.first { $0.name == Self.logFile })
        expectEqual(story.peer, Self.otherPeer)
        expectEqual(story.transaction, 7)
        expectEqual(story.imports.map(\.outcome), [.failed])
        expect(summary.ubiquity.correlations.contains { $0.hasPrefix("\(Self.logFile) failed to import on iphone.log:1; ipad.log wrote it") })
        expect(!summary.ubiquity.transactionLogs.contains { $0.name.hasPrefix("<") })
    }

    /// A problem that prints the log as its object shows the log's file when the record
    /// names it, and "a transaction log" when it does not (never the object), then the words
    /// that follow the object's description.
    @Test func aProblemNamesTheLogByItsFileInTheTimeline() throws {
        let named = Self.ios7 + "-[_PFUbiquityRecordImportOperation processObjects:withState:andImportContext:outError:](640): CoreData: Ubiquity:  Transaction log: <PFUbiquityTransactionLog: 0x1d5e3f20>\n Can't find entity for name: Tag in model: <NSManagedObjectModel: 0x15d50a10>\nLocation: \(Self.root)/\(Self.otherPeer)/JournalStore/6F0D/\(Self.logFile)"
        let (text, summary) = try timeline(named)
        expect(text.contains("ERROR Transaction log \(Self.logFile): Can't find entity for name: Tag in model: <NSManagedObjectModel: 0x15d50a10>  (t.log:1)"))
        expectEqual(summary.verdicts.first?.evidence.first?.contains("<PFUbiquityTransactionLog"), false)
        let unnamed = Self.ios7 + "-[_PFUbiquityRecordImportOperation processObjects:withState:andImportContext:outError:](640): CoreData: Ubiquity:  Transaction log: <PFUbiquityTransactionLog: 0x1d5e3f20>\n Couldn't find missing object for objectID: 0x15e4a1b0"
        try expect(timeline(unnamed).text.contains("ERROR A transaction log: Couldn't find missing object for objectID: 0x15e4a1b0  (t.log:1)"))
    }

    /// A record that names a log by its description alone leaves it unnamed, not named `<…>`.
    @Test func aDescriptionAloneNamesNoLog() throws {
        let log = Self.ios7 + "-[_PFUbiquityRecordImportOperation main](402): CoreData: Ubiquity:  Error loading comparison metadata for transaction log: <PFUbiquityTransactionLog: 0x1d5e3f20>"
        let summary = try summarize([("a.log", log)])
        expectEqual(summary.ubiquity.importFailureCount, 1)
        expect(summary.ubiquity.transactionLogs.isEmpty)
    }

    /// Unhandled records show the logging method and the words, not the description of the
    /// object that logs them, in iOS 6 and iOS 7 shapes, and group by those words.
    @Test func anUnhandledRecordShowsItsMethodAndWords() throws {
        let log = [
            "2012-11-20 18:02:41.770 Journal[233:1303] CoreData: Ubiquity:  <_PFUbiquityRecordsImporter: 0x1d5a3b40>: \(Self.root) - mobile.6F2C0E8A1B7D4C559A342B8E1D0C7F11\nFrobnicating 3 widgets for the importer",
            "2012-11-20 18:02:42.770 Journal[233:1303] CoreData: Ubiquity:  <_PFUbiquityRecordsImporter: 0x1d5b0000>: \(Self.root) - mobile.6F2C0E8A1B7D4C559A342B8E1D0C7F11\nFrobnicating 9 widgets for the importer",
            Self.ios7 + "-[PFUbiquityWidget frobnicate:](77): CoreData: Ubiquity:  <PFUbiquityWidget: 0x15d5c000>\n\tlocalPeerID: mobile~6F2C\n\tubiquityRootLocation: <PFUbiquityLocation: 0x1>: \(Self.root)\nFrobnicated the widget",
            Self.ios7 + "-[PFUbiquityWidget frobnicate:](80): CoreData: Ubiquity:  <PFUbiquityWidget: 0x15d5c000> frobnicated 2 sprockets",
        ].joined(separator: "\n")
        let output = CapturedOutput()
        let reporter = UnhandledReporter(output: output.writer)
        let classifier = Classifier(catalog: try Catalog.standard())
        var headlines: [String] = []
        for record in try assemble(log) {
            let item = ClassifiedRecord(record: record, classification: classifier.classify(record))
            reporter.report(item)
            headlines.append(Headline.of(item))
        }
        expectEqual(headlines, [
            "[unhandled] Frobnicating 3 widgets for the importer [...]",
            "[unhandled] Frobnicating 9 widgets for the importer [...]",
            "[unhandled] -[PFUbiquityWidget frobnicate:]: Frobnicated the widget [...]",
            "[unhandled] -[PFUbiquityWidget frobnicate:]: frobnicated 2 sprockets",
        ])
        var summary = RunSummary()
        summary.unhandled = 4
        summary.syncRecords = 4
        reporter.finish(summary)
        expect(output.text.contains("2×  Frobnicating <n> widgets for the importer\n"))
        expect(output.text.contains("1×  -[PFUbiquityWidget frobnicate:]: frobnicated <n> sprockets\n"))
        expect(!output.text.contains("0x"))
    }

    /// A store is named by its file; inside the ubiquity container, the name says so.
    @Test func aStoreIsNamedByItsFileAndItsMisplacementSaid() throws {
        expectEqual(Extract.storeName("file:///var/mobile/Applications/4C1F/Documents/Journal.sqlite"), "Journal.sqlite")
        for url in ["file:///var/mobile/Library/Mobile%20Documents/ABCDE12345~com~example~journal/Journal.sqlite",
                    "/private/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/Data/Journal.sqlite"] {
            expectEqual(Extract.storeName(url), "Journal.sqlite (inside the ubiquity container, where a store must not be)")
        }
        let log = Self.ios7 + "CoreData: error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///var/mobile/Library/Mobile%20Documents/ABCDE12345~com~example~journal/Journal.sqlite options:{} ... returned error Error Domain=NSCocoaErrorDomain Code=134311 \"(null)\" UserInfo={reason=The store file is nested inside the container} with userInfo dictionary {}"
        let (text, _) = try timeline(log)
        expect(text.contains("Core Data could not add the store Journal.sqlite (inside the ubiquity container, where a store must not be): NSCocoaErrorDomain 134311"))
        expect(text.contains("a store Journal.sqlite (inside the ubiquity container, where a store must not be)  failed"))
    }
}
