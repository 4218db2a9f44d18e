// The exporter: local saves turned into transaction logs for the other peers.

extension EventKind {
    public static let objectsExported = EventKind("objects-exported", .export, .info, .detail,
        "A save is being exported: the objects inserted, updated or deleted that go into the next transaction log.")
    public static let transactionLogWritten = EventKind("transaction-log-written", .export, .info, .notable,
        "The exporter wrote a transaction log; iCloud uploads it for the other devices.")
    public static let storeWillCommit = EventKind("store-will-commit", .export, .debug, .detail,
        "The store is about to commit a transaction the exporter will write out.")
    public static let relationshipResolved = EventKind("relationship-resolved", .export, .debug, .detail,
        "The exporter resolved the final value of a relationship for the transaction log.")
    public static let exportConsidered = EventKind("export-considered", .export, .debug, .routine,
        "The exporter looked at a save to decide whether to export it, or recorded the transaction entries of an export.")
}

enum ExportRules {
    static let all: [Rule] = [
        Rule("objects-exported", .ubiquity, .objectsExported,
             #"exporting (?<operation>inserted|updated|deleted) objects:"#, position: .afterObject,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordsExporter createDictionaryForObjectsInSaveNotification:forTransactionOfType:withExportContext:andSaveSnapshot:]", 293,
                    """
                    \(Sample.exporter)
                     exporting inserted objects: {(
                        <Entry: 0x15e4c9d0> (entity: Entry; id: 0x15e4a1b0 <x-coredata://8F3A1C2B-6D4E-4F50-9B7A-1C2D3E4F5A6B/Entry/p12> ; data: {
                        body = "Went for a walk.";
                        tags =     (
                            "0x15e4f120 <x-coredata://8F3A1C2B-6D4E-4F50-9B7A-1C2D3E4F5A6B/Tag/p3>"
                        );
                        title = Walk;
                    })
                    )}
                    """),
                Sample.ios6("<_PFUbiquityRecordsExporter: 0x1d5b2c10> exporting deleted objects: {(\n    <Tag: 0x1d5e8f30> (entity: Tag; id: 0x1d5e7a20 <x-coredata://8F3A1C2B-6D4E-4F50-9B7A-1C2D3E4F5A6B/Tag/p9> ; data: <fault>)\n)}"),
             ]) { match in
            .objectsExported(ObjectDump.changes(in: match.messageBytes, attributes: match.readsDetails))
        },

        Rule("transaction-log-written", .ubiquity, .transactionLogWritten,
             #"Successfully wrote transaction log:"#, position: .afterObject,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordsExporter managedObjectContextDidSave:]", 446,
                    """
                    \(Sample.exporter)
                     Successfully wrote transaction log: <PFUbiquityTransactionEntryLight: 0x15e52e80>
                    \tstoreName: JournalStore
                    \tactingPeerID: \(Sample.peer)
                    \ttransactionNumber: 12
                    \ttransactionDate: 2014-03-02 08:14:08 +0000
                    \ttransactionType: 0
                    \tknowledgeVector: \(Sample.knowledgeVector)
                    \ttransactionLogLocation: \(Sample.location("\(Sample.root)/\(Sample.peer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile)"))
                    """),
             ]) { match in
            // The entry's `transactionLogLocation:` field; or a location printed right after the words.
            let location = Extract.field("transactionLogLocation", in: match.restBytes)
                ?? match.rest.prefix { $0 != "\n" }.trimmingCharacters(in: " ")
            return .transactionLogWritten(transaction: Extract.field("transactionNumber", in: match.restBytes).flatMap { Int($0) },
                                          log: location.hasSuffix(".cdt") ? Extract.fileName(location) : nil)
        },

        Rule("store-will-commit", .ubiquity, .storeWillCommit,
             #"Got notification that store is about to commit:"#,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordsExporter managedObjectContextDidSave:]", 394,
                    "Got notification that store is about to commit: NSConcreteNotification 0x15e58d40 {name = _NSSQLCoreTransactionStateChangeNotification; object = <NSSQLCore: 0x15d52f60>; userInfo = {\n    transactionNumber = 12;\n    transactionType = 0;\n}}"),
             ]) { match in
            .storeWillCommit(transaction: Extract.field("transactionNumber", in: match.restBytes).flatMap { Int($0) })
        },

        Rule("relationship-resolved", .ubiquity, .relationshipResolved,
             #"Got final value for relationship: (?<relationship>[^\n]*)\n(?<value>(?s:.*?))\n[ \t]*Object: "#,
             samples: [
                Sample.ios7("-[PFUbiquityStoreSaveSnapshot createUbiquityDictionary:withStoreExportContext:error:]", 602,
                    "Got final value for relationship: tags\n(\n    \"0x15e4f120 <x-coredata://8F3A1C2B-6D4E-4F50-9B7A-1C2D3E4F5A6B/Tag/p3>\"\n)\nObject: <Entry: 0x15e4c9d0> (entity: Entry; id: 0x15e4a1b0 <x-coredata://8F3A1C2B-6D4E-4F50-9B7A-1C2D3E4F5A6B/Entry/p12> ; data: {})"),
             ]) { match in
            // The value is shown by a reporter alone (`RuleMatch.readsDetails`): shortening its
            // references and joining its lines is most of this builder's cost, wasted when no
            // reporter shows it.
            guard match.readsDetails else { return .relationshipResolved(relationship: match["relationship"] ?? "", value: "") }
            let value = ObjectDump.shortenReferences(match["value"] ?? "")
                .split(separator: "\n").map { $0.trimmingCharacters(in: " \t") }.joined(separator: " ")
            return .relationshipResolved(relationship: match["relationship"] ?? "", value: value)
        },

        Rule.message("export-considered", .ubiquity, .exportConsidered,
             #"(?:Exporter considering response to save:|Exporter: (?s:.*?)\n[ \t]*Will respond\.|Added transaction entries to cache|Skipping transaction history caching, using local storage\.)"#,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordsExporter shouldRespondToSaveNotification:]", 301,
                            "Exporter considering response to save: NSConcreteNotification 0x15e58d40\nStore: <NSSQLCore: 0x15d52f60>\nOptions: {\n    NSPersistentStoreUbiquitousContentNameKey = JournalStore;\n}"),
                Sample.ios7("-[_PFUbiquityRecordsExporter shouldRespondToSaveNotification:]", 318, "Exporter: \(Sample.exporter)\nWill respond."),
                Sample.ios6("Added transaction entries to cache"),
             ]),

        // iOS 6's exporter dumps the transaction entries a save recorded: part of the export.
        Rule.message("export-stack-changes", .ubiquity, .exportConsidered, #"Stack Changes:"#,
             samples: [
                Sample.ios6("Stack Changes: {\n    transactionEntry = \"(x-coredata://8F3A1C2B-6D4E-4F50-9B7A-1C2D3E4F5A6B/PFUbiquityTransactionEntry/p5)\";\n}"),
                Sample.ios6("Stack Changes: {\n}"),
             ]),
    ]
}

