// The importer: transaction logs from other peers, scheduled, applied, skipped or failed.

extension EventKind {
    public static let changesImported = EventKind("changes-imported", .import, .info, .notable,
        "A transaction log from another device was applied to the local store: the objects it inserted, updated and deleted.")
    public static let logAlreadyImported = EventKind("log-already-imported", .import, .info, .detail,
        "A transaction log was skipped because the local store already contains it.")
    public static let logAheadOfPeer = EventKind("log-ahead-of-peer", .import, .warning, .notable,
        "A transaction log cannot be imported yet: it depends on changes this device has not received. It is retried when those arrive.")
    public static let incompatibleOperationSkipped = EventKind("incompatible-operation-skipped", .import, .warning, .notable,
        "An import operation was skipped because its knowledge vector does not fit the local store's.")
    public static let importFailed = EventKind("import-failed", .import, .error, .notable,
        "A transaction log could not be imported. The store on this device is missing those changes until it is rebuilt.")
    public static let peerModelMismatch = EventKind("peer-model-mismatch", .import, .warning, .notable,
        "Another device (peer) writes its transaction logs with another version of the data model: this device skips them and will never import them, so the two diverge until both run the same model version.")
    public static let importScan = EventKind("import-scan", .import, .debug, .routine,
        "The importer scanned the ubiquity container for new transaction logs.")
    public static let importScheduling = EventKind("import-scheduling", .import, .debug, .routine,
        "The importer scheduled import operations or posted an import notification.")
}

