import Testing
import TestSupport
@testable import UbiquityLogKit

/// A store that fails to load ends a run `broken` wherever the log says so: Core Data's own
/// records with their marker or without it, the app's prints of the error, SwiftData's; a later
/// successful add makes it `degraded`. An app line that only names a code is no failure.
@Suite struct StoreLoadFailureTests {
    static let cloudKitSetUp = "2025-05-19 19:41:02.114902-0400 0x1a2b     Default     0x0                  905    0    Recipes: (CoreData) [com.apple.coredata:CloudKit] CoreData+CloudKit: -[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1242): <NSCloudKitMirroringDelegate: 0x6000021a4d20>: Successfully set up CloudKit integration for store (3E5A7C9B-1D3F-4B6A-8C0E-2A4C6E8A0B1D): <NSSQLCore: 0x7f8c1d40a3b0> (URL: file:///var/mobile/Containers/Data/Application/0F1E/Library/Application%20Support/Recipes.sqlite)"
    static func logShow(_ message: String) -> String {
        "2025-05-19 19:41:09.906001-0400 0x1a2b     Error       0x0                  905    0    Recipes: \(message)"
    }
    static func xcode(_ message: String) -> String { "2022-06-01 10:05:00.123456-0700 Recipes[912:1a2b] \(message)" }

