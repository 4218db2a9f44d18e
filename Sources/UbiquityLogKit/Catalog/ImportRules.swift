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
            .changesImported(ObjectDump.changes(in: match.restBytes))
        },

        Rule("log-already-imported", .ubiquity, .logAlreadyImported,
             #"Skipping log because it has already been imported into the local store: (?<location>[^\n]*)"#,
             samples: [
                Sample.ios6("\(Sample.importer)\nSkipping log because it has already been imported into the local store: \(Sample.location("\(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile)"))"),
                Sample.ios7("-[_PFUbiquityRecordsImporter createSortedOperationsArrayWithMetadata:isFirstImport:]", 1144,
                            "\(Sample.importer)\nSkipping log because it has already been imported into the local store: \(Sample.location("\(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile)"))\nstoreKV: \(Sample.knowledgeVector)\nlogKV: \(Sample.knowledgeVector)\n"),
             ]) { match in
            .logAlreadyImported(log: Extract.fileName(match["location"]))
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
                                          log: Extract.fileName(Extract.field("transactionLogLocation", in: match.restBytes)),
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
            return .importFailed(log: Extract.fileName(location), error: Extract.error(in: text))
        },

        Rule.message("import-scan", .ubiquity, .importScan,
             Piece.objectPrefix + #"(?:Scheduling root scan|adding root scan|got subpaths of root location|Ignoring subpath \(model version hash\)|Got candidate log locations|Initiated download for urls|Finished scan of root location|Starting scan of location|Started download for logs)"#,
             samples: [
                Sample.ios6("\(Sample.importer)\nScheduling root scan"),
                Sample.ios6("<PFUbiquityImportScanOperation: 0x1d5c7e90> got subpaths of root location: (\n    \"\(Sample.peer)\"\n)"),
                Sample.ios7("-[_PFUbiquityRecordsImporter discoverAndImportAllAvailableLogs:error:]", 720, "Starting scan of location: \(Sample.location(Sample.root))"),
                Sample.ios7("-[_PFUbiquityRecordsImporter batchDownloadTransactionLogsAtLocations:error:]", 812, "Initiated download for urls: (\n    \"file://\(Sample.root)/\(Sample.logFile)\"\n)"),
             ]),

        Rule.message("import-scheduling", .ubiquity, .importScheduling,
             Piece.objectPrefix + #"(?:Finished scheduling logs with context|Posting import notification|Adding operation|Registering for application resumed notification|Scheduling operations \(|Created sorted operations \(|No more logs to schedule|Will reschedule pending logs)"#,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordsImporter schedulePendingLogs:error:]", 1266, "\(Sample.importer)\nFinished scheduling logs with context: <PFUbiquityRecordsImporterSchedulingContext: 0x15ea3c40>"),
                Sample.ios6("Posting import notification: : NSConcreteNotification 0x1d5f0a10 {name = com.apple.coredata.ubiquity.importer.didfinishimport}"),
                Sample.ios6("Adding operation"),
             ]),
    ]

    /// Where a failed import's log file is, as the several failure messages print it.
    static func importedLogLocation(in text: String) -> String? {
        for marker in ["The log file is at: ", "import the log file at the URL: ", "for transaction log: "] {
            if let range = text.firstRange(of: marker) {
                var location = text[range.upperBound...].prefix(while: { $0 != "\n" })
                if location.hasSuffix(".") { location = location.dropLast() }
                return String(location)
            }
        }
        return nil
    }
}
