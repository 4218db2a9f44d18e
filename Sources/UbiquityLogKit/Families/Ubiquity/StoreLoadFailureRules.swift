// A store that fails to load, wherever the log says so: Core Data's own records of it with their
// `CoreData: error:` marker and without it (os_log's copy, whose header carries the subsystem,
// prints `[com.apple.coredata:error] error: …`; a paste may keep only `error: …`), its SQLite
// store found corrupt, and the app's own prints of the error it was handed (the Xcode template's
// `Unresolved error \(error)`, a logger's `Failed to load persistent stores: …`, SwiftData's
// `Could not create ModelContainer: …` on any line of the app's record).
//
// The app's prints are read only in the shapes of a failure: a load error (a Core Data code that
// only loading or migrating a store returns, printed as an NSError), a failure to load in words
// with the error after them, or a SwiftDataError. A message that merely names a code is not
// one. A model CloudKit cannot mirror is the CloudKit family's (`cloudkit-model-unsupported` and
// kin): these rules leave a record that names that cause to it.

extension EventKind {
    public static let appStoreLoadFailed = EventKind("app-store-load-failed", .store, .error, .notable,
        "The app printed the error its store failed to load with (a Core Data load or migration error, or its own words for a failed load): the store was not loaded in that process.")
    public static let appSaveFailed = EventKind("app-save-failed", .store, .warning, .notable,
        "The app printed the error Core Data refused a save with (a validation error, a merge conflict, a save error): those changes were not stored, so they do not sync.")
    public static let storeFileCorrupt = EventKind("store-file-corrupt", .corruption, .error, .notable,
        "SQLite found the store's file corrupt (11 `database disk image is malformed`, 26 `file is not a database`): the store cannot be read until it is restored.")
}

extension Channel {
    /// Core Data's error lines without their `CoreData:` marker, and the app's prints of a store
    /// that failed to load: records without a marker, tried at the start of each line.
    public static let coreDataUnmarked = Channel("coreDataUnmarked", family: .ubiquity, shape: .lines, marker: nil, readsUnmarked: true)
}

enum StoreLoadFailureRules {
    /// What stands before Core Data's words on a line without its marker: a `[subsystem:category]`
    /// or `[error]` tag, and the level (`error: `, `fault: `), or a `CoreData: level:` of its own.
    static let unmarkedPrefix = #"(?:\[[A-Za-z0-9_.:-]{1,80}\][ ]+)?(?:(?:error|fault):[ ]+|CoreData:[ ][a-z]{4,10}:[ ]+)?"#

    /// Core Data's records of a failed add, as one pattern each (they are tried with the marker
    /// and, after `unmarkedPrefix`, without it).
    /// The whole call: `-addPersistentStoreWithType:SQLite configuration:(null) URL:… options:{…} ... returned error …`.
    static let addReturnedError = #"-?addPersistentStoreWithType:(?<storeType>[^\s]+)[ ]configuration:(?<configuration>[^\s]+)[ ]URL:(?<url>[^\s]+)[ ]options:"#
    /// The selector alone (the store's type, configuration and URL follow on records of their
    /// own): `addPersistentStoreWithType:configuration:URL:options:error: returned error NSCocoaErrorDomain (134110)`.
    static let selectorReturnedError = #"-?addPersistentStoreWithType:configuration:URL:options:error:[ ]returned[ ]error[ ](?<domain>[A-Za-z][\w.]*)[ ]?\((?<code>-?\d+)\)"#
    /// `<NSPersistentStoreCoordinator: 0x…>: Attempting recovery from error encountered during addPersistentStore: 0x… Error Domain=…`,
    /// and its retry's failure: `Recovery attempt while adding <NSPersistentStoreDescription: …> FAILED with error …`.
    /// (The coordinator's description, or whatever stands before the words, is passed over.)
    static let addRecoveryFailed = #"[^\n]{0,200}?(?:Attempting[ ]recovery[ ]from[ ]error[ ]encountered[ ]during[ ]addPersistentStore|Recovery[ ]attempt[ ]while[ ]adding[ ][^\n]{0,600}?[ ]FAILED[ ]with[ ]error)"#
    /// NSPersistentContainer's record: `Store failed to load.  <NSPersistentStoreDescription: 0x…> (type: SQLite, url: file:///…) with error = …`.
    static let storeFailedToLoad = #"Store[ ]failed[ ]to[ ]load\.(?![^\n]{0,3000}?CloudKit[ ]integration[ ])(?:[ ]+<NSPersistentStoreDescription:[ ][^>\n]{1,40}>[ ]\(type:[ ](?<storeType>[^,\s]+),[ ]url:[ ](?<url>[^)\s]+)\))?"#
    static let recoverySucceeded = #"Recovery[ ]attempt[ ]while[ ]adding[ ][^\n]{0,600}?[ ]was[ ]successful!"#
    /// `(11) Fatal error.  The database at … is corrupted.  SQLite error code:11, 'database disk image is malformed'`
    /// and every other record that quotes SQLite's corruption codes.
    static let sqliteCorrupt = #"[^\n]{0,2000}?SQLite[ ]error[ ]code:(?<sqliteCode>11|26),[ ]'(?<sqliteMessage>[^'\n]{1,100})'"#