    /// (log, the kind of the finding that decides it): each ends broken, alone and (those with a
    /// header: a line without one continues the record before it) after a CloudKit set-up that
    /// succeeded before it.
    static let failures: [(String, EventKind)] = [
        // Core Data's record as os_log copies it: the subsystem in the header, no `CoreData:`.
        (xcode("[error] error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///Users/dev/Library/Application%20Support/Recipes.sqlite options:{\n    NSMigratePersistentStoresAutomaticallyOption = 1;\n} ... returned error Error Domain=NSCocoaErrorDomain Code=134140 \"Persistent store migration failed, missing mapping model.\" UserInfo={reason=Can't find or automatically infer mapping model for migration} with userInfo dictionary {\n    reason = \"Can't find or automatically infer mapping model for migration\";\n}"), .storeAddFailed),
        (logShow("(CoreData) [com.apple.coredata:error] error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///var/mobile/Containers/Data/Application/0F1E/Library/Application%20Support/Recipes.sqlite options:{\n    NSPersistentHistoryTrackingKey = 1;\n} ... returned error NSCocoaErrorDomain(134100) with userInfo dictionary {\n    reason = \"The model used to open the store is incompatible with the one used to create the store\";\n}"), .storeAddFailed),
        (logShow("(CoreData) [com.apple.coredata:error] -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///var/mobile/Recipes.sqlite options:{\n} ... returned error NSCocoaErrorDomain(134100) with userInfo dictionary {\n}"), .storeAddFailed),
        ("error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///Users/dev/Recipes.sqlite options:{\n} ... returned error NSCocoaErrorDomain(134100) with userInfo dictionary {\n}", .storeAddFailed),
        // The selector-only wording of recent Core Data, with the marker and without it.
        (xcode("CoreData: error: addPersistentStoreWithType:configuration:URL:options:error: returned error NSCocoaErrorDomain (134110)"), .storeAddFailed),
        (logShow("(CoreData) [com.apple.coredata:error] addPersistentStoreWithType:configuration:URL:options:error: returned error NSCocoaErrorDomain (134110)"), .storeAddFailed),
        ("CoreData: annotation: : Attempting recovery from error encountered during addPersistentStore: 0x600002c4c0a0 Error Domain=NSCocoaErrorDomain Code=134110 \"An error occurred during persistent store migration.\" UserInfo={reason=Cannot migrate store in-place: near \"null\": syntax error}", .storeAddFailed),
        (xcode("CoreData: error: <NSPersistentStoreCoordinator: 0x105b88480>: Attempting recovery from error encountered during addPersistentStore: 0x105b0e220 Error Domain=NSCocoaErrorDomain Code=134100 \"x\" UserInfo={}"), .storeAddFailed),
        ("error: Store failed to load.  <NSPersistentStoreDescription: 0x600003d0c0c0> (type: SQLite, url: file:///Users/dev/default.store) with error = Error Domain=NSCocoaErrorDomain Code=134110 \"An error occurred during persistent store migration.\" UserInfo={reason=Cannot migrate store in-place} with userInfo {\n    reason = \"Cannot migrate store in-place\";\n}", .storeAddFailed),
        (xcode("CoreData: error: Store failed to load.  <NSPersistentStoreDescription: 0x600003d0c0c0> (type: SQLite, url: file:///Users/dev/default.store) with error = Error Domain=NSCocoaErrorDomain Code=134110 \"An error occurred during persistent store migration.\" UserInfo={reason=Cannot migrate store in-place}"), .storeAddFailed),
        // The app's prints: the Xcode template, a logger's words, SwiftData.
        ("Unresolved error Error Domain=NSCocoaErrorDomain Code=134110 \"An error occurred during persistent store migration.\" UserInfo={reason=Cannot migrate store in-place: Validation error missing attribute values on mandatory destination attribute}", .appStoreLoadFailed),
        ("Fatal error: Unresolved error Error Domain=NSCocoaErrorDomain Code=134100 \"The managed object model version used to open the persistent store is incompatible with the one that was used to create the persistent store.\"", .appStoreLoadFailed),
        (logShow("[com.example.recipes:Persistence] Failed to load store: Error Domain=NSCocoaErrorDomain Code=134140 \"Persistent store migration failed, missing mapping model.\""), .appStoreLoadFailed),
        (logShow("[com.example.recipes:Persistence] Failed to load persistent stores: Error Domain=NSCocoaErrorDomain Code=256 \"The file “Recipes.sqlite” couldn’t be opened.\" UserInfo={NSSQLiteErrorDomain=14}"), .appStoreLoadFailed),
        ("App launched\nFatal error: Could not create ModelContainer: SwiftDataError(_error: SwiftData.SwiftDataError._Error.loadIssueModelContainer, _explanation: nil)", .cloudKitSwiftDataLoadFailed),
        ("Unresolved error loading container SwiftDataError(_error: SwiftData.SwiftDataError._Error.loadIssueModelContainer, _explanation: nil)", .cloudKitSwiftDataLoadFailed),
        // SQLite's corruption: a corruption report, not a generic Core Data error.
        (xcode("CoreData: error: (11) Fatal error.  The database at /Users/dev/Library/Application Support/Recipes.sqlite is corrupted.  SQLite error code:11, 'database disk image is malformed'"), .storeFileCorrupt),
        (logShow("(CoreData) [com.apple.coredata:error] error: (26) Fatal error.  The database at /var/mobile/Recipes.sqlite is corrupted.  SQLite error code:26, 'file is not a database'"), .storeFileCorrupt),
    ]

    @Test(arguments: failures.indices)
    func aFailedLoadWithNoLaterSuccessIsBroken(_ index: Int) throws {
        let (failure, kind) = Self.failures[index]
        for log in failure.hasPrefix("20") ? [failure, Self.cloudKitSetUp + "\n" + failure] : [failure] {
            let summary = try summarize([("app.log", log)])
            expectEqual(summary.verdict, .broken, "\(summary.verdictSentence) for \(log)")
            let evidence = summary.verdicts.first?.evidence.first ?? ""
            expect(evidence.contains(" \(kind.id): "), "\(evidence)")
        }
    }