enum ImportRules {
    static let all: [Rule] = [
        Rule("changes-imported", .ubiquity, .changesImported,
             #"Changes applied for transaction log content, managed object context changes:"#,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordImportOperation main]", 387,
                    """
                    Changes applied for transaction log content, managed object context changes: 
                    \tinserted: {(
                        <Entry: 0x15f1a2b0> (entity: Entry; id: 0x15f1c3d0 <x-coredata://8F3A1C2B-6D4E-4F50-9B7A-1C2D3E4F5A6B/Entry/p31> ; data: {
                        body = "Bought bread.";
                        title = Shopping;
                    })
                    )}
                    \tupdated: {(
                        <Entry: 0x15f1d4e0> (entity: Entry; id: 0x15f1e5f0 <x-coredata://8F3A1C2B-6D4E-4F50-9B7A-1C2D3E4F5A6B/Entry/p12> ; data: <fault>)
                    )}
                    \tdeleted: {(
                    )}.
                    """),
             ]) { match in
            .changesImported(ObjectDump.changes(in: match.restBytes, attributes: match.readsDetails))
        },

        Rule("log-already-imported", .ubiquity, .logAlreadyImported,
             #"Skipping log because it has already been imported into the local store: (?<location>[^\n]*)"#,
             samples: [
                Sample.ios6("\(Sample.importer)\nSkipping log because it has already been imported into the local store: \(Sample.location("\(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile)"))"),
                Sample.ios7("-[_PFUbiquityRecordsImporter createSortedOperationsArrayWithMetadata:isFirstImport:]", 1144,
                            "\(Sample.importer)\nSkipping log because it has already been imported into the local store: \(Sample.location("\(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile)"))\nstoreKV: \(Sample.knowledgeVector)\nlogKV: \(Sample.knowledgeVector)\n"),
             ]) { match in
            .logAlreadyImported(log: Extract.logFileName(match["location"], in: match.messageBytes))
        },

        Rule("log-ahead-of-peer", .ubiquity, .logAheadOfPeer,
             #"Can't process log with score: (?<logScore>[^\n]*?) after log with score: (?<afterScore>[^\n]*)(?:\n[ \t]*(?<reason>[^\n]+))?"#,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordsImporter canProcessTransactionLogWithScore:afterLogWithScore:]", 962,
                            "\(Sample.importer)\nCan't process log with score: <PFUbiquityKnowledgeVector: 0x15e7a0b0>:{\(Sample.otherPeer):9} after log with score: \(Sample.knowledgeVector)\n It is ahead of the local peer."),
             ]) { match in
            .logAheadOfPeer(logScore: Extract.knowledgeVector(match["logScore"]),
                            localScore: Extract.knowledgeVector(match["afterScore"]),
                            reason: match["reason"]?.trimmingCharacters(in: " \t"))
        },

        Rule("incompatible-operation-skipped", .ubiquity, .incompatibleOperationSkipped,
             #"Skipping incompatible operation \((?<score>[^\n]*?)\):"#,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordsImporter createSortedOperationsArrayWithMetadata:isFirstImport:]", 1163,
                    """
                    \(Sample.importer)
                    Skipping incompatible operation (\(Sample.knowledgeVector)): <_PFUbiquityRecordImportOperation: 0x15e9c0d0>:
                    \tlocalPeerID: \(Sample.peer)
                    \tlogScore: <PFUbiquityKnowledgeVector: 0x15e9d1e0>:{\(Sample.otherPeer):4}
                    \ttransactionLog: <PFUbiquityTransactionLog: 0x15e9e2f0>
                    \ttransactionLogLocation: \(Sample.location("\(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile)"))
                    \ttransactionNumber: 4
                    """),
             ]) { match in
            .incompatibleOperationSkipped(score: Extract.knowledgeVector(Extract.field("logScore", in: match.restBytes) ?? match["score"]),
                                          log: Extract.logFileName(nil, in: match.restBytes),
                                          transaction: Extract.field("transactionNumber", in: match.restBytes).flatMap { Int($0) })
        },

        Rule("import-failed", .ubiquity, .importFailed,
             #"(?:Import operation (?:encountered had trouble importing log file|had trouble with the (?:fileystem|filesystem)|encountered an error|failed while synchronously restoring logs)|Error saving managed object context changes for transaction log:|Error loading comparison metadata for transaction log:)"#,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordsImporter operation:failedWithError:]", 1489,
                            "Import operation encountered had trouble importing log file, \(Sample.error134302)\n User Info: {\n    reason = \"Could not read the transaction log\";\n}\n The log file is at: \(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile).\nOperation: <_PFUbiquityRecordImportOperation: 0x15e9c0d0>"),
                Sample.ios7("-[_PFUbiquityRecordsImporter operation:failedWithError:]", 1502,
                            "Import operation had trouble with the fileystem, Error Domain=NSCocoaErrorDomain Code=260 \"The file couldn’t be opened because it doesn’t exist.\" UserInfo=0x15ea1b20 {NSFilePath=\(Sample.root)/x.cdt}\n User Info: {}\n The log file is at: \(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile).\nOperation: <_PFUbiquityRecordImportOperation: 0x15e9c0d0>"),
                Sample.console("-[_PFUbiquityRecordsImporter operation:failedWithError:]", 1511,
                               "Import operation encountered an error: \(Sample.error134302)\nuserInfo: {}. While trying to import the log file at the URL: file://\(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile)"),
             ]) { match in
            let text = match.message
            let location = importedLogLocation(in: text)
            return .importFailed(log: Extract.logFileName(location, in: match.messageBytes), error: match.error())
        },

        // OS X 10.7 and iOS 5 and 6: the import operation caught an exception. The log object's
        // description (its location and transaction number) and the exception are continuation
        // lines: `Error importing transaction log: <PFUbiquityTransactionLog: 0x…>`, a tab-indented
        // `transactionLogLocation: …/X.3.cdt`, then `, exception: REASON` and the user info.
        Rule("import-failed-exception", .ubiquity, .importFailed,
             #"Error importing transaction log\b(?:(?s:.*?)[\n,][ ]?exception: (?<exception>[^\n]*))?"#,
             samples: [
                "2012-02-14 21:03:11.482 Ledger[3312:6e03] CoreData: Ubiquity:  Error importing transaction log: <PFUbiquityTransactionLog: 0x10054c1a0>\n\ttransactionLogLocation: <PFUbiquityLocation: 0x10054b8f0>: /Users/ana/Library/Mobile Documents/9XK2M4Q7PL~net~example~ledger/Ledger/ana~5B0C7E21-4D3A-4A8F-9E12-77C0A1B2C3D4/LedgerStore/1F2E3D4C-5B6A-4978-8695-A4B3C2D1E0F9.3.cdt\n\ttransactionNumber: 3\n, exception: *** -[__NSArrayM insertObject:atIndex:]: object cannot be nil\nUser Info: (null)",
                Sample.ios7("-[_PFUbiquityRecordImportOperation main]", 313,
                            "Error importing transaction log: <PFUbiquityTransactionLog: 0x1e5d8e70>\n\ttransactionLogLocation: \(Sample.location("/private/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/Logs/mobile.A3D19B527E0C4F8AB1D65C2E9F04A7B3/JournalStore/\(Sample.logFile)"))\n\ttransactionNumber: 7\n, exception: -[__NSCFString objectForKey:]: unrecognized selector sent to instance 0x1e5a1230\nuserInfo: (null)"),
             ]) { match in
            importFailureByException(match)
        },

        Rule.message("import-scan", .ubiquity, .importScan,
             PatternPiece.objectPrefix + #"(?:Scheduling root scan|adding root scan|got subpaths of root location|Ignoring subpath \(model version hash\)|Got candidate log locations|Initiated download for urls|Finished scan of root location|Starting scan of location|Started download for logs)"#,
             samples: [
                Sample.ios6("\(Sample.importer)\nScheduling root scan"),
                Sample.ios6("<PFUbiquityImportScanOperation: 0x1d5c7e90> got subpaths of root location: (\n    \"\(Sample.peer)\"\n)"),
                Sample.ios7("-[_PFUbiquityRecordsImporter discoverAndImportAllAvailableLogs:error:]", 720, "Starting scan of location: \(Sample.location(Sample.root))"),
                Sample.ios7("-[_PFUbiquityRecordsImporter batchDownloadTransactionLogsAtLocations:error:]", 812, "Initiated download for urls: (\n    \"file://\(Sample.root)/\(Sample.logFile)\"\n)"),
             ]),

        Rule.message("import-scheduling", .ubiquity, .importScheduling,
             PatternPiece.objectPrefix + #"(?:Finished scheduling logs with context|Posting import notification|Adding operation|Registering for application resumed notification|Scheduling operations \(|Created sorted operations \(|No more logs to schedule|Will reschedule pending logs)"#,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordsImporter schedulePendingLogs:error:]", 1266, "\(Sample.importer)\nFinished scheduling logs with context: <PFUbiquityRecordsImporterSchedulingContext: 0x15ea3c40>"),
                Sample.ios6("Posting import notification: : NSConcreteNotification 0x1d5f0a10 {name = com.apple.coredata.ubiquity.importer.didfinishimport}"),
                Sample.ios6("Adding operation"),
             ]),
    ]

    /// An import stopped by an exception (`import-failed-exception`): the log and transaction
    /// the operation's description names, the exception, any error printed under it, and the
    /// sentence the timeline shows, which holds all of them (they are on continuation lines).
    static func importFailureByException(_ match: RuleMatch) -> Event {
        let bytes = match.messageBytes
        let log = Extract.logFileName(nil, in: bytes)
        let transaction = Extract.field("transactionNumber", in: bytes).flatMap { Int($0.trimmingCharacters(in: " \t")) }
        let exception = match["exception"].map { $0.trimmingCharacters(in: " \t") }.flatMap { $0.isEmpty || $0 == "(null)" ? nil : $0 }
        let error = Extract.error(in: bytes, after: match.matchEnd)
        var sentence = "Import failed for log \(log ?? "?")"
        if let transaction { sentence += " (transaction \(transaction))" }
        if let exception { sentence += ": exception: \(exception)" }
        if let error { sentence += exception == nil ? ": \(error.oneLine)" : "; \(error.oneLine)" }
        // The log's path, less the location object's `<PFUbiquityLocation: 0x…>: `.
        var location = Extract.field("transactionLogLocation", in: bytes).map { Substring($0) }
        if let text = location, text.hasPrefix("<"), let close = text.firstRange(of: ">: ") { location = text[close.upperBound...] }
        var fields = FieldList()
        fields.add("log", log)
        fields.add("location", location.map { String($0.trimmingCharacters(in: " \t")) })
        fields.add("transaction", transaction)
        fields.add("exception", exception)
        fields.add(error)
        fields.add("causeText", sentence)
        return .message(.importFailed, fields.items)
    }

    /// A problem with one object of a transaction log (`Transaction log: %@` then the words):
    /// the words, the log and any error printed, said as one sentence.
    static func logObjectProblem(_ kind: EventKind, _ match: RuleMatch) -> Event {
        let bytes = match.messageBytes
        let words = match["words"]?.trimmingCharacters(in: " \t") ?? ""
        let log = Extract.logFileName(nil, in: bytes)
        var fields = FieldList()
        fields.add("what", words)
        fields.add("log", log)
        let error = Extract.error(in: bytes, after: match.matchEnd)
        fields.add(error)
        let subject: String = log.map { "Transaction log \($0)" } ?? "A transaction log"
        let printed: String = error.map { ": \($0.oneLine)" } ?? ""
        fields.add("causeText", "\(subject): \(words)\(printed)")
        return .message(kind, fields.items)
    }

    /// Where a failed import's log file is, as the several failure messages print it: the
    /// rest of the marker's line, less a final full stop. Searched and cut as bytes (the
    /// line end and the stop are ASCII): over Characters, a failure's long text is costly to
    /// walk.
    static func importedLogLocation(in text: String) -> String? {
        let markers: [StaticString] = ["The log file is at: ", "import the log file at the URL: ", "for transaction log: "]
        for marker in markers {
            if let range = text.firstRange(ofASCII: marker) {
                let utf8 = text.utf8
                var end = utf8[range.upperBound...].firstIndex(of: UInt8(ascii: "\n")) ?? utf8.endIndex
                if end > range.upperBound, utf8[utf8.index(before: end)] == UInt8(ascii: ".") { end = utf8.index(before: end) }
                return String(Substring(utf8[range.upperBound..<end]))
            }
        }
        return nil
    }
}

