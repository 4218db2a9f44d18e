// Stores that are not the app's (issue #43, items 4 to 6): system frameworks' stores in the
// app's process, a `Core Data: error:` line, a daemon's evidence when the app logged nothing,
// Core Data's own files in the container, the switchboard's cut record, and loggers' prefixes.
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct SystemStoreTests {
    static let keyboardSetup = "-[PFUbiquitySetupAssistant finishSetupWithRetry:](829): CoreData: Ubiquity:  <PFUbiquitySetupAssistant: 0x157650220>: Retrying after delay: 60\n    Error Domain=NSCocoaErrorDomain Code=134080 \"An error occurred while opening the persistent store.\" UserInfo={failed finishing setup for store during asynchronous iCloud initialization=file:///var/mobile/Library/Keyboard/CoreDataUbiquitySupport/mobile~8E0DD575-E4AE-50F5-94EF-C483E3278D97/UserDictionary/83EC8C88-D7AD-44BC-B997-52FD88D21CE6/store/CloudUserDictionary.sqlite}"

    /// The keyboard's store fails inside the app's process: told as a system framework's
    /// store, listed apart, and the app's verdict stays its own.
    @Test(arguments: ["Oct  3 11:44:26 Poc Journal[210] <Warning>: ", "2015-10-03 11:44:26.118 Journal[210:2a03] ", "2015-10-03 11:44:26.118512+0200  localhost Journal[210]: (CoreData) "])
    func aKeyboardStoreInTheAppsProcessIsJudgedApart(_ header: String) throws {
        let log = "2015-10-03 11:44:25.001 Journal[210:2a03] -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): CoreData: Ubiquity:  mobile~8E0DD575-E4AE-50F5-94EF-C483E3278D97:JournalStore\nUsing local storage: 0\n" + header + Self.keyboardSetup
        let (text, summary) = try timeline(log)
        expect(text.contains("Not the app's store: a system framework's store in Journal's process, outside the app's container (/var/mobile/Library/Keyboard/CoreDataUbiquitySupport/"), "\(text)")
        expectEqual(summary.verdict, .healthy)
        expectEqual(summary.warnings, 0)
        let store = try require(summary.ubiquity.systemStores.first)
        expect(store.store.hasSuffix("/store/CloudUserDictionary.sqlite"))
        expect(store.severity == .warning && store.records == 1)
        expect(text.contains("system stores    1 in the app's process, outside its container: not judged"))
    }

    /// The app's own store, in its container or its iCloud container, stays the app's.
    @Test(arguments: [
        "/var/mobile/Containers/Data/Application/1A2B3C4D-0000-4000-8000-123456789ABC/Documents/Journal.sqlite",
        "/var/mobile/Applications/4C1F2B3A-5D6E-4F70-8A9B-0C1D2E3F4A5B/Documents/Journal.sqlite",
        "/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs/x.cdt",
    ])
    func theAppsOwnStoreIsTheApps(_ path: String) throws {
        expectEqual(SystemStores.place(of: path), .app)
        let log = "2015-10-03 11:44:27.001 Journal[210:2a03] CoreData: error: (10) I/O error for database at \(path).  SQLite error code:10, 'disk I/O error'"
        let (_, summary) = try timeline(log)
        expectEqual(summary.verdict, .degraded)
        expect(summary.ubiquity.systemStores.isEmpty)
    }

    @Test(arguments: ["/var/mobile/Library/Keyboard/UserDictionary.sqlite", "/private/var/mobile/Library/AddressBook/AddressBook.sqlitedb",
                      "/var/mobile/Library/Mobile Documents/com~apple~shoebox/UbiquitousCards.sqlite"])
    func systemLocations(_ path: String) {
        expectEqual(SystemStores.place(of: path), .system)
        expectEqual(SystemStores.location(in: "error at file://localhost\(path.replacingOccurrences(of: " ", with: "%20")). Giving up"), path)
    }

    /// A record that names the app's store and a system one is the app's.
    @Test func aRecordNamingTheAppsStoreIsTheApps() {
        expect(SystemStores.location(in: "from /var/mobile/Library/Keyboard/x.sqlite to /var/mobile/Containers/Data/Application/1A2B/Documents/y.sqlite") == nil)
    }

    /// `Core Data: error:` (with a space) is a Core Data record, in every envelope.
    @Test(arguments: ["2015-10-03 11:44:28.001 Journal[210:2a03] ", "Oct  3 11:44:28 Poc Journal[210] <Error>: ", ""])
    func aCoreDataErrorSpeltWithASpaceIsACoreDataRecord(_ header: String) throws {
        let log = header + "Core Data: error: -executeRequest: encountered exception = The database disk image is malformed with userInfo = {\n    NSFilePath = \"/var/mobile/Containers/Data/Application/1A2B3C4D-0000-4000-8000-123456789ABC/Documents/Journal.sqlite\";\n}"
        let (record, classification) = try require(classify(log).first)
        expectEqual(record.marker, .coreDataError)
        expectEqual(classification.event.kind, .coreDataError)
    }

    /// A daemon's Core Data error is its evidence also when no app logged a sync record.
    @Test func aDaemonsErrorIsShownWhenTheAppIsSilent() throws {
        let log = "Oct  3 11:44:20 Poc Journal[210] <Warning>: Loaded 12 entries\nOct  3 11:44:27 Poc kbd[195] <Error>: Core Data: error: (10) I/O error for database at /var/mobile/Library/Keyboard/UserDictionary.sqlite.  SQLite error code:10, 'disk I/O error'"
        let (text, summary) = try timeline(log)
        expectEqual(summary.verdict, .noEvidence)
        expect(text.contains("kbd[195]: degraded, not judged: a system daemon"), "\(text)")
        expect(text.contains("kbd[195] core-data-error: (10) I/O error for database"), "\(text)")
        // The daemon's records stay its own: not recast as a system framework's store.
        expect(summary.ubiquity.systemStores.isEmpty)
    }
}

