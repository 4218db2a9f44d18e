// Files of the ubiquity container (presenting, coordinating, downloading, locating) and the
// ubiquity metadata kept beside the store: peer states, receipts, knowledge vectors.

extension EventKind {
    public static let fileAccessFailed = EventKind("file-access-failed", .setup, .error, .notable,
        "Reading, stat'ing or removing a file of the ubiquity container failed with an error Core Data does not know how to recover from.")
    public static let fileAccessProblem = EventKind("file-access-problem", .setup, .warning, .notable,
        "A coordinated read or move of a container file failed once; Core Data retries it or cleans up an orphaned file.")
    public static let containerStrayFile = EventKind("container-stray-file", .setup, .warning, .notable,
        "Core Data met a file in the ubiquity content folder that it cannot place (no peer's log, no file of its own): it ignores that file. Stray files there, or a content URL shared with other files, are the usual cause.")
    public static let containerOwnFile = EventKind("container-own-file", .setup, .info, .detail,
        "Core Data met one of its own files in the ubiquity container (a baseline archive, the ubiquity metadata store, a peer's folder) where it looks for transaction logs, and passed over it: nothing is lost.")
    public static let fileStatus = EventKind("file-status", .setup, .debug, .routine,
        "The file presenter followed a file of the ubiquity container: its location, download state, or promise.")
    public static let ubiquityOptionsInvalid = EventKind("ubiquity-options-invalid", .store, .error, .notable,
        "The store was added with iCloud options Core Data rejects, or with the store file in a place iCloud must not manage.")
    public static let metadataError = EventKind("metadata-error", .metadata, .error, .notable,
        "The ubiquity metadata beside the store (peer states, transaction history, metadata store) could not be read or written.")
    public static let metadataProblem = EventKind("metadata-problem", .metadata, .warning, .notable,
        "Something in the ubiquity metadata was inconsistent; Core Data works around it or recovers the metadata.")
    public static let metadataProgress = EventKind("metadata-progress", .metadata, .debug, .routine,
        "Routine bookkeeping of the ubiquity metadata: receipts loaded, peers found, snapshots diffed.")
    public static let peerReceiptFailed = EventKind("peer-receipt-failed", .metadata, .warning, .notable,
        "This device's peer receipt (what it has imported, for other devices to see) could not be read or written.")
    public static let peerReceiptProblem = EventKind("peer-receipt-problem", .metadata, .warning, .notable,
        "Writing or cleaning up the peer receipt failed this time; it is written again later.")
    public static let accountChangeFailed = EventKind("account-change-failed", .account, .error, .notable,
        "After the iCloud account changed, Core Data could not set the store up for the new account.")
    public static let ubiquityStackLost = EventKind("ubiquity-stack-lost", .setup, .warning, .notable,
        "An operation found its ubiquity stack gone, usually because the store was removed while it ran (an account change, the app tearing down its stack).")
}

