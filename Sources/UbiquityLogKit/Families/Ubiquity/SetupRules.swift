// Routine chatter of the ubiquity stack: set-up, locations, file presenters, peer receipts.
// Shown from -vv; recognised so that it is never reported as unhandled.

extension EventKind {
    public static let stackInitialized = EventKind("stack-initialized", .setup, .debug, .routine,
        "Core Data set up the ubiquity stack or its metadata context for a store.")
    public static let ubiquityRootLocated = EventKind("ubiquity-root-located", .setup, .debug, .routine,
        "Core Data matched a path to the ubiquity root (or ignored a private file).")
    public static let fileChangeObserved = EventKind("file-change-observed", .setup, .debug, .routine,
        "The file presenter saw a change in the ubiquity container, or finished a coordinated read.")
    public static let peerReceiptWritten = EventKind("peer-receipt-written", .metadata, .debug, .routine,
        "This device wrote or checked its peer receipt, which tells other devices what it has imported.")
    public static let knowledgeVectorMatched = EventKind("knowledge-vector-matched", .metadata, .debug, .routine,
        "The local store's knowledge vector matches its metadata: nothing to catch up.")
    public static let switchboardEntryMissing = EventKind("switchboard-entry-missing", .setup, .debug, .routine,
        "Registering a store with the ubiquity switchboard returned no entry (seen on iOS 6 during set-up).")
}

enum SetupRules {
    static let all: [Rule] = [
        Rule.message("stack-initialized", .ubiquity, .stackInitialized,
             #"(?:Initializing stack|Setting up metadataMOC for stack:)"#,
             samples: [
                Sample.ios7("-[_PFUbiquityStack initWithMetadataEntry:]", 70, "Initializing stack(<_PFUbiquityStack: 0x15d5a1c0>) with metadata entry: <PFUbiquityMetadataFactoryEntry: 0x15d5b2d0>"),
                Sample.ios6("Setting up metadataMOC for stack: <_PFUbiquityStack: 0x1d5a2d40>\n\tlocalPeerID: \(Sample.peer)"),
             ]),

        Rule.message("ubiquity-root-located", .ubiquity, .ubiquityRootLocated,
             #"(?:(?:Truncated )?[Pp]ath: (?<path>[^\n]*?) is a ubiquity root url\.|Ignoring private file: (?<file>[^\n]*))"#,
             samples: [
                Sample.ios7("+[PFUbiquityLocation createUbiquityLocationForPath:withUbiquityRootLocation:]", 219, "Path: \(Sample.root) is a ubiquity root url.\nMatches: \(Sample.root)"),
                Sample.ios7("+[PFUbiquityLocation createUbiquityLocationForPath:withUbiquityRootLocation:]", 240, "Ignoring private file: \(Sample.root)/.DS_Store"),
             ]),

        Rule.message("file-change-observed", .ubiquity, .fileChangeObserved,
             PatternPiece.objectPrefix + #"(?:Got change notification for url: (?<url>[^\n]*)|Coordinated read finished for ubiquity root url: (?<root>[^\n]*))"#,
             samples: [
                Sample.ios7("-[PFUbiquityFilePresenter presentedSubitemDidChangeAtURL:]", 153, "<PFUbiquityFilePresenter: 0x15d5c3e0>\n\tubiquityRootLocation: \(Sample.location(Sample.root))\n\tlocalPeerID: \(Sample.peer)\nGot change notification for url: file://\(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile)"),
                Sample.ios7("-[PFUbiquitySetupAssistant canReadFromUbiquityRootLocation:]_block_invoke", 438, "Coordinated read finished for ubiquity root url: file://\(Sample.root)/"),
             ]),

        Rule.message("peer-receipt-written", .ubiquity, .peerReceiptWritten,
             PatternPiece.objectPrefix + #"(?::[ ]*Successfully wrote to file\.|Successfully wrote to file\.|Checking peer file upload:|Successfully wrote peer receipt file:)"#,
             samples: [
                Sample.ios7("-[PFUbiquityPeerReceipt writeFileToLocation:error:]", 135, "<PFUbiquityPeerReceipt: 0x15d5d4f0>(0)\n\tpermanentLocation: \(Sample.location("\(Sample.root)/\(Sample.peer)/receipt.0.cdt"))\n\tsafeLocation: (null)\n\tcurrentLocation: (null)\n: Successfully wrote to file."),
                Sample.ios6("<PFUbiquityPeerReceipt: 0x1d5b3e50>: Successfully wrote to file."),
                Sample.ios7("-[PFUbiquitySafeSaveFile checkSafeSaveFileUpload]", 301, "Checking peer file upload: <PFUbiquityPeerReceipt: 0x15d5d4f0>(0)"),
             ]),

        Rule.message("knowledge-vector-matched", .ubiquity, .knowledgeVectorMatched,
             PatternPiece.objectPrefix + #"Local store knowledge vector matches (?<against>metadata|receipt) knowledge vector\."#,
             samples: [
                Sample.ios6("<PFUbiquitySetupAssistant: 0x1d5a4f60>\nLocal store knowledge vector matches metadata knowledge vector."),
             ]),

        Rule.message("switchboard-entry-missing", .ubiquity, .switchboardEntryMissing,
             PatternPiece.objectPrefix + #"Didn't get a switchboard entry back after trying to register store:"#,
             samples: [
                Sample.ios6("<PFUbiquitySetupAssistant: 0x1d5a4f60>\nDidn't get a switchboard entry back after trying to register store: <NSSQLCore: 0x1d5a1c30>"),
             ]),
    ]
}