@Suite struct OwnFilesAndLoggerTests {
    /// Core Data's own files in the container (a baseline archive, the metadata store, a peer's
    /// folder) are info, in several eras' method names; a stray file stays a warning.
    @Test(arguments: [
        ("+[PFUbiquityLocation createUbiquityLocationForPath:withUbiquityRootPath:](821)", "/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/Data.nosync/.baseline/JournalStore/Qm9vaw==/baseline.zip", "baseline.zip"),
        ("+[PFUbiquityLocation createUbiquityLocationForPath:withUbiquityRootLocation:](1139)", "/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs/.cdmetadata/metadata.nosync/mobile.6F2C0E8A1B7D4C559A342B8E1D0C7F11/metadata.store", "metadata.store"),
        ("+[PFUbiquityLocation createUbiquityLocationForPath:withUbiquityRootPath:](821)", "/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs/mac~11D2AB34-5566-4788-99AA-BBCCDDEEFF00", "mac~11D2AB34-5566-4788-99AA-BBCCDDEEFF00"),
    ])
    func coreDatasOwnFilesAreInfo(_ method: String, _ path: String, _ file: String) throws {
        for header in ["2013-02-13 09:25:56.310 Journal[6902:5d17] \(method): ", "2012-11-20 18:02:41.770 Journal[233:1303] "] {
            let log = header + "CoreData: Ubiquity:  Unable to continue parse components of URL: \(path)\nConfused by: \(file)"
            let event = try require(classify(log).first).classification.event
            expectEqual(event.kind, .containerOwnFile, "\(log)")
            let (text, summary) = try timeline(log)
            expect(summary.verdict == .healthy && summary.warnings == 0)
            expect(!text.contains("WARN"))
        }
        let stray = "2013-02-13 09:25:56.310 Journal[6902:5d17] CoreData: Ubiquity:  Unable to continue parse components of URL: /var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs/shopping.txt\nConfused by: shopping.txt"
        try expectEqual(require(classify(stray).first).classification.event.kind, .containerStrayFile)
    }