    /// A mirroring set-up that succeeded after a failed load is the store added after all: the
    /// load's failure leaves the process `degraded`, recovered by the set-up, when the failure
    /// names that store (its file name, whatever the folder) or names none. A failure of another
    /// store, and corruption, stay `broken`. A failure pasted without its header is followed by
    /// the set-up's message without one (with a header, the set-up would be a named process's).
    @Test(arguments: failures.indices)
    func aLaterSetUpOfTheStoreRecoversAFailedLoad(_ index: Int) throws {
        let (failure, kind) = Self.failures[index]
        let setUp = failure.hasPrefix("20") ? Self.cloudKitSetUp : String(Self.cloudKitSetUp.split(separator: "Recipes: ", maxSplits: 1)[1])
        let summary = try summarize([("app.log", failure + "\n" + setUp)])
        let evidence = summary.verdicts.first?.evidence ?? []
        expect(evidence.first?.contains(" \(kind.id): ") == true, "\(evidence)")
        if kind == .storeFileCorrupt || failure.contains("/default.store") {
            expectEqual(summary.verdict, .broken, "\(summary.verdictSentence) for \(failure)")
        } else {
            expectEqual(summary.verdict, .degraded, "\(summary.verdictSentence) for \(failure)")
            let recovered = kind == .cloudKitSwiftDataLoadFailed ? evidence.first?.hasSuffix(", later succeeded") == true
                : evidence.contains { $0.hasPrefix("recovered: ") && $0.contains(" cloudkit-setup-succeeded: ") }
            expect(recovered, "\(evidence)")
        }
    }

    @Test func aSetUpOfAnotherStoreOrOfAnotherProcessRecoversNothing() throws {
        let failure = Self.failures[0].0
        let otherStore = Self.cloudKitSetUp.replacingOccurrences(of: "Recipes.sqlite", with: "Shared.sqlite")
        let otherProcess = Self.cloudKitSetUp.replacingOccurrences(of: " Recipes: ", with: " RecipesWidget: ")
        for log in [failure + "\n" + otherStore, failure + "\n" + otherProcess] {
            let summary = try summarize([("app.log", log)])
            expectEqual(summary.verdict, .broken, "\(summary.verdictSentence) for \(log)")
        }
    }

    @Test func theAppsPrintAfterCoreDatasRecordIsTheSameFailedLoad() throws {
        let log = [Self.failures[0].0, Self.xcode("[error] fault: Unresolved error Error Domain=NSCocoaErrorDomain Code=134140 \"Persistent store migration failed, missing mapping model.\"")]
        let summary = try summarize([("app.log", log.joined(separator: "\n"))])
        let loads = summary.ubiquity.storeLoadAttempts
        expectEqual(loads.count, 1)
        expectEqual(loads.first?.outcome, .failed)
        expectEqual(loads.first?.error?.code, 134140)
        expectEqual(loads.first?.storeURL, "file:///Users/dev/Library/Application%20Support/Recipes.sqlite")
        expectEqual(summary.ubiquity.incidents.count, 1)
    }

    @Test func coreDatasOwnErrorIsReadWithItsReason() throws {
        let event = try require(classify(Self.failures[1].0).first).classification.event
        guard case .storeAddFailed(let type, let url, let error) = event else { return expect(false, "\(event)") }
        expectEqual(type, "SQLite")
        expectEqual(url, "file:///var/mobile/Containers/Data/Application/0F1E/Library/Application%20Support/Recipes.sqlite")
        expectEqual(error, ErrorInfo(domain: "NSCocoaErrorDomain", code: 134100, reason: "The model used to open the store is incompatible with the one used to create the store"))
    }

    @Test func aSuccessfulRecoveryLeavesItDegraded() throws {
        let log = [
            Self.xcode("CoreData: error: <NSPersistentStoreCoordinator: 0x105b88480>: Attempting recovery from error encountered during addPersistentStore: 0x105b0e220 Error Domain=NSCocoaErrorDomain Code=512 \"The file couldn’t be saved.\" UserInfo={reason=Failed to create file; code = 2}"),
            Self.xcode("CoreData: error: During recovery, parent directory path reported as missing"),
            Self.xcode("CoreData: error: Recovery attempt while adding <NSPersistentStoreDescription: 0x105b0e220> (type: SQLite, url: file:///var/mobile/Journal.sqlite) was successful!"),
        ].joined(separator: "\n")
        let summary = try summarize([("app.log", log)])
        expectEqual(summary.verdict, .degraded, "\(summary.verdictSentence)")
        expectEqual(summary.ubiquity.storeLoadAttempts.map(\.outcome), [.failed, .succeeded])
    }