// The setup assistant, which prepares a store for iCloud on every load: reading the
// container, the initial sync, receipts, baselines, moving local logs, side-loading.

extension EventKind {
    public static let setupError = EventKind("setup-error", .setup, .error, .notable,
        "A step of setting the store up for iCloud failed (moving logs, side-loading, the container identity, the import coordinator); setup usually fails or retries after it.")
    public static let setupProblem = EventKind("setup-problem", .setup, .warning, .notable,
        "A step of setting the store up for iCloud met a problem it can continue past.")
    public static let setupProgress = EventKind("setup-progress", .setup, .debug, .routine,
        "A routine step of setting the store up for iCloud.")
    public static let setupRetry = EventKind("setup-retry", .setup, .warning, .notable,
        "Setting the store up for iCloud failed and Core Data will try again after a delay.")
    public static let initialSync = EventKind("initial-sync", .setup, .info, .detail,
        "Progress of the first read of the ubiquity container: waiting for iCloud's initial sync, downloading the peers' logs.")
    public static let sideLoad = EventKind("side-load", .store, .info, .notable,
        "Core Data built a new local store from the cloud's transaction logs (a side load) and swapped it in.")
    public static let containerForked = EventKind("container-forked", .corruption, .warning, .notable,
        "Core Data found that this device's history has forked from the cloud's and is moving its own logs aside to start over from the cloud.")
    public static let identityTokenCurrent = EventKind("identity-token-current", .account, .info, .detail,
        "The iCloud identity token (which account) the store is being set up for.")
    public static let cloudDocsUnavailable = EventKind("clouddocs-unavailable", .setup, .error, .notable,
        "Core Data could not link the CloudDocs framework or a symbol of it: iCloud sync cannot work in this process.")
    public static let missingErrorObject = EventKind("missing-error-object", .setup, .warning, .notable,
        "Core Data reported a failure without an NSError (its own bug): the failing step is named by the source file and line.")
}