    /// The switchboard's record cut to `peer:store` is recognised.
    @Test(arguments: ["2014-03-02 09:14:07.318 Journal[412:60b] -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): CoreData: Ubiquity:  mobile~6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F11:JournalStore",
                      "Mar  2 09:14:07 Joes-iPad Journal[412] <Warning>: -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](906): CoreData: Ubiquity: mac~11D2AB34-5566-4788-99AA-BBCCDDEEFF00:Ledger Store"])
    func theSwitchboardsCutRecordIsRecognised(_ log: String) throws {
        let event = try require(classify(log).first).classification.event
        expectEqual(event.kind, .localStorageNoted)
    }

    /// CocoaLumberjack's default format puts a comma after the method's line; UbiquityStoreManager's
    /// messages come through the app's delegate without their prefix.
    @Test(arguments: [
        ("2013/05/13 13:51:34:924  [2311] [AppDelegate ubiquityStoreManager:log:]:88, Will load cloud store.", EventKind.storeLoadStarted),
        ("2013/05/13 13:51:34:924  <0x1c2b> [JournalAppDelegate ubiquityStoreManager:log:]:412, Loading store: Journal.sqlite", EventKind.storeLoadDetails),
        ("2013/05/13 13:51:34:926  [main] [AppDelegate ubiquityStoreManager:log:]:88, Error (cause:UbiquityStoreErrorCauseOpenActiveStore): Error Domain=NSCocoaErrorDomain Code=134100 \"(null)\" UserInfo={reason=The model used to open the store is incompatible with the one used to create the store}", EventKind.storeManagerError),
        ("2013-05-13 13:51:36.003 Ledger[16215:2311] [Line 212] -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): CoreData: Ubiquity:  mobile~6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F11:LedgerStore\nUsing local storage: 1", EventKind.usingLocalStorage),
        ("2013-05-13 13:51:36.001 Ledger[16215:2311] [Line 212] UbiquityStoreManager: Switching cloud disabled -> enabled", EventKind.cloudSwitched),
        ("2013-05-13 13:51:36.002 Ledger[16215:2311] [Line 88] Will clear stores.  Notifying application to reset its UI.", EventKind.storesChanged),
        ("Mar  2 09:14:07 Joes-iPad Ledger[16215] <Warning>: [Line 301] Successfully loaded cloud store.", EventKind.storeLoadSucceeded),
    ])
    func loggersPrefixesAreRead(_ log: String, _ kind: EventKind) throws {
        let event = try require(classify(log).first).classification.event
        expectEqual(event.kind, kind, "\(log)")
    }
}

extension SystemStoreTests {
    /// The byte search `recast` uses finds the store the String search finds, on every text the
    /// byte check lets through: paths bare, quoted, in `file://` URLs (with `localhost`, with
    /// `%20`), next to the app's own, after non-ASCII text, with `\r\n` and with U+037E.
    @Test func theByteSearchFindsWhatTheStringSearchFinds() {
        let paths = ["/var/mobile/Media/PhotoData/Photos.sqlite", "/Users/joe/Library/Suggestions/snippets.db",
                     "/private/var/mobile/Library/Caches/a b/z.db", "/var/mobile/Containers/Data/Application/A1/Library/a.sqlite",
                     "/tmp/a.sqlite", "/var/db/analyticsd/Analytics.sqlite..."]
        let wrappers: [(String) -> String] = [
            { "error at \($0)." }, { "URL:file://\($0.replacingOccurrences(of: " ", with: "%20")) options" },
            { "URL:file://localhost\($0)" }, { "'\($0)' and \"/var/db/x/y.db\"" }, { "é \($0)\r\n more" },
            { "\($0); x\u{037E} /var/mobile/Library/a.db" }, { "(\($0)) at /Applications/X.app" }, { "path=\($0),next" },
        ]
        var compared = 0, stores = 0
        for path in paths {
            for wrap in wrappers {
                let text = wrap(path)
                guard SystemStores.mayNameASystemStore(RecordText(Array(text.utf8))) else { continue }
                let fromBytes = Array(text.utf8).withUnsafeBytes { SystemStores.locationAfterBytesCheck(in: $0) }
                expectEqual(fromBytes, SystemStores.location(in: text), text)
                compared += 1
                if fromBytes != nil { stores += 1 }
            }
        }
        expect(compared >= 30 && stores >= 20, "\(compared) texts compared, \(stores) with a store")
    }
}