    /// A record that names a model CloudKit cannot mirror is the CloudKit family's.
    private static let notCloudKitModel = #"(?![^\n]{0,3000}?CloudKit[ ]integration[ ])"#

    /// The app's print of a load error: a code only loading or migrating a store returns
    /// (134000 to 134020, 134080, 134100 to 134170, 134111, 134190), printed as an NSError.
    static let appLoadCode = #"(?<before>[^\n]{0,300}?)Error[ ]Domain=NSCocoaErrorDomain[ ]Code=(?<code>134(?:0[0-2]0|080|1[0-7]0|111|190))(?!\d)"#
    /// The app's words for a failed load, with the error after them. The words are looked
    /// ahead for: the rule is filed under `Error Domain=`, which few lines hold, not under the
    /// words' many spellings, which every line would be scanned for.
    static let appLoadWords = #"(?=[^\n]{0,300}?(?:(?:[Ff]ailed[ ]to[ ]load|[Cc]ould[ ]not[ ]load|[Cc]ouldn't[ ]load|[Uu]nable[ ]to[ ]load|[Ee]rror[ ]loading|[Ff]ailed[ ]loading)[ ](?:[A-Za-z]{1,12}[ ]){0,2}?(?:[Ss]tores?|[Cc]ontainers?|[Dd]atabase)\b|loadPersistentStores)[^\n]{0,300}?Error[ ]Domain=)"#
        + notCloudKitModel + #"(?<before>[^\n]{0,600}?)Error[ ]Domain=(?<domain>[^\s]+)[ ]Code=(?<code>-?\d+)"#
    /// SwiftData's: `SwiftDataError(_error: SwiftData.SwiftDataError._Error.loadIssueModelContainer, _explanation: nil)`,
    /// on any line of the app's record (the CloudKit family's kind: SwiftData mirrors through it).
    static let appSwiftDataLoad = #"[^\n]{0,300}?SwiftDataError\(_error:[ ]SwiftData\.SwiftDataError\._Error\.(?<swiftDataError>\w+)"# + notCloudKitModel
    /// The app's print of a refused save: its words, then a Core Data save error (validation
    /// 1500 to 1699, 133000 to 133029, 134030 to 134050; 134060's reasons are the CloudKit family's).
    static let appSave = #"(?<before>[^\n]{0,300}?)(?:[Ss]ave[ ]failed|[Ff]ailed[ ]to[ ]save|[Ee]rror[ ]saving|[Cc]ould[ ]not[ ]save|[Cc]ouldn't[ ]save|[Uu]nable[ ]to[ ]save|[Ss]aving[ ]failed|Unresolved[ ]error)\b"#
        + notCloudKitModel + #"[^\n]{0,300}?Error[ ]Domain=NSCocoaErrorDomain[ ]Code=(?<code>1[56]\d\d|1330[0-2]\d|1340[3-5]0)(?!\d)"#