    @Test func corruptionIsCountedAsCorruption() throws {
        let log = [Self.failures[16].0,
                   Self.xcode("CoreData: error: -executeRequest: encountered exception = I/O error for database at /Users/dev/Library/Application Support/Recipes.sqlite.  SQLite error code:11, 'database disk image is malformed' with userInfo = {\n    NSSQLiteErrorDomain = 11;\n}")]
        let summary = try summarize([("app.log", log.joined(separator: "\n"))])
        expectEqual(summary.ubiquity.corruptionReportCount, 2)
        let event = try require(classify(log[0]).first).classification.event
        expectEqual(Facts(event.fields).string("filePath"), "/Users/dev/Library/Application Support/Recipes.sqlite")
        expectEqual(Facts(event.fields).int("sqliteCode"), 11)
    }

    @Test func aRefusedSaveIsAWarning() throws {
        let log = Self.cloudKitSetUp + "\n" + Self.logShow("[com.example.recipes:Persistence] Save failed: Error Domain=NSCocoaErrorDomain Code=1570 \"%{PROPERTY}@ is a required value.\" UserInfo={NSValidationErrorKey=name}")
        let summary = try summarize([("app.log", log)])
        expectEqual(summary.verdict, .degraded, "\(summary.verdictSentence)")
        expectEqual(summary.verdicts.first?.evidence.first?.contains(" app-save-failed: "), true, "\(summary.verdicts)")
    }

    /// A model CloudKit cannot mirror stays the CloudKit family's finding, whoever prints it.
    @Test func aModelCloudKitCannotMirrorStaysACloudKitFinding() throws {
        for line in [
            "Unresolved error loading container Error Domain=NSCocoaErrorDomain Code=134060 \"A Core Data error occurred.\" UserInfo={NSLocalizedFailureReason=CloudKit integration requires that all attributes be optional, or have a default value set. The following attributes are marked non-optional but do not have a default value:\nItem: timestamp}",
            "error: Store failed to load.  <NSPersistentStoreDescription: 0x600003d0c0c0> (type: SQLite, url: file:///Users/dev/default.store) with error = Error Domain=NSCocoaErrorDomain Code=134060 \"A Core Data error occurred.\" UserInfo={NSLocalizedFailureReason=CloudKit integration requires that all attributes be optional, or have a default value set.}",
            "Fatal error: Failed to create ModelContainer: SwiftDataError(_error: SwiftData.SwiftDataError._Error.loadIssueModelContainer, _explanation: Optional(\"CloudKit integration does not support unique constraints. The following entities are constrained:\\nAccount: number\"))",
        ] {
            let kind = try require(classify(line).first).classification.event.kind
            expectEqual(kind.family, .cloudKit, "\(kind.id) for \(line)")
        }
    }

    /// Lines that name a code or a store without a failure of it are the app's own.
    @Test func aMentionIsNoFailure() throws {
        for line in [
            Self.xcode("Migrating store: model changed since version 3 (would be NSCocoaErrorDomain 134100 otherwise)"),
            Self.xcode("Loaded persistent store at file:///var/mobile/Recipes.sqlite"),
            Self.xcode("Fetch failed: Error Domain=NSCocoaErrorDomain Code=134180 \"x\""),
            Self.xcode("Docs: addPersistentStoreWithType:configuration:URL:options:error: is deprecated, use loadPersistentStores"),
            Self.xcode("Store loaded. Checking SQLite error code:0, 'not an error'"),
        ] {
            let summary = try summarize([("app.log", Self.cloudKitSetUp + "\n" + line)])
            expectEqual(summary.verdict, .healthy, "\(summary.verdictSentence) for \(line)")
        }
    }
}
