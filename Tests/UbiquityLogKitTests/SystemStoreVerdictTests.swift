// System frameworks' stores in the app's process are judged apart, as system daemons are: a
// verdict of their own from their records as they are, shown with the record that decides it,
// never the app's, the input's or the run's; `--fail-on` matches their records by what they
// are, and no verdict term fails on them.
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct SystemStoreVerdictTests {
    static let console = "Mar  2 09:14:07 Joes-iPhone Journal[412] <Error>: "
    static let appSetUp = "Mar  2 09:14:05 Joes-iPhone Journal[412] <Warning>: -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): CoreData: Ubiquity:  mobile~6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F11:JournalStore\nUsing local storage: 0\n"
    static func ioError(_ path: String) -> String {
        "CoreData: error: (10) I/O error for database at \(path).  SQLite error code:10, 'disk I/O error'"
    }
    static func addFailed(_ path: String) -> String {
        "CoreData: error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file://\(path.replacingOccurrences(of: " ", with: "%20")) options:(null) ... returned error Error Domain=NSCocoaErrorDomain Code=256 \"The file couldn’t be opened.\" UserInfo={NSSQLiteErrorDomain=14} with userInfo dictionary {\n}"
    }

    static func run(_ log: String, failOn: FailOn = .standard) throws -> (text: String, summary: RunSummary) {
        let output = CapturedOutput()
        let run = LogRun(catalog: try Catalog.standard(), reporters: [TextReporter(output: output.writer, options: TextOptions())])
        run.failOn = failOn
        var source = MemorySource(log)
        try run.process(&source, name: "t.log")
        let summary = run.finish()
        return (output.text, summary)
    }

    /// The stores system frameworks keep, on iOS and on a Mac.
    @Test(arguments: [
        "/var/mobile/Media/PhotoData/Photos.sqlite", "/private/var/mobile/Library/Suggestions/entities.db",
        "/var/mobile/Library/Application Support/CloudDocs/session/db/client.db", "/var/db/analyticsd/Analytics.sqlite",
        "/private/var/db/analyticsd/Analytics.sqlite", "/Users/joe/Library/Application Support/com.apple.sharedfilelist/RecentDocuments.sqlite",
        "/Users/joe/Library/Suggestions/snippets.db", "/Users/joe/Library/Application Support/CloudDocs/session/db/client.db",
        "/Users/joe/Pictures/Photos Library.photoslibrary/database/Photos.sqlite",
    ])
    func systemFrameworksStoresAreTold(_ path: String) throws {
        expectEqual(SystemStores.place(of: path), .system)
        expect(SystemStores.mayNameASystemStore(RecordText(Array(Self.ioError(path).utf8))))
        let (text, summary) = try Self.run(Self.appSetUp + Self.console + Self.ioError(path))
        let store = try require(summary.systemStores.first, "\(text)")
        expectEqual(store.store, path)
        expect(store.verdict == .degraded && store.kinds == ["core-data-error": 1])
        expectEqual(summary.verdict, .healthy)
        expect(text.contains("Journal[412] store \(path): degraded, not judged: a system framework's store, outside the app's container"), "\(text)")
        expect(text.contains("    t.log:3 core-data-error: (10) I/O error for database at \(path)."), "\(text)")
    }

    /// Whether most of the app's records were recognised is asked of its own records: a system
    /// store's, recognised, do not make up for the app's that no rule knows.
    @Test func theAppsUnrecognisedRecordsAreWeighedWithoutTheStores() throws {
        let unknown = "Mar  2 09:14:06 Joes-iPhone Journal[412] <Warning>: -[PFUbiquityQuux frobnicate:](12): CoreData: Ubiquity:  zzq wibble %d\n"
        let store = Self.console + Self.ioError("/var/mobile/Media/PhotoData/Photos.sqlite") + "\n"
        let (text, summary) = try Self.run(Self.appSetUp + unknown + unknown + store + store + store)
        expectEqual(summary.systemStores.first?.records, 3, "\(text)")
        let app = try require(summary.processes.first { $0.process == "Journal" }, "\(text)")
        expectEqual(app.verdict, .unknown, "\(text)")
        expectEqual(app.reason, "2 of 3 ubiquity records not recognised", "\(text)")
    }

    /// A Mac app's own folder in the user's Library, or its sandbox container, stays the app's.
    @Test(arguments: ["/Users/joe/Library/Application Support/Ledger/Ledger.sqlite",
                      "/Users/joe/Library/Containers/com.example.ledger/Data/Library/Application Support/Ledger/Ledger.sqlite"])
    func aMacAppsOwnStoreIsTheApps(_ path: String) throws {
        expect(SystemStores.place(of: path) != .system)
        let (_, summary) = try Self.run(Self.appSetUp + Self.console + Self.ioError(path))
        expect(summary.systemStores.isEmpty)
        expectEqual(summary.verdict, .degraded)
    }

    /// A store a framework cannot add (a recognised `CoreData: error:` record, an error) is
    /// judged broken apart from the app, which stays healthy; its severity is kept.
    @Test func aFrameworksFailedStoreIsBrokenApart() throws {
        let path = "/Users/joe/Library/Suggestions/snippets.db"
        let (text, summary) = try Self.run(Self.appSetUp + Self.console + Self.addFailed(path))
        let store = try require(summary.systemStores.first, "\(text)")
        expect(store.kinds == ["store-add-failed": 1] && store.severity == .error)
        expectEqual(store.verdict, .broken)
        expect(summary.verdict == .healthy && summary.errors == 0)
        expectEqual(summary.ubiquity.storeLoads.totalFailed, 0)
        expectEqual(summary.outcome?.fails, false)
        expect(text.contains("Journal[412] store \(path): broken, not judged"), "\(text)")
    }

    /// The app's own failure decides the app's verdict; a system store's never does, in
    /// either order.
    @Test func theAppsVerdictIsItsOwn() throws {
        let app = Self.console + Self.ioError("/var/mobile/Containers/Data/Application/1A2B3C4D-0000-4000-8000-123456789ABC/Documents/Journal.sqlite") + "\n"
        let system = Self.console + Self.addFailed("/var/mobile/Media/PhotoData/Photos.sqlite") + "\n"
        for log in [Self.appSetUp + app + system, Self.appSetUp + system + app] {
            let (_, summary) = try Self.run(log)
            expectEqual(summary.verdict, .degraded)
            expectEqual(summary.systemStores.map(\.verdict), [.broken])
            expect(summary.warnings == 1 && summary.errors == 0)
        }
    }

    /// A line without a header belongs to the process of the sync record before it, whatever
    /// process the store it names is told under: the app's own failure beside a system store's
    /// record, both pasted without headers around an app line, keeps the app broken. When the
    /// stores' records were matched to processes by name, the store's (of no process) was
    /// charged to the app's headerless records, which were then not judged: healthy.
    @Test func aStoreRecordWithoutAHeaderIsChargedToTheGroupItIsCountedIn() throws {
        let appFailed = "CoreData: error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///var/mobile/Containers/Data/Application/4B6D8F0A/Documents/Journal.sqlite options:(null) ... returned error Error Domain=NSCocoaErrorDomain Code=134100 \"The managed object model version used to open the persistent store is incompatible with the one that was used to create the persistent store.\" UserInfo={}\n"
        let appLine = "2014-03-02 09:14:05.001 Journal[412:60b] Journal 2.1 (build 311) did finish launching\n"
        let store = Self.ioError("/var/mobile/Library/Keyboard/UserDictionary.sqlite") + "\n"
        let (text, summary) = try Self.run(appFailed + appLine + store)
        expectEqual(summary.systemStores.map(\.verdict), [.degraded], "\(text)")
        expectEqual(summary.ubiquity.storeLoads.totalFailed, 1, "\(text)")
        expectEqual(summary.verdict, .broken, "\(text)")
    }

    /// `--fail-on` matches a system store's records by what they are (severity, category,
    /// kind) and by `system-store`, as it matches a daemon's; no verdict term fails on it.
    @Test(arguments: [("warning", true), ("error", false), ("core-data-error", true), ("store", true), ("system-store", true),
                      ("degraded", false), ("broken", false), ("import", false), ("none", false)])
    func failOnMatchesTheStoresRecords(_ list: String, _ fails: Bool) throws {
        let failOn = try FailOn(parsing: list, catalog: try Catalog.standard())
        let (text, summary) = try Self.run(Self.appSetUp + Self.console + Self.ioError("/var/mobile/Library/Keyboard/UserDictionary.sqlite"), failOn: failOn)
        let outcome = try require(summary.outcome)
        expectEqual(outcome.fails, fails, "\(list): \(text)")
        expectEqual(outcome.failingSystemStores, (fails ? [0] : []))
        let items = CIFindings.items(summary, outcome: outcome, firstRecords: FirstRecords())
        let store = try require(items.first { $0.rule == "system-store" })
        expectEqual(store.failsTheRun, fails)
        expectEqual(store.level, (fails ? .error : .warning))
        expect(store.line == 3 && store.file == "t.log")
        expectEqual(items.filter { $0.rule == "system-store" }.count, 1)
    }

    /// An app process whose only sync records are about system frameworks' stores has no
    /// evidence of its own; a daemon's error is still shown as the daemon's evidence.
    @Test func onlySystemStoresIsNoEvidence() throws {
        let log = "Mar  2 09:14:04 Joes-iPhone Journal[412] <Warning>: Loaded 12 entries\n" + Self.console + Self.ioError("/var/mobile/Media/PhotoData/Photos.sqlite")
            + "\nMar  2 09:14:08 Joes-iPhone kbd[87] <Error>: " + Self.ioError("/var/mobile/Library/Keyboard/UserDictionary.sqlite")
        let (text, summary) = try Self.run(log)
        expectEqual(summary.verdict, .noEvidence)
        expectEqual(summary.verdictReason?.contains("system daemons', not judged: kbd[87] (1); system stores', not judged: Journal[412] store /var/mobile/Media/PhotoData/Photos.sqlite (1)"), true, "\(text)")
        expect(text.contains("kbd[87]: degraded, not judged: a system daemon"), "\(text)")
        expect(text.contains("kbd[87] core-data-error: (10) I/O error for database at /var/mobile/Library/Keyboard/UserDictionary.sqlite"), "\(text)")
        expect(text.contains("Journal[412] store /var/mobile/Media/PhotoData/Photos.sqlite: degraded, not judged"), "\(text)")
        expectEqual(summary.processes.map(\.process), ["kbd"])
    }

    /// Records of one store are counted by kind; the first of the worst severity decides.
    @Test func theWorstRecordDecides() throws {
        let path = "/var/mobile/Media/PhotoData/Photos.sqlite"
        let log = Self.appSetUp + Self.console + Self.ioError(path) + "\n" + Self.console + Self.addFailed(path) + "\n" + Self.console + Self.addFailed(path)
        let (_, summary) = try Self.run(log)
        let store = try require(summary.systemStores.first)
        expectEqual(summary.systemStores.count, 1)
        expect(store.records == 3 && store.kinds == ["core-data-error": 1, "store-add-failed": 2])
        expect(store.worstLine == 4 && store.worstKind == "store-add-failed")
        expect(store.evidence.count == 1 && store.evidence[0].hasPrefix("t.log:4 store-add-failed: "))
    }

    /// In `log show --style ndjson` too, a message that starts `Core Data: error:` (with a
    /// space) is a Core Data record, and a system store's is judged apart.
    @Test func aCoreDataErrorWithASpaceInNDJSONIsACoreDataRecord() throws {
        let path = "/Users/joe/Library/Application Support/com.apple.sharedfilelist/RecentDocuments.sqlite"
        let message = "Core Data: error: (14) I/O error for database at \(path).  SQLite error code:14, 'unable to open database file'"
        let event = #"{"eventMessage":"\#(message.replacingOccurrences(of: "/", with: "\\/"))","processImagePath":"\/Applications\/Ledger.app\/Contents\/MacOS\/Ledger","timestamp":"2016-09-30 10:01:05.400000+0200","messageType":"Error","processID":512}"#
        let (text, summary) = try Self.run(event + "\n")
        expectEqual(summary.syncRecords, 1, "\(text)")
        let store = try require(summary.systemStores.first, "\(text)")
        expect(store.store == path && store.kinds == ["core-data-error": 1])
        expectEqual(summary.verdict, .noEvidence)
    }

    /// The summary's JSON names each store with its verdict, apart from the processes.
    @Test func theJSONSummaryJudgesEachStore() throws {
        let (_, summary) = try Self.run(Self.appSetUp + Self.console + Self.ioError("/var/db/analyticsd/Analytics.sqlite"))
        let object = try require(JSONSerialization.jsonObject(with: Data(JSONSummary.text(summary).utf8)) as? [String: Any])
        let stores = try require(object["systemStores"] as? [[String: Any]])
        expectEqual(stores.count, 1)
        expectEqual(stores[0]["verdict"] as? String, "degraded")
        expectEqual(stores[0]["judged"] as? Bool, false)
        expectEqual(stores[0]["kinds"] as? [String: Int], ["core-data-error": 1])
        expectEqual(object["verdict"] as? String, "healthy")
    }
}
