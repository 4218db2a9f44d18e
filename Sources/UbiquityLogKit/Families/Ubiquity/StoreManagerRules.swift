// UbiquityStoreManager's messages: which store it loads, how that went, cloud switches,
// account changes, corruption and its recovery. Matched at the message start, also when an
// app's logger re-prefixes them (`[USM] Will load cloud store.`).

extension EventKind {
    public static let storesLoading = EventKind("stores-loading", .store, .info, .detail,
        "UbiquityStoreManager began (re)loading the active store.")
    public static let storeLoadStarted = EventKind("store-load-started", .store, .info, .notable,
        "A store began to load: the cloud store or the local store.")
    public static let storeLoadDetails = EventKind("store-load-details", .store, .info, .detail,
        "Which store is being loaded: its URL, or the cloud store's UUID and version.")
    public static let storeLoadSucceeded = EventKind("store-load-succeeded", .store, .info, .notable,
        "The store loaded and the app can use it.")
    public static let storeLoadFailed = EventKind("store-load-failed", .store, .error, .notable,
        "The store failed to load. For the cloud store, UbiquityStoreManager next tries to rebuild it from cloud content.")
    public static let storeLoadRetried = EventKind("store-load-retried", .store, .warning, .notable,
        "After a failed cloud store load, the store is loaded again, rebuilding it from the cloud content.")
    public static let cloudStoreUnavailable = EventKind("cloud-store-unavailable", .account, .warning, .notable,
        "The cloud store cannot load because no iCloud account is logged in; the local store is used.")
    public static let storeManagerError = EventKind("store-manager-error", .store, .error, .notable,
        "UbiquityStoreManager reported an error, with its cause.")
    public static let storeManagerErrorDetail = EventKind("store-manager-error-detail", .store, .info, .notable,
        "The context, underlying error or detailed errors of the error reported just before.")
    public static let storeMigration = EventKind("store-migration", .store, .info, .detail,
        "Whether and how a store is seeded from another store (local to cloud, cloud to local).")
    public static let storeMigrationFailed = EventKind("store-migration-failed", .store, .warning, .notable,
        "A store migration could not run or was reverted.")
    public static let storesChanged = EventKind("stores-changed", .store, .info, .detail,
        "UbiquityStoreManager told the app its stores will change or did change (reset or refresh its UI).")
    public static let storesCleared = EventKind("stores-cleared", .store, .debug, .routine,
        "UbiquityStoreManager removed the stores from the coordinator before loading one.")
    public static let storeDeleted = EventKind("store-deleted", .store, .warning, .notable,
        "A store or the whole cloud container is being deleted.")
    public static let storeUUIDChanged = EventKind("store-uuid-changed", .store, .info, .notable,
        "The cloud store's UUID changed: another device rebuilt the cloud content, so this device switches to the new cloud store.")
    public static let storeUUIDWritten = EventKind("store-uuid-written", .store, .info, .detail,
        "UbiquityStoreManager recorded, confirmed or retired a cloud store UUID.")
    public static let cloudSwitched = EventKind("cloud-switched", .account, .info, .notable,
        "iCloud was switched on or off for the app's store.")
    public static let identityTokenChanged = EventKind("identity-token-changed", .account, .info, .notable,
        "The iCloud account changed (logged in, out, or another account).")
    public static let cloudDeleted = EventKind("cloud-deleted", .account, .warning, .notable,
        "The cloud content was deleted (by another device or the user); the local store takes over.")
    public static let importFailureDetected = EventKind("import-failure-detected", .import, .error, .notable,
        "UbiquityStoreManager saw Core Data fail to import a transaction log; it treats the cloud content as corrupt.")
    public static let cloudCorruptionDetected = EventKind("cloud-corruption-detected", .corruption, .error, .notable,
        "The cloud content is corrupt: transaction logs cannot be imported into the cloud store.")
    public static let cloudStoreMarkedCorrupt = EventKind("cloud-store-marked-corrupt", .corruption, .error, .notable,
        "The cloud store failed to load even after a rebuild attempt and is marked corrupt: it is unavailable until the content is rebuilt.")
    public static let corruptionHandling = EventKind("corruption-handling", .corruption, .warning, .notable,
        "How the corruption is being handled: by the app, by waiting for a healthy device to rebuild, or by rebuilding here.")
    public static let cloudContentRebuild = EventKind("cloud-content-rebuild", .corruption, .warning, .notable,
        "The cloud content is being rebuilt or overwritten from one of the stores.")
    public static let cloudRebuildFailed = EventKind("cloud-rebuild-failed", .corruption, .error, .notable,
        "The cloud content cannot be rebuilt: there is no store to rebuild it from.")
    public static let ubiquityChangesMerged = EventKind("ubiquity-changes-merged", .import, .info, .detail,
        "Imported iCloud changes were merged into the app's managed object context.")
    public static let ubiquityChangesNotMerged = EventKind("ubiquity-changes-not-merged", .import, .warning, .notable,
        "Imported iCloud changes were not merged into the app's context: the app gave no context to merge into.")
    public static let storeManagerWarning = EventKind("store-manager-warning", .setup, .warning, .notable,
        "UbiquityStoreManager cannot watch for problems as it should (missing swizzling, monitor query).")
    public static let storeManagerDebug = EventKind("store-manager-debug", .store, .debug, .routine,
        "UbiquityStoreManager's [DEBUG] details of a store load.")
}