// The rest of the importer: each operation's steps, conflict resolution between devices'
// changes, and the troubles that stop one object or one download rather than a whole log.

extension EventKind {
    public static let importObjectFailed = EventKind("import-object-failed", .import, .error, .notable,
        "An object in a transaction log could not be applied (unknown entity, missing object, failed creation): that change is missing from this device's store.")
    public static let importProblem = EventKind("import-problem", .import, .warning, .notable,
        "The importer met something it could work around: a log that went missing or could not be opened, a lost race for the database, an object already deleted.")
    public static let importProgress = EventKind("import-progress", .import, .debug, .routine,
        "A step of importing a transaction log: parsing it, applying and saving its changes, updating metadata.")
    public static let importConflict = EventKind("import-conflict", .import, .debug, .routine,
        "Core Data is resolving a conflict between changes to one object made on several devices.")
    public static let importConflictFailed = EventKind("import-conflict-failed", .import, .error, .notable,
        "Core Data could not resolve a conflict between devices' changes to an object; the import of that log fails.")
    public static let fileTransferFailed = EventKind("file-transfer-failed", .import, .warning, .notable,
        "iCloud could not download or upload a file of the ubiquity container (a transaction log, a baseline, a peer list): the changes in it wait until a transfer succeeds.")
}

enum ImportOperationRules {
    static let all: [Rule] = [
        Rule("log-already-seen", .ubiquity, .logAlreadyImported,
             #"Ignoring log: (?<location>[^\n]*)\n[ \t]*The local database has already seen this transaction log"#,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordImportOperation main]", 246,
                            "Ignoring log: \(Sample.location("\(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile)"))\nThe local database has already seen this transaction log: \(Sample.knowledgeVector)"),
             ]) { match in
            .logAlreadyImported(log: Extract.logFileName(match["location"], in: match.messageBytes))
        },

        Rule.phrases("import-failed-more", .importFailed, [
            #"Import operation had trouble with conflict resolution:"#, #"Unable to import transaction log:"#,
            #"Couldn't find transaction number in log at URL:"#, #"Error updating peer metadata during import of log file:"#,
        ], samples: [
            Sample.ios7("-[_PFUbiquityRecordsImporter createSortedOperationsArrayWithMetadata:isFirstImport:]", 1190,
                        "Couldn't find transaction number in log at URL: file://\(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile)\nLog Contents: {\n}"),
        ]),

        // `Transaction log: %@` then the words: the log's description may run over lines, so
        // the timeline says the words after it, with the log's name.
        Rule("import-object-failed", .ubiquity, .importObjectFailed,
             #"Transaction log: (?s:.*?)\n[ \t]*(?<words>(?:Can't find entity for name:|Error creating object to work with|Couldn't find missing object for objectID)[^\n]*)"#,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordImportOperation processObjects:withState:andImportContext:outError:]", 640,
                            "Transaction log: \(Sample.location("\(Sample.root)/\(Sample.logFile)"))\n Can't find entity for name: Tag in model: <NSManagedObjectModel: 0x15d50a10>"),
             ]) { match in
            ImportRules.logObjectProblem(.importObjectFailed, match)
        },

        Rule("import-problem-log-object", .ubiquity, .importProblem,
             #"Transaction log: (?s:.*?)(?:\n[ \t]*|[ ])(?<words>appears an updated object: [^\n]*|Unable to locate updated or deleted object[^\n]*)"#,
             samples: [
                Sample.console("-[_PFUbiquityRecordImportOperation processObjects:withState:andImportContext:outError:]", 889,
                               "Transaction log: <PFUbiquityTransactionLog: 0x15e9e2f0>\n\ttransactionLogLocation: \(Sample.location("\(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile)"))\n\ttransactionNumber: 2\n appears an updated object: 0x15f1c3d0 <x-coredata://8F3A1C2B-6D4E-4F50-9B7A-1C2D3E4F5A6B/Entry/p31> was deleted."),
                Sample.ios7("-[_PFUbiquityRecordImportOperation processObjects:withState:andImportContext:outError:]", 874,
                            "Transaction log: \(Sample.location("\(Sample.root)/\(Sample.logFile)"))\n Unable to locate updated or deleted object: 0x15f1c3d0 <x-coredata://8F3A1C2B-6D4E-4F50-9B7A-1C2D3E4F5A6B/Entry/p31>"),
             ]) { match in
            ImportRules.logObjectProblem(.importProblem, match)
        },

        Rule.phrases("import-problem", .importProblem, [
            #"Error pre-fetching managed objects:"#, #"Ignoring file: "#, #"Transaction log went missing:"#,
            #"Transaction log was ignored because it could not be opened"#,
            #"Encountered errors trying to download logs, but can continue import:"#,
            #"Import operation was beat into the data store:"#, #"Import operation: (?s:.*?)\n[ \t]*Was beat to the database"#,
            #"Error writing pending entries:"#, #"Rolling back metadata changes due to rolled back transaction:"#,
            #"Object \(-?\d+\): .*? which resolved to a delete but appears to already have been deleted"#,
            #"Got nil content for comprssed globalID Index:"#, #"Unable to find relationship destination object:"#,
            #"Didn't get an object ID back for the application's coordinator:"#,
            #"Metadata store doesn't match local store:"#,
            #"Cannot process log with score: (?s:.*?) after log with score:"#,
            #"Error attempting to write pending transaction history to disk:"#, #"Error attempting to refresh peer range cache:"#,
            #"Error attempting to drop the transaction history cache:"#, #"Error while starting download for logs:"#,
            #"Operation missing transaction log location:"#, #"Export notification was missing transaction log location:"#,
            #"Unknown property type:"#, #"Unknown change type for transaction entry:"#,
            #"Got nil snapshot for peerID:"#, #"Scheduling encountered an error:"#,
        ], samples: [
            Sample.ios7("-[_PFUbiquityRecordsImporter createSortedOperationsArrayWithMetadata:isFirstImport:]", 1133,
                        "Transaction log went missing: \(Sample.location("\(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile)"))"),
        ]),

        // iOS 5 names its transaction logs `N.plist`; one that arrives empty (its content not
        // downloaded, or its writer stopped mid-write) is skipped until it has content.
        Rule("empty-log-file", .ubiquity, .importProblem,
             #"Error, encountered empty log file at URL: (?<url>[^\n]*?)[ ]*$"#,
             samples: [
                "2011-07-26 07:08:26.940 Diary[818:707] CoreData: Ubiquity: Error, encountered empty log file at URL: file://localhost/private/var/mobile/Library/Mobile%20Documents/QW12ER34TY~org~example~diary/Diary/mobile.00000000-0000-1000-8000-5A4B3C2D1E0F/org.example.diary/4.plist",
                "Jul 26 07:08:26 Anns-iPhone Diary[818] <Warning>: CoreData: Ubiquity: Error, encountered empty log file at URL: file://localhost/private/var/mobile/Library/Mobile%20Documents/QW12ER34TY~org~example~diary/Diary/mobile.7CC5373053DA4B1F9E0A1B2C3D4E5F60/DiaryStore/12.plist",
             ]) { match in
            let url = match["url"]
            let log = Extract.fileName(url)
            let peer = url.flatMap { TransactionLogTracker.peer(inPath: $0) }
            var fields = FieldList()
            fields.add("what", "encountered empty log file")
            fields.add("log", log)
            fields.add("peer", peer)
            fields.add("url", url)
            fields.add(Extract.error(in: match.messageBytes, after: match.matchEnd))
            let from = peer.map { " from peer \($0)" } ?? ""
            fields.add("causeText", "Transaction log \(log ?? "?")\(from) is empty: its changes are not imported until its content arrives")
            return .message(.importProblem, fields.items)
        },

        Rule.phrases("import-problem-after-object", .importProblem, [
            #"didn't get entity description back for entity named:"#,
        ], position: .afterObject, samples: [
            Sample.ios7("-[PFUbiquityImportContext prefetchManagedObjectsInContext:error:]", 121,
                        "<PFUbiquityImportContext: 0x15e9f000> didn't get entity description back for entity named: Tag\nMOC: <NSManagedObjectContext: 0x15d51b40>\nPSC: <NSPersistentStoreCoordinator: 0x15d50c20>"),
        ]),

        Rule.phrases("file-transfer-failed", .fileTransferFailed, [
            #"Libr(?:ar)?ian returned a serious error for starting downloads"#,
            #"Attempting to download (?:Peers|root URL \([^\n]*?\)) hit a serious error"#,
            #"Download failed for file, error:"#, #"Safe save failed for file, error:"#,
            #"Error checking the uploaded status for:"#,
        ], samples: [
            Sample.ios7("-[_PFUbiquityRecordsImporter batchDownloadTransactionLogsAtLocations:error:]_block_invoke", 850,
                        "Librian returned a serious error for starting downloads \(Sample.error134302) with userInfo {\n}"),
        ]),

        // The peer is the one whose folder holds the skipped log (`<peer>/<store>/<model hash>/…`).
        Rule("peer-model-mismatch", .ubiquity, .peerModelMismatch,
             #"Skipping \(model version hash\): (?<location>[^\n]*)"#,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordsImporter createSortedOperationsArrayWithMetadata:isFirstImport:]", 231,
                            "Skipping (model version hash): \(Sample.location("\(Sample.root)/\(Sample.otherPeer)/JournalStore/QXJ0aWNsZXMgb2YgYW5vdGhlciBtb2RlbA==/\(Sample.logFile)"))"),
                Sample.ios6("Skipping (model version hash): <PFUbiquityLocation: 0x1e5c1a20>: /private/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/Logs/mobile.A3D19B527E0C4F8AB1D65C2E9F04A7B3/JournalStore/QXJ0aWNsZXM=/5E4D3C2B-1A09-48F7-96E5-D4C3B2A19087.4.cdt"),
             ]) { match in
            let location = match["location"]
            var fields = FieldList()
            fields.add("peer", location.flatMap { TransactionLogTracker.peer(inPath: $0) })
            fields.add("log", Extract.fileName(location).flatMap { $0.hasSuffix(".cdt") ? $0 : nil })
            fields.add("location", location.map { Extract.knowledgeVector($0) ?? $0 })
            return .message(.peerModelMismatch, fields.items)
        },

        Rule.phrases("import-progress", .importProgress, [
            #"Aborting cancelled operation:"#, #"Cancelling due to missing switchboard entry"#,
            #"About to apply changes from log contents\."#, #"Deleting conflict loser because it was orphaned"#,
            #"Successfully wrote (?:metadata )?changes\."#, #"About to save stack updates, metadata moc changes:"#,
            #"Executing SQL hack to fix primary key issue"#, #"About to issue update command to primary key table"#,
            #"Got transaction history:"#, #"Skipping object:"#, #"Object \([^\n]*?\): (?s:.*?) was resolved to a delete and will not be processed\."#,
            #"Successfully prefetched managed objects\."#, #"Log locations:"#, #"Skipping \(storeName\):"#,
            #"Skipping log because it is of unknown type:"#, #"Created operations:"#, #"Successfully recached transaction history"#,
            #"Wrote pending entries to disk after imports finished\."#, #"Operation was interrutped by import:"#,
            #"Got set of persistent store coordinators for store named:"#, #"Refreshed peer range cache"#,
            #"Asked to schedule but nothing to schedule in the context:"#, #"Ignoring pending log \(exisitng op\):"#,
            #"Restart timer fired for importer:"#, #"Scheduled logs for importer:"#, #"Processing pending urls:"#,
            #"Found transaction log locations:"#,
        ], samples: [
            Sample.ios7("-[_PFUbiquityRecordImportOperation main]", 402, "<_PFUbiquityRecordImportOperation: 0x15e9c0d0>\nSuccessfully wrote changes."),
        ]),

        // Names the log the operation imports: the changes it applies next (on its thread) are that log's.
        Rule("import-log-parse", .ubiquity, .importProgress, #"Beginning parse of log file: (?<location>[^\n]*)"#,
             position: .afterObject,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordImportOperation main]", 188,
                            "<_PFUbiquityRecordImportOperation: 0x15e9c0d0>: Beginning parse of log file: \(Sample.location("\(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile)"))"),
             ]) { match in
            var fields = [Field("what", .string("Beginning parse of log file"))]
            if let log = Extract.logFileName(match["location"], in: match.messageBytes) { fields.append(Field("log", .string(log))) }
            return .message(.importProgress, fields)
        },

        Rule.phrases("import-progress-after-object", .importProgress, [
            #"- Cache KV: (?s:.*?) matches initial KV:"#, #"- Knowledge Vector mismatch, reloading cache"#,
            #"successfully applied changes for object with global id:"#, #"will process operation:"#, #"importing operations:"#,
            #"logs were scheduled:"#,
        ], position: .afterObject, samples: [
            Sample.ios7("-[_PFUbiquityRecordImportOperation main]", 191,
                        "<_PFUbiquityRecordImportOperation: 0x15e9c0d0> - Knowledge Vector mismatch, reloading cache"),
        ]),

        Rule.phrases("import-conflict", .importConflict, [
            #"Skipping (?:inserted|updated|deleted) object with globalID:"#, #"Object with globalID: (?s:.*?) was later inserted"#,
            #"Deleting existing object with globalID:"#, #"Resolve conflict called on:"#, #"Elected ancestor vector:"#,
            #"Sorting snapshots:"#, #"Got snapshots to merge:"#, #"Merging (?:snapshot into current snapshot|current snapshot):"#,
            #"Done resolving conflict:"#, #"Comparing:\n"#, #"Resulting source object:"#,
        ], samples: [
            Sample.ios7("-[PFUbiquityRecordImportConflict resolveConflict:]", 388, "Done resolving conflict: <PFUbiquityRecordImportConflict: 0x15ea0c10>"),
        ]),

        Rule.phrases("import-conflict-failed", .importConflictFailed, [
            #"Error encountered trying to reset the source object to the ancestor state:"#,
            #"Error encountered trying to resolve conflict:"#, #"Unable to find transaction log for entry:"#,
        ], samples: [
            Sample.ios7("-[PFUbiquityRecordImportConflict resolveConflict:]", 371,
                        "Error encountered trying to resolve conflict: \(Sample.error134302)\nuserInfo: {\n}"),
        ]),

        Rule.phrases("import-conflict-failed-after-object", .importConflictFailed, [
            #"aborting conflict resolution, unable to create snapshot"#,
        ], position: .afterObject, samples: [
            Sample.ios7("-[PFUbiquityRecordImportConflict resolveConflict:]", 301,
                        "<PFUbiquityRecordImportConflict: 0x15ea0c10> aborting conflict resolution, unable to create snapshot for transaction entry: <PFUbiquityTransactionEntry: 0x15ea1d20>\nError: \(Sample.error134302)\nuserInfo: {\n}"),
        ]),
    ]
}