enum SetupAssistantRules {
    static let all: [Rule] = [
        Rule.phrases("setup-retry", .setupRetry, [
            #"Setup failed because of a missing file, retrying\((?<attempt>\d+)\):"#,
        ], numeric: ["attempt"], samples: [
            Sample.ios7("-[PFUbiquitySetupAssistant finishSetupWithRetry:]", 912,
                        "Setup failed because of a missing file, retrying(1): \(Sample.error134302)"),
        ]),

        Rule.phrases("setup-retry-after-object", .setupRetry, [
            #"Retrying after delay: (?<delay>\d+)"#,
        ], position: .afterObject, numeric: ["delay"], samples: [
            Sample.ios7("-[PFUbiquitySetupAssistant finishSetupWithRetry:]", 930,
                        "<PFUbiquitySetupAssistant: 0x15d4e0a0>\n\tstoreName: JournalStore: Retrying after delay: 60\n\(Sample.error134302)"),
        ]),

        Rule.phrases("setup-error", .setupError, [
            #"gethostuuid returned -1\. Giving up now\."#, #"User Defaults didn't synchronize"#,
            #"Error attempting to read ubiquity root url:"#, #"Unable to get the mod time for baseline"#,
            #"Unable to delete forked contents:"#, #"Unable to destroy persistent store:"#,
            #"Error moving local log files to the ubiquity directory:"#, #"Error prungin the staging directory:"#,
            #"Error starting monitor:"#, #"Couldn't clean up from failed setup"#,
            #"Unable to (?:remove|create) (?:temporary|temproary) store directory:"#, #"Couldn't identify container:"#,
            #"Trouble identifying container:"#, #"Unable to write to peer transaction log directory:"#,
            #"Error moving local log(?: files)?:"#, #"Error deleting old local log:"#, #"Error moving log file to local directory:"#,
            #"Error moving log: "#, #"Error removing side-load (?:store|directory)"#, #"Error creating side-load directory:"#,
            #"Error purging history cache:"#, #"Error side loading local logs:"#, #"Error refreshing peer range cache:"#,
            #"Unable to reinitialize store knowledge vector:"#, #"Error while trying to create the import coordinator"#,
        ], samples: [
            Sample.ios7("-[PFUbiquitySetupAssistant finishSetupForStore:error:]", 1012,
                        "<PFUbiquitySetupAssistant: 0x15d4e0a0>\nError moving local log files to the ubiquity directory: \(Sample.error134302)"),
        ]),

        Rule.phrases("setup-problem", .setupProblem, [
            #"Unable to scan root location:"#, #"Error reading local log directory:"#,
            #"Error encountered while preparing store metadata:"#, #"Error trying to read peer version directory:"#,
            #"Error rewriting log:"#, #"File went missing:"#, #"Error pruning (?:local|ubiquity) root directory:"#,
            #"Failed to remove sideload store:"#, #"Unable to replace (?s:.*?) with side loaded store:"#,
            #"Unable to (?:move log to permanent location|delete log):"#, #"Aborting setup because store removed from coordinator\."#,
            #"No one agrees\n"#, #"Looks like we were passed the full URL, not the store file URL:"#,
        ], samples: [
            Sample.ios7("-[PFUbiquitySetupAssistant canReadFromUbiquityRootLocation:]", 455,
                        "<PFUbiquitySetupAssistant: 0x15d4e0a0>\nUnable to scan root location: \(Sample.location(Sample.root))"),
        ]),

        Rule.phrases("setup-progress", .setupProgress, [
            #"Created actual store url:"#, #"Using the original store URL \(linked on or after"#, #"processName:"#,
            #"Returning private sys id"#, #"Detecting Fork and is force:"#, #"Unable to load baseline from"#,
            #"Removed old fork directory:"#, #"Store file exists: (?<exists>\d+)"#, #"Moved local log files\."#,
            #"Pruned (?:staging directory|local root directory:|ubiquity root directory:)"#, #"Started Monitor"#,
            #"Purged temporary store directory\."#, #"Created temporary store directory:"#,
            #"Local peer receipt exists in cloud:"#, #"Removed (?:dangling temporary peer receipt|conflicting versions of receipt file):"#,
            #"Created ubiquity peer log directory:"#, #"Moved (?:local log|orphaned log to sync'd directory|log to temporary location|log file to local directory):"#,
            #"Deleted orphaned log:"#, #"(?:Finished rewriting|Rewriting) save snapshot"#, #"Rewrote log:"#,
            #"Removed old local log:"#, #"Tried deleting file:"#, #"Cleared out (?:store|directory) for side-load:"#,
            #"Created directory for side-load:"#, #"Purged history cache"#, #"Looks like the store was changed in will change"#,
            #"Attempting to replace store:"#, #"Updated store knowledge vector to:"#, #"Refreshed peer range cache:"#,
        ], numeric: ["exists"], samples: [
            Sample.ios7("-[PFUbiquitySetupAssistant finishSetupForStore:error:]", 1060, "<PFUbiquitySetupAssistant: 0x15d4e0a0>\nStarted Monitor"),
        ]),

        Rule.phrases("setup-progress-by-method", .setupProgress, [PatternPiece.descriptionOnly],
            position: .method,
            methods: ["-[PFUbiquitySetupAssistant finishSetupForStore:error:]",
                      "-[PFUbiquitySetupAssistant performCoordinatorPostStoreSetup:error:]",
                      "-[PFUbiquitySetupAssistant validateOptionsWithError:]"],
            samples: [
                Sample.ios7("-[PFUbiquitySetupAssistant performCoordinatorPostStoreSetup:error:]", 1302,
                            "<PFUbiquitySetupAssistant: 0x15d4e0a0>\n\tstoreName: JournalStore\n\tlocalPeerID: \(Sample.peer)"),
            ]),

        // iOS 5 and 6 print no method: the setup assistant's description alone is the same news.
        Rule.phrases("setup-progress-by-description", .setupProgress,
            [#"\A<PFUbiquitySetupAssistant: 0x[0-9a-fA-F]+>(?:\n\t[^\n]*)*\z"#],
            position: .withoutMethod,
            samples: [
                Sample.ios6("<PFUbiquitySetupAssistant: 0x1d54e0a0>\n\tstoreName: JournalStore\n\tlocalPeerID: \(Sample.peer)"),
                Sample.ios6("<PFUbiquitySetupAssistant: 0x1d54e0a0>"),
            ]),

        Rule.phrases("initial-sync", .initialSync, [
            #"Initial sync (?:complete:|handler called)"#, #"Blocking for initial sync:"#, #"Found Peer:"#,
            #"Starting download (?:of all known peers|on root URL):"#, #"All the faults are live"#,
            #"Read finished: (?<finished>\d+)"#,
        ], numeric: ["finished"], samples: [
            Sample.ios7("-[PFUbiquitySetupAssistant canReadFromUbiquityRootLocation:]", 470, "Blocking for initial sync: file://\(Sample.root)/"),
        ]),

        Rule.phrases("side-load", .sideLoad, [
            #"Import (?<phase>started|finished) \(Side load\)"#, #"Side load finish:"#, #"Imported local logs:"#,
            #"Replaced (?s:.*?) with "#, #"Successfully migrated seed store:"#,
        ], samples: [
            Sample.ios7("-[PFUbiquitySetupAssistant sideLoadStore:error:]", 1601, "Import finished (Side load)"),
        ]),

        Rule.phrases("container-forked", .containerForked, [#"Fork detected, will fork now"#], samples: [
            Sample.ios7("-[PFUbiquitySetupAssistant detectAndFixForkedContainer:store:error:]", 1721, "Fork detected, will fork now"),
        ]),

        Rule.phrases("identity-token-current", .identityTokenCurrent, [#"Current identity token: (?<token>[^\n]*)"#], samples: [
            Sample.ios7("-[PFUbiquitySetupAssistant doPostValidationInit:]", 611, "Current identity token: <_NSUbiquityIdentityToken: 0x15d4a0c0>"),
        ]),

        Rule.phrases("clouddocs-unavailable", .cloudDocsUnavailable, [
            #"CloudDocs\.framework missing symbol (?<symbol>\w+)"#, #"Unable to dynamically link CloudDocs\.framework"#,
        ], channel: .coreDataError, samples: [
            Sample.coreDataError("CloudDocs.framework missing symbol BRStartDownloadForItems"),
        ]),

        Rule.phrases("missing-error-object", .missingErrorObject, [
            #"Illegal attempt to return an error without one in (?<file>[^\n:]+):(?<line>\d+)"#,
        ], channel: .coreDataError, numeric: ["line"], samples: [
            "2014-03-02 09:14:07.318 Journal[412:60b] CoreData: Illegal attempt to return an error without one in /Library/Caches/com.apple.xbs/Sources/Persistence/Classes/Persistency/Ubiquity/PFUbiquityBaseline.m:412",
        ]),
    ]
}
