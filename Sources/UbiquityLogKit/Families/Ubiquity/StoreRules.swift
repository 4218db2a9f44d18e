// Core Data's own messages about adding stores and setting up ubiquity on them.

extension EventKind {
    public static let usingLocalStorage = EventKind("using-local-storage", .store, .info, .notable,
        "Core Data says which store is active: 1 is the local fallback store used until the initial iCloud import finishes, 0 the iCloud store.")
    public static let storeAddFailed = EventKind("store-add-failed", .store, .error, .notable,
        "addPersistentStoreWithType: failed: Core Data could not open or set up the store.")
    public static let ubiquitySetupFailed = EventKind("ubiquity-setup-failed", .setup, .error, .notable,
        "Core Data could not set up iCloud integration for a store; the store is not syncing.")
    public static let initialSyncFailed = EventKind("initial-sync-failed", .setup, .error, .notable,
        "The iCloud initial sync did not answer in time or returned an error.")
    public static let localStorageNoted = EventKind("local-storage-noted", .store, .debug, .routine,
        "The switchboard recorded the storage of a peer's store and printed only the peer and the store's name, without the `Using local storage:` line that says which store is active.")
    public static let storeSetupFinished = EventKind("store-setup-finished", .setup, .debug, .routine,
        "Core Data finished setting up a ubiquitous store.")
}

enum StoreRules {
    static let all: [Rule] = [
        Rule("using-local-storage", .ubiquity, .usingLocalStorage,
             #"(?:(?<peer>[^\s:<>]+):(?<storeName>[^\n]*)\n[ \t]*)?Using local storage: (?<local>[01])(?: for new NSFileManager current token (?<token>[^\n]*))?"#,
             samples: [
                Sample.ios7("-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:]", 808, "\(Sample.peer):JournalStore\nUsing local storage: 0"),
                Sample.ios7("-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:]", 872, "\(Sample.peer):JournalStore\nUsing local storage: 1 for new NSFileManager current token <aa3c9a8e 71d5c04d>"),
                Sample.console("-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:]", 808, "\(Sample.peer):JournalStore\nUsing local storage: 1"),
             ]) { match in
            .usingLocalStorage(match["local"] == "1", peer: match["peer"], store: match["storeName"])
        },

        // The same method's record cut to its first line, `peer:store` alone.
        Rule.message("local-storage-noted", .ubiquity, .localStorageNoted,
             #"\A(?<peer>[A-Za-z0-9_-]+[~.][0-9A-Fa-f]{8}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{12}):(?<storeName>[^\n:]+?)[ ]*\z"#,
             samples: [
                Sample.ios7("-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:]", 808, "\(Sample.peer):JournalStore"),
                Sample.console("-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:]", 906, "mac~11D2AB34-5566-4788-99AA-BBCCDDEEFF00:Ledger Store"),
             ]),

        Rule.message("ubiquity-setup-failed", .ubiquity, .ubiquitySetupFailed,
             #"(?:An error occurred while setting up the ubiquity integration: (?<error>[^\n]*)|Setup failed (?:after attempting (?:to )?|after waiting for )(?<step>[^\n]*?)\.?$)"#,
             samples: [
                Sample.ios7("-[NSPersistentStoreCoordinator addPersistentStoreWithType:configuration:URL:options:error:]_block_invoke", 1860,
                            "An error occurred while setting up the ubiquity integration: \(Sample.error134302)\nuserInfo: {\n    reason = \"Could not read the transaction log\";\n}"),
                Sample.ios7("-[PFUbiquitySetupAssistant finishSetupForStore:error:]", 512,
                            "<PFUbiquitySetupAssistant: 0x15d4e0a0>\nSetup failed after attempting to initialize the baseline.\n\(Sample.error134302)"),
             ]),

        Rule.message("store-setup-finished", .ubiquity, .storeSetupFinished,
             #"Post store setup succee?ded\.[ ]*(?<store>[^\n]*)"#,
             samples: [
                Sample.ios7("-[NSPersistentStoreCoordinator addPersistentStoreWithType:configuration:URL:options:error:]_block_invoke", 1858,
                            "Post store setup succeded. <NSSQLCore: 0x15d52f60> (URL: file:///var/mobile/Applications/4C1F/Documents/Journal.sqlite)"),
                Sample.ios6("Post store setup succeded."),
             ]),

        Rule("store-add-failed", .coreDataError, .storeAddFailed,
             #"-?addPersistentStoreWithType:(?<storeType>[^\s]+) configuration:(?<configuration>[^\s]+) URL:(?<url>[^\s]+)"#,
             samples: [
                Sample.coreDataError("-addPersistentStoreWithType:SQLite configuration:(null) URL:file:///var/mobile/Applications/4C1F/Documents/Journal.sqlite options:{\n    NSPersistentStoreUbiquitousContentNameKey = JournalStore;\n} ... returned error Error Domain=NSCocoaErrorDomain Code=134100 \"The operation couldn’t be completed. (Cocoa error 134100.)\" UserInfo=0x15e81b30 {metadata={\n    NSPersistenceFrameworkVersion = 479;\n}, reason=The model used to open the store is incompatible with the one used to create the store} with userInfo dictionary {\n    reason = \"The model used to open the store is incompatible with the one used to create the store\";\n}"),
             ]) { match in
            .storeAddFailed(storeType: match["storeType"], url: match["url"], error: match.error())
        },

        Rule.message("initial-sync-failed", .coreDataError, .initialSyncFailed,
             #"[ ]*iCloud: Error: (?:failed to receive initial sync notification call back in (?<seconds>\d+) seconds|initial sync notification returned an error \((?<error>[^\n]*)\))"#,
             numeric: ["seconds"],
             samples: [
                Sample.coreDataError(" iCloud: Error: failed to receive initial sync notification call back in 90 seconds"),
                Sample.coreDataError(" iCloud: Error: initial sync notification returned an error (Error Domain=BRCloudDocsErrorDomain Code=12 \"not logged in\")"),
             ]),
    ]
}