enum FileAndMetadataRules {
    static let all: [Rule] = [
        Rule.phrases("file-access-failed", .fileAccessFailed, [
            #"Encountered (?:unknown librarian|unknown ubiquity|unrecoverable) error:"#, #"Error trying to read file \(-?\d+\):"#,
            #"Error reading resource values for URL:"#, #"Unable to remove file at location:"#,
        ], samples: [
            Sample.ios7("-[PFUbiquityFileCoordinator shouldRetryForError:ignoreFile:]", 97,
                        "<PFUbiquityFileCoordinator: 0x15d5c000>\nEncountered unrecoverable error: \(Sample.error134302)\nuserInfo: {\n}"),
        ]),

        // iOS 6 meets every file under the content URL; what it cannot place it names and skips.
        Rule("container-stray-file", .ubiquity, .containerStrayFile,
             PatternPiece.objectPrefix + #"Unable to continue parse components of URL: (?<url>[^\n]*?)[ ]*(?:\n[ \t]*Confused by: (?<confusedBy>[^\n]*))?$"#,
             samples: [
                Sample.ios6("Unable to continue parse components of URL: file://localhost\(Sample.root)/notes.txt\nConfused by: notes.txt"),
                Sample.ios7("+[PFUbiquityLocation createUbiquityLocationForPath:withUbiquityRootLocation:]", 1139,
                            "Unable to continue parse components of URL: file://\(Sample.root)/\(Sample.peer)/Journal.sqlite\nConfused by: Journal.sqlite"),
                Sample.ios7("+[PFUbiquityLocation createUbiquityLocationForPath:withUbiquityRootPath:]", 821,
                            "Unable to continue parse components of URL: /var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/Data.nosync/.baseline/JournalStore/Qm9vaw==/baseline.zip\nConfused by: baseline.zip"),
                Sample.console("+[PFUbiquityLocation createUbiquityLocationForPath:withUbiquityRootPath:]", 833,
                               "Unable to continue parse components of URL: /var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs/.cdmetadata/metadata.nosync/mobile.6F2C0E8A1B7D4C559A342B8E1D0C7F11/metadata.store\nConfused by: metadata.store"),
                Sample.ios6("Unable to continue parse components of URL: /var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs/.cdmetadata/metadata.nosync/mobile.6F2C0E8A1B7D4C559A342B8E1D0C7F11\nConfused by: mobile.6F2C0E8A1B7D4C559A342B8E1D0C7F11"),
             ]) { match in
            var fields = FieldList()
            let file = Extract.fileName(match["url"])
            let confusedBy = match["confusedBy"]?.trimmingCharacters(in: " \t")
            fields.add("url", match["url"])
            fields.add("file", file)
            fields.add("confusedBy", confusedBy)
            if let url = match["url"], isCoreDataOwn(path: url, file: file, confusedBy: confusedBy) {
                fields.add("causeText", "Passed over Core Data's own \(file ?? "file") in the ubiquity container: \(url)")
                return .message(.containerOwnFile, fields.items)
            }
            return .message(.containerStrayFile, fields.items)
        }.producing([.containerOwnFile]),

        Rule.phrases("file-access-problem", .fileAccessProblem, [
            #"Unlinking orphaned file:"#, #"Replacing error with file upload error:"#,
            #"Coordinated read returned an error:"#, #"Had trouble file from:"#,
        ], samples: [
            Sample.ios7("-[PFUbiquityFileCoordinator coordinateReadingItemAtLocation:options:retryOnError:error:byAccessor:]", 160,
                        "<PFUbiquityFileCoordinator: 0x15d5c000>\nCoordinated read returned an error: \(Sample.error134302)\nuserInfo: {\n}\n Retrying (1)."),
        ]),

        Rule.phrases("file-status", .fileStatus, [
            #"Didn't get a location back for url:"#, #"Skipping location \((?<reason>[^)\n]*)\):"#,
            #"URL is a promise file, skipping file URL state check"#, #"Starting download for"#, #"File isn't live yet:"#,
            #"Checking file download:"#, #"Successfully moved file from:"#,
            #"Tried to stat (?:missing file|a file but part of the directory structure has gone missing):"#,
            #"Got nil location for subpath:"#, #"Path: (?s:.*?) does not appear to be a descendant of the root url:"#,
            #"Changing path component to remove promise suffix"#, #"Creating file:"#, #"Got delete for metadata store:"#,
            #"Application resumed, scheduling check\."#, #"(?:Un)?[Rr]egistering for application will resign active\."#,
            #"Beginning to watch for changes from:"#,
        ], samples: [
            Sample.ios7("-[PFUbiquityFilePresenter processPendingURLs]", 502, "File isn't live yet: file://\(Sample.root)/\(Sample.logFile)"),
        ]),

        Rule.phrases("file-status-by-method", .fileStatus, [PatternPiece.descriptionOnly, #"(?s:.*?)\n[ \t]*Status: "#],
            position: .method,
            methods: ["-[PFUbiquityFilePresenter printStatus:]", "-[PFUbiquityFilePresenter processPendingURLs]"],
            samples: [
                Sample.ios7("-[PFUbiquityFilePresenter printStatus:]_block_invoke", 590,
                            "<PFUbiquityFilePresenter: 0x15d5c3e0>\n\tpendingURLs: 0\n\tscheduledURLs: 0"),
            ]),

        // The same two messages as iOS 5 and 6 print them, without the method: the presenter's
        // description alone, or followed by a file's status.
        Rule.phrases("file-status-by-description", .fileStatus,
            [#"\A<PFUbiquityFilePresenter: 0x[0-9a-fA-F]+>(?:\n\t[^\n]*)*(?:\n[ \t]*Status: [^\n]*)?\z"#],
            position: .withoutMethod,
            samples: [
                Sample.ios6("<PFUbiquityFilePresenter: 0x15d5c3e0>\n\tubiquityRootLocation: \(Sample.location(Sample.root))\n\tlocalPeerID: \(Sample.peer)\nStatus: downloaded"),
                Sample.ios6("<PFUbiquityFilePresenter: 0x15d5c3e0>\n\tpendingURLs: 0"),
                "Mar  2 09:14:07 iPad Journal[233] <Warning>: CoreData: Ubiquity: <PFUbiquityFilePresenter: 0x1d5c3e0>\nStatus: pending",
            ]),

        Rule.phrases("ubiquity-options-invalid", .ubiquityOptionsInvalid, [
            #"Error: A persistent store which has been previously added to a coordinator using the iCloud integration options"#,
            #"It appears the store file is nested inside the container log directory"#,
            #"Invalid option: the value for NSPersistentStoreUbiquitousContentNameKey should not contain periods"#,
            #"Invalid value for NSPersistentStoreUbiquitousPeerTokenOption:"#, #"No model version hash for coordinator:"#,
        ], samples: [
            Sample.ios7("-[PFUbiquitySetupAssistant validateOptionsWithError:]", 1402,
                        "Invalid option: the value for NSPersistentStoreUbiquitousContentNameKey should not contain periods: Journal.Store"),
        ]),

        Rule.phrases("metadata-error", .metadataError, [
            #"Error locating metadata for local persistent store:"#, #"Error fetching peer state for peerID:"#, #"Got a bad gap for range:"#,
            #"Error or too many peer states:"#, #"Error getting peer:"#,
            #"Had trouble loading the (?:deleted|updated|inserted) objects for a the transaction log:"#,
            #"Error removing metaDataStore:"#, #"Trouble adding the metadata store to the coordinator:"#,
            #"Conflict metadata fetch failed with error:"#, #"Got nil transaction entries for fetch request:"#,
            #"Error during metadata recovery for store:"#, #"Error scheduling root scan after metadata recovery:"#,
            #"Error attempting to recache transaction history:"#, #"Error trying to open metadata store:"#,
            #"Error loading new store metadata after side load:"#,
        ], samples: [
            Sample.ios7("-[_PFUbiquityRecordsImporter metadataInconsistencyDetectedForStore:]_block_invoke", 1770,
                        "\(Sample.importer)\nError during metadata recovery for store: <NSSQLCore: 0x15d52f60>\nError: \(Sample.error134302)\nUser Info: {\n}"),
        ]),

        Rule.phrases("metadata-error-after-object", .metadataError, [
            #"unable to construct metadata entry\."#,
        ], position: .afterObject, samples: [
            Sample.ios7("-[PFUbiquityMetadataFactory newMetadataEntryForLocalPeerID:storeName:andUbiquityRootLocation:error:]", 131,
                        "<PFUbiquityMetadataFactory: 0x15d4f000> unable to construct metadata entry.\n\tEntry: (null)\n\tlocalPeerID: \(Sample.peer)\n\trootLocation: \(Sample.location(Sample.root))\n\tError: \(Sample.error134302)\nuserInfo: {\n}"),
        ]),

        Rule.phrases("metadata-problem", .metadataProblem, [
            #"Unable to create knowledge vector from string:"#, #"Found multiple ranges for entity:"#,
            #"Error setting store options on store metadata:"#, #"No global ID for managed object ID:"#,
            #"Asked to unregister non-ubiquitized store:"#, #"Error purging transaction history cache:"#,
            #"Error getting knowledge vector from metadata store:"#,
            #"Error fetching metadata store knowledge vector, metadata will be recovered:"#,
            #"Metadata migration failed:"#,
        ], samples: [
            Sample.ios7("-[_PFUbiquityStack createMetadataStoreKnowledgeVector:]", 201, "Error getting knowledge vector from metadata store: \(Sample.error134302)"),
        ]),

        Rule.phrases("metadata-problem-after-object", .metadataProblem, [
            #"skipping non-transaction log location returned from sub locations:"#,
        ], position: .afterObject, samples: [
            Sample.ios7("-[PFUbiquityStoreMetadataMedic recoverTransactionLogMetadataWithImportContext:error:]", 402,
                        "<PFUbiquityStoreMetadataMedic: 0x15ec0a80> skipping non-transaction log location returned from sub locations: \(Sample.location("\(Sample.root)/.DS_Store"))"),
        ]),

        Rule.phrases("metadata-progress", .metadataProgress, [
            #"Successfully loaded receipt:"#, #"Found more than one peer object for peer ID:"#, #"Generated diff for snapshot:"#,
            #"Looks like the container URL moved for store metadata:"#, #"Successfully rebuilt metadata for log:"#,
            #"Got empty knowledge vector from string:"#, #"Registered store: (?s:.*?) with entry:"#,
        ], samples: [
            Sample.ios7("-[PFUbiquityPeerReceipt loadFileFromLocation:error:]", 88, "Successfully loaded receipt: <PFUbiquityPeerReceipt: 0x15d5d4f0>(0)"),
        ]),

        Rule.phrases("metadata-progress-after-object", .metadataProgress, [
            #"ignoring schedule request because it is not allowed:"#,
        ], position: .afterObject, samples: [
            Sample.ios7("-[PFUbiquitySwitchboardCacheWrapper scheduleReceiptFileWrite:]", 181,
                        "<PFUbiquitySwitchboardCacheWrapper: 0x15d5e000> ignoring schedule request because it is not allowed: <PFUbiquityPeerReceipt: 0x15d5d4f0>(0)"),
        ]),

        Rule.phrases("peer-receipt-written-after-object", .peerReceiptWritten, [
            #"Successfully wrote to file\."#,
        ], position: .afterObject, samples: [
            Sample.ios7("-[PFUbiquityPeerReceipt writeFileToLocation:error:]", 135,
                        "<PFUbiquityPeerReceipt: 0x15d5d4f0>(0)\n\tpermanentLocation: \(Sample.location("\(Sample.root)/\(Sample.peer)/receipt.0.cdt")): Successfully wrote to file."),
        ]),

        Rule.phrases("peer-receipt-failed", .peerReceiptFailed, [
            #"Unable to load knowledge vector from location:"#, #"Unable to load receipt file:"#,
            #"Error writing local peer receipt file to disk:"#, #"Error attempting to remove conflicts for the receipt file:"#,
            #"Error checking receipt file status:"#,
        ], samples: [
            Sample.ios7("-[PFUbiquityPeerReceipt loadFileFromLocation:error:]", 101,
                        "Unable to load receipt file: \(Sample.location("\(Sample.root)/\(Sample.peer)/receipt.0.cdt"))\nuserInfo: {\n}"),
        ]),

        Rule.phrases("peer-receipt-failed-after-object", .peerReceiptFailed, [
            #"Unable to write receipt file\."#, #"encountered an error while trying to write receipt:"#,
        ], position: .afterObject, samples: [
            Sample.ios7("-[PFUbiquityPeerReceipt writeFileToLocation:error:]", 141,
                        "<PFUbiquityPeerReceipt: 0x15d5d4f0>(0): Unable to write receipt file. Error: \(Sample.error134302)\nuserInfo: {\n}"),
        ]),

        Rule.phrases("peer-receipt-problem", .peerReceiptProblem, [
            #"Receipt file write failed:"#, #"Error writing receipt file before switchboard removal:"#,
            #"Error removing peer receipt from safe save location:"#, #"Error reading receipt file, will remove so it can be replaced later:"#,
            #"Error attempting to remove dangling temporary peer receipt:"#,
        ], samples: [
            Sample.ios7("-[PFUbiquitySwitchboardCacheWrapper _appWillResignActive:]", 140,
                        "<PFUbiquitySwitchboardCacheWrapper: 0x15d5e000>\nReceipt file write failed: \(Sample.error134302)"),
        ]),

        Rule.phrases("account-change-failed", .accountChangeFailed, [
            #"Error (?:purging transaction history cache|loading new temporary coordinator|loading new store metadata) after account change"#,
        ], samples: [
            Sample.ios7("-[PFUbiquitySwitchboardEntry containerIdentifierChanged:]_block_invoke_2", 702,
                        "Error loading new store metadata after account change: \(Sample.error134302)"),
        ]),

        Rule.phrases("ubiquity-stack-lost", .ubiquityStackLost, [
            #"(?:loadFromBaselineMetadata|addTransactionHistoryEntriesForObjectIDs): lost its stack"#,
            #"import operation's context lost its stack's managedobjectcontext"#,
        ], samples: [
            Sample.ios7("-[_PFUbiquityRecordImportOperation main]", 318, "import operation's context lost its stack's managedobjectcontext"),
        ]),
    ]
}

extension FileAndMetadataRules {
    /// Whether a file Core Data could not place in the content folder is one of its own: in
    /// the baseline or ubiquity metadata folders it keeps there, a baseline archive or model,
    /// the metadata store (and its SQLite companions), or a peer's folder.
    static func isCoreDataOwn(path: String, file: String?, confusedBy: String?) -> Bool {
        let folders = ["/.baseline/", "/.cdmetadata/", "/metadata.nosync/"]
        if folders.contains(where: { path.containsText($0) }) { return true }
        for name in [file, confusedBy].compactMap({ $0 }) {
            if name.hasPrefix("baseline.") || name.hasPrefix("metadata.store") || name == ".baseline" || name == ".cdmetadata" { return true }
            if TransactionLogTracker.isPeerID(Substring(name)) { return true }
        }
        return false
    }
}
