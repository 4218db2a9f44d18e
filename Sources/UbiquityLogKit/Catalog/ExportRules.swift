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
        "The exporter looked at a save to decide whether to export it.")
}

enum ExportRules {
    static let all: [Rule] = [
        Rule("objects-exported", .ubiquity, .objectsExported,
             Piece.objectPrefix + #"exporting (?<operation>inserted|updated|deleted) objects:"#,
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
            .objectsExported(ObjectDump.changes(in: match.messageBytes))
        },

        Rule("transaction-log-written", .ubiquity, .transactionLogWritten,
             Piece.objectPrefix + #"Successfully wrote transaction log:"#,
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
            .transactionLogWritten(transaction: Extract.field("transactionNumber", in: match.restBytes).flatMap { Int($0) },
                                   log: Extract.fileName(Extract.field("transactionLogLocation", in: match.restBytes)))
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
    ]
}