// The rest of the exporter, the transaction log files themselves, and the migration of
// ubiquitous content to a new model version.

extension EventKind {
    public static let exportFailed = EventKind("export-failed", .export, .error, .notable,
        "A local save could not be written out as a transaction log: other devices will not receive it.")
    public static let exportProblem = EventKind("export-problem", .export, .warning, .notable,
        "The exporter worked around a problem with its transaction history cache or a rolled-back save.")
    public static let logFileError = EventKind("log-file-error", .import, .error, .notable,
        "A transaction log file could not be read, moved, rewritten or deleted.")
    public static let logFileProblem = EventKind("log-file-problem", .import, .warning, .notable,
        "A transaction log file was incomplete or could not be loaded or deleted this time; Core Data retries or skips it.")
    public static let contentMigration = EventKind("content-migration", .store, .info, .detail,
        "Core Data is migrating the ubiquitous content (transaction logs and baseline) to a new model version.")
    public static let contentMigrationFailed = EventKind("content-migration-failed", .store, .error, .notable,
        "Migrating the ubiquitous content to a new model version failed: devices on the new version cannot read the old content.")
}

enum TransactionLogRules {
    static let all: [Rule] = [
        Rule.phrases("export-failed", .exportFailed, [
            #"Error writing transaction log:"#, #"Export of save notification encountered the following errors:"#,
            #"Error moving log to permanent location:"#, #"Error adding object to save snapshot:"#,
            #"Unable to delete ubiquitous external reference file during aborted transaction:"#,
            #"Error deleting invalidated log file at url:"#, #"Error trying to recover store metadata from rolled back transaction:"#,
            #"Encountered an error while trying to move logs out of the temporary directory:"#,
            #"Error writing export log to file"#, #"Error creating data for export:"#,
            #"Unable to convert compressed object ID string:"#, #"Hrm found something in empty array did you\?"#,
        ], samples: [
            Sample.ios7("-[_PFUbiquityRecordsExporter managedObjectContextDidSave:]", 612,
                        "Error writing transaction log: \(Sample.location("\(Sample.root)/\(Sample.peer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile)")).\nError: \(Sample.error134302)\n User Info: {\n}"),
        ]),

        Rule.phrases("export-problem", .exportProblem, [
            #"Didn't find peer state for local peer ID:"#, #"Error caching transaction entries after export:"#,
            #"Wrote pending entries to disk and purged cache, it will be rebuilt"#, #"Error purging cache for transaction entries:"#,
            #"No transaction history cache found for store:"#, #"Asked to schedule a temporary log move without a queue"#,
            #"Error while writing pending transaction history entries to disk:"#,
        ], samples: [
            Sample.ios7("-[_PFUbiquityRecordsExporter managedObjectContextDidSave:]", 590, "No transaction history cache found for store: <NSSQLCore: 0x15d52f60>"),
        ]),

        Rule.phrases("export-progress", .exportConsidered, [
            #"Transaction Entries:"#, #"Looks like log file was never written:"#, #"Generating Peer States:"#,
            #"Reserved transaction knowledge vector:"#, #"Skipping object from a store that this exporter is not responsible for"#,
        ], samples: [
            Sample.ios7("-[PFUbiquityStoreSaveSnapshot reserveTransactionNumberWithStoreExportContext:]", 230,
                        "<PFUbiquityStoreSaveSnapshot: 0x15e9b000>\nReserved transaction knowledge vector: \(Sample.knowledgeVector) (13)"),
        ]),

        Rule.phrases("export-progress-after-object", .exportConsidered, [
            #"replacing global object id:"#, #"wasn't in this snapshot:"#,
        ], position: .afterObject, samples: [
            Sample.ios7("-[PFUbiquityStoreSaveSnapshot replaceGlobalObjectID:withGlobalObjectID:]_block_invoke", 710,
                        "<PFUbiquityStoreSaveSnapshot: 0x15e9b000> wasn't in this snapshot: <PFUbiquityGlobalObjectID: 0x15e9c110>"),
        ]),

        Rule.phrases("log-file-error", .logFileError, [
            #"(?:Setup assistant was torn down\.  ?)?Error reading the log file at location:"#,
            #"Error encountered while trying to load the comparison metadata for transaction log:"#,
            #"Error deleting existing log file"#, #"Error moving transaction log from temporary location:"#,
        ], samples: [
            Sample.ios7("-[PFUbiquityTransactionLog loadPlistAtLocation:withError:]", 1022,
                        "Error reading the log file at location: \(Sample.location("\(Sample.root)/\(Sample.otherPeer)/JournalStore/\(Sample.storeUUID)/\(Sample.logFile)"))\nuserInfo: {\n}"),
        ]),

        Rule.phrases("log-file-problem", .logFileProblem, [
            #"Error encountered trying to read data inside coordinated accessor:"#, #"Error loading transaction log:"#,
            #"Error deleting log file:"#, #"Missing transaction date from contents:"#,
            // Housekeeping of a log already written and read: nothing of its content is lost.
            #"Error encountered while updating the modification time for file"#,
            #"Encountered an error attempting to remove external data reference"#,
        ], samples: [
            Sample.ios7("-[PFUbiquityTransactionLog deleteLogFileWithError:]", 1190,
                        "Error deleting log file: \(Sample.location("\(Sample.root)/\(Sample.logFile)"))\nError: \(Sample.error134302)\nuserInfo: {\n}"),
            Sample.ios7("+[PFUbiquityTransactionLog updateModificationTimesForLocation:]", 1347,
                        "Error encountered while updating the modification time for file (1): \(Sample.location("\(Sample.root)/\(Sample.logFile)"))"),
        ]),

        Rule.phrases("logs-truncation-problem", .baselineProblem, [
            #"Log file truncation failed to get a stack:"#, #"Error deleting transaction entries before"#,
            #"Error trying to inspect log files after baseline roll"#,
            #"Error encountered attempting to delete an old log file after the baseline rolled:"#,
        ], samples: [
            Sample.ios7("+[PFUbiquityTransactionLog truncateLogFilesForPeerID:storeName:modelVersionHash:beforeKnowledgeVector:withLocalPeerID:andUbiquityRootLocation:]", 1410,
                        "Error encountered attempting to delete an old log file after the baseline rolled: \(Sample.error134302)\nuserInfo: {\n}"),
        ]),

        Rule.phrases("logs-truncated", .baselineCheck, [
            #"Successfully deleted transaction entries before"#,
        ], samples: [
            Sample.ios7("+[PFUbiquityTransactionLog truncateLogFilesForPeerID:storeName:modelVersionHash:beforeKnowledgeVector:withLocalPeerID:andUbiquityRootLocation:]", 1391,
                        "Successfully deleted transaction entries before \(Sample.knowledgeVector) for peer \(Sample.otherPeer)"),
        ]),

        Rule.phrases("content-migration", .contentMigration, [
            #"Migrating (?:src transaction log|transaction logs|baseline \(if necessary\)|(?<count>\d+) transaction log files)"#,
            #"Destination log (?:written succesfully|file already exits in (?:final|staging) location)"#,
            #"Missing baseline archive for the migration (?:destination|src) data model"#,
        ], numeric: ["count"], samples: [
            Sample.ios7("-[PFUbiquityTransactionLogMigrator migrateTransactionLogsForStoreName:andLocalPeerID:atUbiquityRootLocation:error:]", 84,
                        "Migrating 12 transaction log files for 'JournalStore' at '\(Sample.root)'"),
        ]),

        Rule.phrases("content-migration-failed", .contentMigrationFailed, [
            #"Failed to move transaction log to permanent location:"#, #"Destination log write failed with error"#,
            #"Failed to migrate (?:baseline:|ubiquitous content)"#, #"Error writing out migrated baseline:"#,
            #"Error gathering contents for migrated baseline:"#, #"Failed to initialize src data model baseline:"#,
        ], samples: [
            Sample.ios7("-[PFUbiquityMigrationManager migrateTransactionLogs:andBaselineIfNecessaryForStoreName:peerID:error:]", 141,
                        "Failed to migrate baseline: \(Sample.error134302)"),
        ]),

        Rule.phrases("content-migration-error", .contentMigrationFailed, [#"(?s:.*?)\n[ \t]*Error:"#],
            position: .method,
            methods: ["-[PFUbiquityMigrationManager migrateTransactionLogs:andBaselineIfNecessaryForStoreName:peerID:error:]"],
            samples: [
                Sample.ios7("-[PFUbiquityMigrationManager migrateTransactionLogs:andBaselineIfNecessaryForStoreName:peerID:error:]", 102,
                            "<PFUbiquityMigrationManager: 0x15ec1b90>\nError: \(Sample.error134302)"),
            ]),

        // iOS 5 and 6 print no method: the migration manager's description names who failed.
        Rule.phrases("content-migration-error-by-description", .contentMigrationFailed,
            [#"\A<PFUbiquityMigrationManager: 0x[0-9a-fA-F]+>[^\n]*\n[ \t]*Error:"#],
            position: .withoutMethod,
            samples: [
                Sample.ios6("<PFUbiquityMigrationManager: 0x1dec1b90>\nError: \(Sample.error134302)"),
            ]),
    ]
}