enum StoreManagerRules {
    /// `logError:` prints its message inside an NSError: `Error (cause:X): Error Domain=… {NSLocalizedFailureReason=MESSAGE}`.
    private static let errorPrefix = #"(?:Error \(cause:(?<cause>[^)\n]*)\): (?s:.*?))?"#

    static let all: [Rule] = [
        Rule.message("stores-loading", .storeManager, .storesLoading,
             #"(?<action>Loading|Reloading) store\.\.\."#,
             samples: [Sample.usm("Loading store..."), Sample.appLogged("Reloading store...")]),

        Rule("store-load-started", .storeManager, .storeLoadStarted,
             #"Will load "# + PatternPiece.location + #" store\."#,
             samples: [Sample.usm("Will load cloud store."), Sample.usm("Will load local store."), Sample.appLogged("Will load local store.")]) { match in
            .storeLoadStarted(location(match), store: nil)
        },

        Rule.message("store-load-details", .storeManager, .storeLoadDetails,
             #"(?:Loading cloud store: (?<storeUUID>[^,\n]*), v(?<version>\d+) \((?<uuidState>[^)\n]*)\)\.|Loading store: (?<storeURL>[^\n]*))"#,
             numeric: ["version"],
             samples: [Sample.usm("Loading cloud store: \(Sample.storeUUID), v2 (definite)."),
                       Sample.usm("Loading store: file:///var/mobile/Applications/4C1F/Library/Application%20Support/UbiquityStore.sqlite")]),

        Rule("store-load-succeeded", .storeManager, .storeLoadSucceeded,
             #"Successfully loaded "# + PatternPiece.location + #" store\."#,
             samples: [Sample.usm("Successfully loaded cloud store."), Sample.usm("Successfully loaded local store.")]) { match in
            .storeLoadSucceeded(location(match))
        },

        Rule.message("cloud-store-marked-corrupt", .storeManager, .cloudStoreMarkedCorrupt,
             #"Failed to load cloud store\.  ?Marking cloud store as corrupt\."#,
             samples: [Sample.usm("Failed to load cloud store. Marking cloud store as corrupt. Store will be unavailable.")]),

        Rule("store-load-failed", .storeManager, .storeLoadFailed,
             errorPrefix + #"Failed to load "# + PatternPiece.location + #" store\.(?![ ]+Marking)"#,
             samples: [
                Sample.usm(#"Error (cause:UbiquityStoreErrorCauseOpenActiveStore): Error Domain=NSCocoaErrorDomain Code=0 "The operation couldn’t be completed. (Cocoa error 0.)" UserInfo=0x15e8c2d0 {NSLocalizedFailureReason=Failed to load cloud store.}"#),
                Sample.usm("Failed to load local store."),
             ]) { match in
            .storeLoadFailed(location(match), error: rootCause(match))
        },

        Rule.message("store-load-retried", .storeManager, .storeLoadRetried,
             #"Attempting recovery by rebuilding from cloud content\."#,
             samples: [Sample.usm("Attempting recovery by rebuilding from cloud content.")]),

        Rule.message("cloud-store-unavailable", .storeManager, .cloudStoreUnavailable,
             #"(?:Cannot|Could not) load cloud store: User is not logged into iCloud\.(?<fallback>  ?Falling back to local store\.)?"#,
             samples: [Sample.usm("Cannot load cloud store: User is not logged into iCloud.  Falling back to local store."),
                       Sample.usm("Could not load cloud store: User is not logged into iCloud.")]),

        Rule("import-failure-detected", .storeManager, .importFailureDetected,
             errorPrefix + #"Detected iCloud transaction log import failure\."#,
             samples: [Sample.usm(#"Error (cause:UbiquityStoreErrorCauseCloudContentCorruption): Error Domain=NSCocoaErrorDomain Code=0 "The operation couldn’t be completed. (Cocoa error 0.)" UserInfo=0x15ec3b10 {NSLocalizedFailureReason=Detected iCloud transaction log import failure.}"#)]) { match in
            .message(.importFailureDetected, match["cause"].map { [Field("cause", .string($0))] } ?? [])
        },

        Rule("store-migration-failed", .storeManager, .storeMigrationFailed,
             errorPrefix + #"(?:Cannot migrate local to cloud: Local store doesn't exist\.|Reverting migration attempt of (?<store>[^\n]*?), will (?<action>[^\n]*?) cloud\.)"#,
             samples: [Sample.usm("Cannot migrate local to cloud: Local store doesn't exist."),
                       Sample.usm("Reverting migration attempt of UbiquityStore.sqlite, will disable cloud.")]) { match in
            var fields = FieldList()
            fields.add("cause", match["cause"])
            fields.add("storeURL", match["store"])
            fields.add("action", match["action"])
            return .message(.storeMigrationFailed, fields.items)
        },

        // Older versions print the error itself, with no failure reason of their own: the
        // error (domain, code, reason, file, underlying) is the event's root cause.
        Rule("store-manager-error", .storeManager, .storeManagerError,
             #"Error \(cause:(?<cause>[^)\n]*)\): "#,
             samples: [Sample.usm(#"Error (cause:UbiquityStoreErrorCauseDeleteStore): Error Domain=NSCocoaErrorDomain Code=4 "The operation couldn’t be completed. (Cocoa error 4.)" UserInfo=0x15ec4c20 {NSFilePath=/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/StoreUUID}"#),
                       Sample.usm(#"Error (cause:UbiquityStoreErrorCauseOpenActiveStore): Error Domain=NSCocoaErrorDomain Code=134100 "The operation couldn’t be completed. (Cocoa error 134100.)" UserInfo={metadata={NSPersistenceFrameworkVersion = 479;}, reason=The model used to open the store is incompatible with the one used to create the store}"#)]) { match in
            var fields = FieldList()
            fields.add("cause", match["cause"])
            fields.add(match.error(from: match.matchEnd))
            return .message(.storeManagerError, fields.items)
        },

        // The underlying error is the root cause of the failure reported just before it.
        Rule("store-manager-error-detail", .storeManager, .storeManagerErrorDetail,
             #"[ ]*- (?<part>Context|Underlying|Detail)[ ]*: (?<detail>[^\n]*)"#,
             samples: [Sample.usm("    - Context   : <NSSQLCore: 0x15d52f60> (URL: file:///var/mobile/Applications/4C1F/Documents/Journal.sqlite)"),
                       Sample.usm("    - Underlying: \(Sample.error134302)")]) { match in
            var fields = FieldList()
            fields.add("part", match["part"])
            fields.add("detail", match["detail"])
            if match["part"] == "Underlying", let start = match.range("detail")?.lowerBound { fields.add(match.error(from: start)) }
            return .message(.storeManagerErrorDetail, fields.items)
        },

        Rule.message("store-migration", .storeManager, .storeMigration,
             #"(?:(?:\[DEBUG\] )?Will (?<not>NOT )?migrate to (?<store>cloud|local) store from: (?<from>[^\n]*?) \(strategy: (?<strategy>\d+)\)\.?|Seeding store \(strategy: (?<strategyName>\w+)\): (?<from>[^\n]*?) -> (?<to>[^\n]*))"#,
             numeric: ["strategy"],
             samples: [Sample.usm("Will migrate to cloud store from: UbiquityStore.sqlite (strategy: 1)."),
                       Sample.usm("[DEBUG] Will NOT migrate to cloud store from: UbiquityStore.sqlite (strategy: 0)."),
                       Sample.usm("Seeding store (strategy: UbiquityStoreMigrationStrategyIOS): file:///a/UbiquityStore.sqlite -> file:///b/\(Sample.storeUUID).sqlite")]),

        Rule.message("stores-changed", .storeManager, .storesChanged,
             #"(?<reason>[^\n]*?)(?: \((?<cause>[^)\n]*)\))?\.  ?Notifying application to (?<action>reset|refresh) its UI\."#,
             samples: [Sample.usm("Will clear stores.  Notifying application to reset its UI."),
                       Sample.usm("Finished loading cloud store (UbiquityStoreErrorCauseNoError).  Notifying application to refresh its UI.")]),

        Rule.message("stores-cleared", .storeManager, .storesCleared,
             #"Clearing (?:\d+ )?stores(?<rest>[^\n]*)"#,
             samples: [Sample.usm("Clearing stores...")]),

        Rule.message("store-deleted", .storeManager, .storeDeleted,
             #"(?:Will delete the cloud container (?<container>[^\n]*?)\.|Will delete the cloud store \(UUID:(?<storeUUID>[^)\n]*)\) (?<storeURL>[^\n]*?)\.|Will delete the (?<store>local) store\.|Deleting cloud store: it has no cloud content\.)"#,
             samples: [Sample.usm("Will delete the cloud store (UUID:\(Sample.storeUUID)) file:///b/\(Sample.storeUUID).sqlite."),
                       Sample.usm("Will delete the local store."),
                       Sample.usm("Deleting cloud store: it has no cloud content.")]),

        Rule.message("store-uuid-changed", .storeManager, .storeUUIDChanged,
             #"StoreUUID changed (?<from>[^\s]*) -> (?<to>[^\s]*)"#,
             samples: [Sample.usm("StoreUUID changed \(Sample.storeUUID) -> 0B7C1D2E-3F40-4152-8364-7A8B9C0D1E2F")]),

        Rule.message("store-uuid-written", .storeManager, .storeUUIDWritten,
             #"(?:Writing new StoreUUID:[ ]?(?<storeUUID>[^\s]+) to (?<path>[^\n]*?) \(v(?<version>\d+)\)\.|Confirming tentative StoreUUID:[ ]?(?<tentativeUUID>[^\s]+)|Removing (?<removed>[^\n]*?) \(v(?<fromVersion>\d+)\) to force version down to (?<toVersion>\d+)\.)"#,
             numeric: ["version", "fromVersion", "toVersion"],
             samples: [Sample.usm("Writing new StoreUUID:\(Sample.storeUUID) to StoreUUID (v2)."),
                       Sample.usm("Confirming tentative StoreUUID: \(Sample.storeUUID)")]),

        Rule.message("cloud-switched", .storeManager, .cloudSwitched,
             #"(?:Switching cloud (?<from>[^\n]*?) -> (?<to>[^\n]*)|Will (?<action>enable|disable) cloud, (?<what>[^\n]*?) (?:cloud|local) store\.)"#,
             samples: [Sample.usm("Will enable cloud, loading cloud store."),
                       Sample.usm("Switching cloud disabled -> enabled")]),

        Rule.message("identity-token-changed", .storeManager, .identityTokenChanged,
             #"Identity token changed: (?<from>[^\n]*?) -> (?<to>[^\n]*)"#,
             samples: [Sample.usm("Identity token changed: <aa3c9a8e 71d5c04d> -> (null)")]),

        Rule.message("cloud-deleted", .storeManager, .cloudDeleted,
             #"(?:Handling cloud deletion\.|Recovering from cloud deletion\.  ?Falling back to local store\.)"#,
             samples: [Sample.usm("Handling cloud deletion."), Sample.usm("Recovering from cloud deletion.  Falling back to local store.")]),

        Rule("cloud-corruption-detected", .storeManager, .cloudCorruptionDetected,
             #"Cloud content corruption detected \(device store is (?<deviceStore>[^)\n]*)\)\."#,
             samples: [Sample.usm("Cloud content corruption detected (device store is healthy)."),
                       Sample.appLogged("Cloud content corruption detected (device store is corrupt).")]) { match in
            .cloudCorruptionDetected(deviceStore: match["deviceStore"])
        },

        Rule.message("corruption-handling", .storeManager, .corruptionHandling,
             #"(?:Application handled cloud corruption\.|Handling cloud corruption with default strategy: (?<strategy>[^\n]*?)\.?$)"#,
             samples: [Sample.usm("Handling cloud corruption with default strategy: Wait for a remote rebuild."),
                       Sample.usm("Application handled cloud corruption.")]),

        Rule.message("cloud-rebuild-failed", .storeManager, .cloudRebuildFailed,
             #"Cannot rebuild cloud content: Cloud store doesn't exist\.  ?Giving up\."#,
             samples: [Sample.usm("Cannot rebuild cloud content: Cloud store doesn't exist.  Giving up.")]),

        Rule.message("cloud-content-rebuild", .storeManager, .cloudContentRebuild,
             #"(?:Will rebuild cloud content from the cloud store \((?<how>[^)\n]*)\)\.|Cannot rebuild cloud content: Cloud store doesn't exist\.  ?Will rebuild from local store\.|Cloud store is healthy but version is below desired\.  ?Will rebuild to upgrade\.|Will overwrite the (?<target>local|cloud) store with the (?:local|cloud) store(?: \((?<how>[^)\n]*)\))?\.)"#,
             samples: [Sample.usm("Will rebuild cloud content from the cloud store (using cloud logs)."),
                       Sample.usm("Cannot rebuild cloud content: Cloud store doesn't exist.  Will rebuild from local store."),
                       Sample.usm("Will overwrite the cloud store with the local store.")]),

        Rule.message("ubiquity-changes-merged", .storeManager, .ubiquityChangesMerged,
             #"Importing ubiquity changes into application's MOC\.  ?Changes:"#,
             samples: [Sample.usm("Importing ubiquity changes into application's MOC.  Changes:\n{\n    inserted = (\n    );\n}")]),

        Rule.message("ubiquity-changes-not-merged", .storeManager, .ubiquityChangesNotMerged,
             #"Application did not specify an import MOC, not importing ubiquity changes:"#,
             samples: [Sample.usm("Application did not specify an import MOC, not importing ubiquity changes:\n{\n}")]),

        Rule.message("store-manager-warning", .storeManager, .storeManagerWarning,
             #"(?:Warning: (?<warning>JRSwizzle not present|Failed to swizzle)[^\n]*|Couldn't start monitor query for (?<query>[^\n]*?), already running\?)"#,
             samples: [Sample.usm("Warning: JRSwizzle not present, won't be able to detect desync issues."),
                       Sample.usm("Couldn't start monitor query for StoreUUID, already running?")]),

        Rule.message("store-manager-debug", .storeManager, .storeManagerDebug,
             #"\[DEBUG\] (?<detail>[^\n]*)"#,
             samples: [Sample.usm("[DEBUG] cloudSafeForSeeding: 1"), Sample.usm("[DEBUG] migrationStoreURL: (null)")]),
    ]

    /// The error behind a failure: `logError:` wraps the message in an error of code 0; the
    /// real one, when the record carries it (`- Underlying: …` on a later line), comes after.
    private static func rootCause(_ match: RuleMatch) -> ErrorInfo? {
        let bytes = match.messageBytes
        let marker = Array("Error Domain=".utf8)
        var from = 0
        while from < bytes.count,
              let found = marker.withUnsafeBytes({ ByteSearch.firstOffset(of: $0, in: UnsafeRawBufferPointer(rebasing: bytes[from...])) }) {
            if let error = match.error(from: from + found), error.code != 0 { return error }
            from += found + marker.count
        }
        return nil
    }

    private static func location(_ match: RuleMatch) -> StoreLocation {
        StoreLocation(rawValue: match["store"] ?? "") ?? .unknown
    }
}
