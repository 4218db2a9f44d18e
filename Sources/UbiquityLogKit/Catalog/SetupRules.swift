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
             #"(?:Initializing stack|Setting up metadataMOC for stack:|Stack Changes:)"#,
             samples: [
                Sample.ios7("-[_PFUbiquityStack initWithMetadataEntry:]", 70, "Initializing stack(<_PFUbiquityStack: 0x15d5a1c0>) with metadata entry: <PFUbiquityMetadataFactoryEntry: 0x15d5b2d0>"),
                Sample.ios6("Setting up metadataMOC for stack: <_PFUbiquityStack: 0x1d5a2d40>\n\tlocalPeerID: \(Sample.peer)"),
                Sample.ios6("Stack Changes: {\n    peers = 2;\n}"),
             ]),

        Rule.message("ubiquity-root-located", .ubiquity, .ubiquityRootLocated,
             #"(?:(?:Truncated )?[Pp]ath: (?<path>[^\n]*?) is a ubiquity root url\.|Ignoring private file: (?<file>[^\n]*))"#,
             samples: [
                Sample.ios7("+[PFUbiquityLocation createUbiquityLocationForPath:withUbiquityRootLocation:]", 219, "Path: \(Sample.root) is a ubiquity root url.\nMatches: \(Sample.root)"),
                Sample.ios7("+[PFUbiquityLocation createUbiquityLocationForPath:withUbiquityRootLocation:]", 240, "Ignoring private file: \(Sample.root)/.DS_Store"),
             ]),

        Rule.message("file-change-observed", .ubiquity, .fileChangeObserved,
             Piece.objectPrefix + #"(?:Got change notification for url: (?<url>[^\n]*)|Coordinated read finished for ubiquity root url: (?<root>[^\n]*))"#,
             samples: [
                Sample.ios7("-[PFUbiquityFilePresenter presentedSubitemDidChangeAtURL:]", 153, "<PFUbiquityFilePresenter: 0x15d5c3e0>\n\tubiquityRootLocation: \(Sample.location(Sample.root))\n\tlocalPeerID: \(Sample.peer)\nGot change notification for url: file://\(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile)"),
                Sample.ios7("-[PFUbiquitySetupAssistant canReadFromUbiquityRootLocation:]_block_invoke", 438, "Coordinated read finished for ubiquity root url: file://\(Sample.root)/"),
             ]),

        Rule.message("peer-receipt-written", .ubiquity, .peerReceiptWritten,
             Piece.objectPrefix + #"(?::[ ]*Successfully wrote to file\.|Successfully wrote to file\.|Checking peer file upload:|Successfully wrote peer receipt file:)"#,
             samples: [
                Sample.ios7("-[PFUbiquityPeerReceipt writeFileToLocation:error:]", 135, "<PFUbiquityPeerReceipt: 0x15d5d4f0>(0)\n\tpermanentLocation: \(Sample.location("\(Sample.root)/\(Sample.peer)/receipt.0.cdt"))\n\tsafeLocation: (null)\n\tcurrentLocation: (null)\n: Successfully wrote to file."),
                Sample.ios6("<PFUbiquityPeerReceipt: 0x1d5b3e50>: Successfully wrote to file."),
                Sample.ios7("-[PFUbiquitySafeSaveFile checkSafeSaveFileUpload]", 301, "Checking peer file upload: <PFUbiquityPeerReceipt: 0x15d5d4f0>(0)"),
             ]),

        Rule.message("knowledge-vector-matched", .ubiquity, .knowledgeVectorMatched,
             Piece.objectPrefix + #"Local store knowledge vector matches (?<against>metadata|receipt) knowledge vector\."#,
             samples: [
                Sample.ios6("<PFUbiquitySetupAssistant: 0x1d5a4f60>\nLocal store knowledge vector matches metadata knowledge vector."),
             ]),

        Rule.message("switchboard-entry-missing", .ubiquity, .switchboardEntryMissing,
             Piece.objectPrefix + #"Didn't get a switchboard entry back after trying to register store:"#,
             samples: [
                Sample.ios6("<PFUbiquitySetupAssistant: 0x1d5a4f60>\nDidn't get a switchboard entry back after trying to register store: <NSSQLCore: 0x1d5a1c30>"),
             ]),
    ]
}