    /// An app's line as Xcode's console prints it, and an Error-level one as `log show` does.
    static func app(_ message: String) -> String { "2024-11-05 21:07:44.512018-0800 Recipes[3121:4a0b7] \(message)" }
    static func logShowError(_ message: String) -> String {
        "2025-05-19 19:41:09.906001-0400 0x1a2b     Error       0x0                  905    0    Recipes: \(message)"
    }

    static let all: [Rule] = marked + unmarked

    /// With the `CoreData: error:` marker, before the ubiquity family's other rules of it.
    static let marked: [Rule] = [
        Rule("store-add-failed-selector", .coreDataError, .storeAddFailed, selectorReturnedError,
             samples: [
                Sample.coreDataError("addPersistentStoreWithType:configuration:URL:options:error: returned error NSCocoaErrorDomain (134110)"),
             ]) { match in addFailed(match) },
        Rule("store-add-recovery-failed", .coreDataError, .storeAddFailed, addRecoveryFailed,
             samples: [
                Sample.coreDataError(#"<NSPersistentStoreCoordinator: 0x105b88480>: Attempting recovery from error encountered during addPersistentStore: 0x105b0e220 Error Domain=NSCocoaErrorDomain Code=512 "The file couldn’t be saved." UserInfo={reason=Failed to create file; code = 2}"#),
                Sample.coreDataError(#"Recovery attempt while adding <NSPersistentStoreDescription: 0x105b0e220> (type: SQLite, url: file:///var/mobile/Containers/Data/Application/0F1E/Library/Application%20Support/Journal.sqlite) FAILED with error Error Domain=NSCocoaErrorDomain Code=512 "The file couldn’t be saved." UserInfo={reason=Failed to create file; code = 2}"#),
             ]) { match in addFailed(match) },
        Rule("store-failed-to-load", .coreDataError, .storeAddFailed, storeFailedToLoad,
             samples: [
                Sample.coreDataError("Store failed to load.  <NSPersistentStoreDescription: 0x600003d0c0c0> (type: SQLite, url: file:///Users/ana/Library/Application%20Support/default.store) with error = Error Domain=NSCocoaErrorDomain Code=134110 \"An error occurred during persistent store migration.\" UserInfo={reason=Cannot migrate store in-place: Validation error missing attribute values on mandatory destination attribute} with userInfo {\n    reason = \"Cannot migrate store in-place: Validation error missing attribute values on mandatory destination attribute\";\n}"),
             ]) { match in addFailed(match) },
        // Core Data's second attempt to add the store (after making its missing folder) succeeded.
        Rule("store-add-recovered", .coreDataError, .storeLoadSucceeded, recoverySucceeded,
             samples: [
                Sample.coreDataError("Recovery attempt while adding <NSPersistentStoreDescription: 0x105b0e220> (type: SQLite, url: file:///var/mobile/Containers/Data/Application/0F1E/Library/Application%20Support/Journal.sqlite) was successful!"),
             ]) { _ in .storeLoadSucceeded(.unknown) },
        Rule("store-file-corrupt", .coreDataError, .storeFileCorrupt, sqliteCorrupt,
             samples: [
                Sample.coreDataError("(11) Fatal error.  The database at /var/mobile/Containers/Data/Application/0F1E/Library/Application Support/Journal.sqlite is corrupted.  SQLite error code:11, 'database disk image is malformed'"),
                Sample.coreDataError("-executeRequest: encountered exception = I/O error for database at /var/mobile/Containers/Data/Application/0F1E/Library/Application Support/Journal.sqlite.  SQLite error code:11, 'database disk image is malformed' with userInfo = {\n    NSFilePath = \"/var/mobile/Containers/Data/Application/0F1E/Library/Application Support/Journal.sqlite\";\n    NSSQLiteErrorDomain = 11;\n}"),
             ]) { match in corrupt(match) },
    ]

    /// Without a marker: Core Data's records after `unmarkedPrefix`, then the app's prints.
    static let unmarked: [Rule] = [
        Rule("store-add-failed-unmarked", .coreDataUnmarked, .storeAddFailed, unmarkedPrefix + "(?:" + addReturnedError + "|" + selectorReturnedError + ")",
             samples: [
                app("[error] error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///Users/dev/Library/Application%20Support/Recipes.sqlite options:{\n    NSPersistentHistoryTrackingKey = 1;\n} ... returned error Error Domain=NSCocoaErrorDomain Code=134140 \"Persistent store migration failed, missing mapping model.\" UserInfo={reason=Can't find or automatically infer mapping model for migration} with userInfo dictionary {\n    reason = \"Can't find or automatically infer mapping model for migration\";\n}"),
                logShowError("(CoreData) [com.apple.coredata:error] error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///var/mobile/Containers/Data/Application/0F1E/Library/Application%20Support/Recipes.sqlite options:{\n    NSPersistentStoreRemoteChangeNotificationOptionKey = 1;\n} ... returned error NSCocoaErrorDomain(134100) with userInfo dictionary {\n    reason = \"The model used to open the store is incompatible with the one used to create the store\";\n}"),
                app("error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///Users/dev/Library/Application%20Support/Recipes.sqlite options:{\n} ... returned error NSCocoaErrorDomain(134100) with userInfo dictionary {\n}"),
                logShowError("(CoreData) [com.apple.coredata:error] addPersistentStoreWithType:configuration:URL:options:error: returned error NSCocoaErrorDomain (134110)"),
             ]) { match in addFailed(match) },
        Rule("store-add-recovery-failed-unmarked", .coreDataUnmarked, .storeAddFailed, addRecoveryFailed,
             samples: [
                app("CoreData: annotation: : Attempting recovery from error encountered during addPersistentStore: 0x600002c4c0a0 Error Domain=NSCocoaErrorDomain Code=134110 \"An error occurred during persistent store migration.\" UserInfo={reason=Cannot migrate store in-place: near \"null\": syntax error}"),
                logShowError("(CoreData) [com.apple.coredata:error] <NSPersistentStoreCoordinator: 0x105b88480>: Attempting recovery from error encountered during addPersistentStore: 0x105b0e220 Error Domain=NSCocoaErrorDomain Code=134100 \"The model used to open the store is incompatible with the one used to create the store\""),
             ]) { match in addFailed(match) },
        Rule("store-failed-to-load-unmarked", .coreDataUnmarked, .storeAddFailed, unmarkedPrefix + storeFailedToLoad,
             samples: [
                app("error: Store failed to load.  <NSPersistentStoreDescription: 0x600003d0c0c0> (type: SQLite, url: file:///Users/dev/Library/Application%20Support/default.store) with error = Error Domain=NSCocoaErrorDomain Code=134110 \"An error occurred during persistent store migration.\" UserInfo={reason=Cannot migrate store in-place: Validation error missing attribute values on mandatory destination attribute} with userInfo {\n    reason = \"Cannot migrate store in-place: Validation error missing attribute values on mandatory destination attribute\";\n}"),
             ]) { match in addFailed(match) },
        Rule("store-add-recovered-unmarked", .coreDataUnmarked, .storeLoadSucceeded, unmarkedPrefix + recoverySucceeded,
             samples: [
                logShowError("(CoreData) [com.apple.coredata:error] Recovery attempt while adding <NSPersistentStoreDescription: 0x105b0e220> (type: SQLite, url: file:///var/mobile/Containers/Data/Application/0F1E/Library/Application%20Support/Journal.sqlite) was successful!"),
             ]) { _ in .storeLoadSucceeded(.unknown) },
        Rule("store-file-corrupt-unmarked", .coreDataUnmarked, .storeFileCorrupt, sqliteCorrupt,
             samples: [
                logShowError("(CoreData) [com.apple.coredata:error] error: (11) Fatal error.  The database at /var/mobile/Containers/Data/Application/0F1E/Library/Application Support/Recipes.sqlite is corrupted.  SQLite error code:11, 'database disk image is malformed'"),
                app("error: (26) Fatal error.  The database at /Users/dev/Library/Application Support/Recipes.sqlite is corrupted.  SQLite error code:26, 'file is not a database'"),
             ]) { match in corrupt(match) },

        Rule("app-store-load-failed-code", .coreDataUnmarked, .appStoreLoadFailed, appLoadCode,
             samples: [
                app("Unresolved error Error Domain=NSCocoaErrorDomain Code=134110 \"An error occurred during persistent store migration.\" UserInfo={reason=Cannot migrate store in-place: Validation error missing attribute values on mandatory destination attribute}"),
                app("Fatal error: Unresolved error Error Domain=NSCocoaErrorDomain Code=134100 \"The managed object model version used to open the persistent store is incompatible with the one that was used to create the persistent store.\" UserInfo={metadata={\n    NSPersistenceFrameworkVersion = 1338;\n}, reason=The model used to open the store is incompatible with the one used to create the store}, [\"reason\": The model used to open the store is incompatible with the one used to create the store]"),
                logShowError("[com.example.recipes:Persistence] Failed to load store: Error Domain=NSCocoaErrorDomain Code=134140 \"Persistent store migration failed, missing mapping model.\""),
             ]) { match in appFailed(match) },
        Rule("app-store-load-failed-words", .coreDataUnmarked, .appStoreLoadFailed, appLoadWords,
             samples: [
                logShowError("[com.example.recipes:Persistence] Failed to load persistent stores: Error Domain=NSCocoaErrorDomain Code=256 \"The file “Recipes.sqlite” couldn’t be opened.\" UserInfo={NSSQLiteErrorDomain=14, NSFilePath=/var/mobile/Containers/Data/Application/0F1E/Library/Application Support/Recipes.sqlite}"),
                app("Unresolved error loading container Error Domain=NSCocoaErrorDomain Code=134060 \"A Core Data error occurred.\" UserInfo={NSLocalizedFailureReason=Persistent History (4) has to be truncated due to the following entities being removed: (\n    Recipe\n)}"),
             ]) { match in appFailed(match) },
        CloudKitEvent.rule("cloudkit-swiftdata-load-failed", .coreDataUnmarked, .cloudKitSwiftDataLoadFailed, appSwiftDataLoad,
             samples: [
                CKSample.app("Recipes/RecipesApp.swift:24: Fatal error: Could not create ModelContainer: SwiftDataError(_error: SwiftData.SwiftDataError._Error.loadIssueModelContainer, _explanation: nil)"),
                // On the line after the app's words for it.
                app("Could not create ModelContainer:\nSwiftDataError(_error: SwiftData.SwiftDataError._Error.loadIssueModelContainer, _explanation: nil)"),
             ]),
        Rule("app-save-failed", .coreDataUnmarked, .appSaveFailed, appSave,
             samples: [
                logShowError("[com.example.recipes:Persistence] Save failed: Error Domain=NSCocoaErrorDomain Code=1570 \"%{PROPERTY}@ is a required value.\" UserInfo={NSValidationErrorKey=name, NSValidationErrorObject=<Recipe: 0x600>}"),
                app("Failed to save: Error Domain=NSCocoaErrorDomain Code=133020 \"Could not merge changes.\" UserInfo={conflictList=(\n    \"NSMergeConflict (0x600) for NSManagedObject (0x601) with objectID '0x8a1c <x-coredata://8B2E4C1A/Recipe/p12>'\"\n)}"),
             ]) { match in appFailed(match, .appSaveFailed) },
    ]

    /// Core Data's failed add: the store type, its URL and the error, printed as an NSError or,
    /// in its own records, as `NSCocoaErrorDomain(134100)` with the user info's `reason` after it.
    static func addFailed(_ match: RuleMatch) -> Event {
        var error = match.error()
        if error == nil, let domain = match["domain"], let code = match.int("code") {
            error = ErrorInfo(domain: domain, code: code, reason: reason(in: Substring(match.message)))
        } else if error == nil {
            error = returnedError(in: match.message)
        }
        return .storeAddFailed(storeType: match["storeType"], url: match["url"], error: error)
    }

    /// `returned error NSCocoaErrorDomain(134100)` (or `… (134100)`), with the `reason` of the
    /// user-info dictionary printed after it.
    static func returnedError(in message: String) -> ErrorInfo? {
        guard let found = message.firstRange(ofASCII: "returned error ") else { return nil }
        let rest = message[found.upperBound...]
        let domain = rest.prefix { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }
        var after = rest[domain.endIndex...]
        if after.first == " " { after = after.dropFirst() }
        guard !domain.isEmpty, after.first == "(", let code = Int(after.dropFirst().prefix { $0 == "-" || $0.isNumber }) else { return nil }
        return ErrorInfo(domain: String(domain), code: code, reason: reason(in: rest))
    }

    /// The value of the first `reason = …;` entry of a printed dictionary, unquoted.
    static func reason(in text: Substring) -> String? {
        guard let key = text.firstRange(ofASCII: "reason = ") else { return nil }
        let value = text[key.upperBound...].prefix { $0 != "\n" && $0 != ";" }.trimmingCharacters(in: "\"")
        return value.isEmpty ? nil : value
    }

    /// The app's print of a failed load (or of `kind`), with its error.
    static func appFailed(_ match: RuleMatch, _ kind: EventKind = .appStoreLoadFailed) -> Event {
        var fields = FieldList()
        fields.add(match.error())
        return .message(kind, fields.items)
    }

    /// A corrupt store file: SQLite's code and message, and the file when the record names it.
    static func corrupt(_ match: RuleMatch) -> Event {
        var fields = FieldList()
        fields.add("sqliteCode", match.int("sqliteCode"))
        fields.add("sqliteMessage", match["sqliteMessage"])
        fields.add(match.error())
        let message = match.message
        if let at = message.firstRange(ofASCII: "database at "), let end = message[at.upperBound...].firstRange(ofASCII: ".sqlite") {
            fields.add("filePath", String(message[at.upperBound..<end.upperBound]))
        }
        return .message(.storeFileCorrupt, fields.items)
    }

    /// What `explain` says of the kinds these rules add.
    static let guidance: [String: Guidance] = [
        "app-store-load-failed": Guidance(next: "The store is not loaded: the app has no data (or crashed, after a fatalError); a later store-load-succeeded, or a cloudkit-setup-succeeded of the same store, shows a retry that worked.",
            action: "Look up the error's code with `parselogs explain CODE`: 134100 and 134110 to 134170 need a model version and a migration that works; 134080 the store's options or entitlements."),
        "app-save-failed": Guidance(next: "The changes stay unsaved in their context; nothing of them reaches the store or CloudKit.",
            action: "Read the error: validation errors (1550 to 1680) name the attribute and object; 133020 and 133021 need a merge policy."),
        "store-file-corrupt": Guidance(next: "Every fetch and save of the store fails until the file is restored; with CloudKit mirroring a new store downloads the data again.",
            action: "Remove the store's files (.sqlite, -wal, -shm) and let it be rebuilt from iCloud or a backup; look for what wrote to the file outside Core Data (a copy while open, a file protection lock)."),
    ]
}
