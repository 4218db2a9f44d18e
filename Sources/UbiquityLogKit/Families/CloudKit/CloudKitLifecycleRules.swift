// Routine steps of mirroring that every OS version logs between a request's start and end:
// notifications coalesced, records serialised and saved, changes applied in steps, the
// identity checked. Several are logged at Core Data's `warning` level (an exporter's "Modify
// records finished") although nothing went wrong: they are read as routine, so that a log of
// a healthy session has no records left unrecognised. And the process aborted for a missing
// iCloud entitlement, in the CloudKit framework's words.

extension EventKind {
    public static let cloudKitRoutineStep = EventKind("cloudkit-routine-step", .request, .debug, .routine,
        "A routine step of mirroring (a notification coalesced, records serialised or saved, changes applied, the identity checked): nothing to judge.",
        family: .cloudKit)
}

extension CloudKitRules {
    enum LifecycleRules {
        static let all: [Rule] = [
            // `Modify records finished: <saved records>\n<deleted IDs>\n<operation error>`: the
            // export's save operation ended; routine unless its error is one.
            Rule("cloudkit-modify-records-finished", .cloudKit, .cloudKitRoutineStep, #"Modify records finished:"#,
                 samples: [
                    CKSample.stderr("warning", "-[PFCloudKitExporter exportOperationFinished:withSavedRecords:deletedRecordIDs:operationError:]", 677,
                                    "<PFCloudKitExporter: 0x600000d21a40>: Modify records finished: (\n    \"<CKRecord: 0x13c82e7f0; recordID=3F1E2D4C-0A9B-4C8D-9E7F-6A5B4C3D2E1F:(com.apple.coredata.cloudkit.zone:__defaultOwner__), recordChangeTag=lr4k2a9c, values={...}, recordType=CD_Pantry>\"\n)\n(\n)\n(null)"),
                    CKSample.sysdiagnose("-[PFCloudKitExporter exportOperationFinished:withSavedRecords:deletedRecordIDs:operationError:]", 496,
                                         "<private>: Modify records finished: <private>\n<private>\n<private>"),
                    CKSample.stderr("warning", "-[PFCloudKitExporter exportOperationFinished:withSavedRecords:deletedRecordIDs:operationError:]", 677,
                                    "<PFCloudKitExporter: 0x600000d21a40>: Modify records finished: (\n)\n(\n)\n<CKError 0x600000c7a2b0: \"Network Failure\" (4/-1005); \"The network connection was lost.\">"),
                 ]) { match in
                // An operation error makes it the export's failure; `(null)` or a redacted value does not.
                let text = match.message
                guard text.firstRange(ofASCII: "<CKError ") != nil || text.firstRange(ofASCII: "Error Domain=") != nil else {
                    return .message(.cloudKitRoutineStep, [])
                }
                return CloudKitEvent.outcome(match, failed: .cloudKitExportFailed, stage: "export")
            },
            Rule.message("cloudkit-lifecycle", .cloudKit, .cloudKitRoutineStep,
                 #"(?:Got: [A-Za-z]+Notification - \d+|Executing '[^'\n]*' block for '|Already scheduled a block to respond to|Serializer has finished creating record|Finished with cursor:|Applying accumulated changes at change token|Successfully applied incremental changes during request|Fetched user recordID for store|CKIdentity record (?:matches store|has changed|changed from nil)|Asked to set up but already successfully initialized|Scheduling modifyRecordZonesOperation in response to request|Finished processing analyzed history with|Deleting record with id \(|Updating relationship(?: described by record)?:|Populating unresolved relationships)"#,
                 samples: [
                    CKSample.stderr("debug", "-[PFCloudKitThrottledNotificationObserver noteRecievedNotification:]", 40,
                                    "<PFCloudKitThrottledNotificationObserver: 0x600002d3a1c0>: Got: NSManagedObjectContextDidSaveObjectIDsNotification - 0"),
                    CKSample.logShow("-[PFCloudKitThrottledNotificationObserver noteRecievedNotification:]_block_invoke", 74,
                                     "<PFCloudKitThrottledNotificationObserver: 0x600002d3a1c0>: Executing 'ExportActivity' block for 'NSManagedObjectContextDidSaveObjectIDsNotification' clearing 2 iterations."),
                    CKSample.stderr("CloudKit", "-[PFCloudKitSerializer newCKRecordsFromObject:fullyMaterializeRecords:includeRelationships:error:]", 537,
                                    "Serializer has finished creating record: <CKRecord: 0x13c82e7f0; recordID=3F1E2D4C-0A9B-4C8D-9E7F-6A5B4C3D2E1F:(com.apple.coredata.cloudkit.zone:__defaultOwner__), recordType=CD_Pantry>\nModified Fields: (\n    \"CD_name\"\n)"),
                    CKSample.syslog("-[PFCloudKitImporter processWorkItemsWithCompletion:]_block_invoke", 412,
                                    "<PFCloudKitImporter: 0x600000c2d2a0>: Applying accumulated changes at change token: <CKServerChangeToken: 0x600000c0c2f0; data=AQAAAAAAAAJq//////////8=>"),
                    CKSample.stderr("warning", "-[PFCloudKitSetupAssistant _checkUserIdentity:]_block_invoke", 829,
                                    "Fetched user recordID for store \(CKSample.store): <CKRecordID: 0x600000b8c2a0; recordName=_4d2c1f0e9a8b7c6d5e4f3a2b1c0d9e8f, zoneID=_defaultZone:__defaultOwner__>\n(null)"),
                    CKSample.compact("-[PFCloudKitSetupAssistant _checkUserIdentity:]", 871,
                                     "<PFCloudKitSetupAssistant: 0x600003f2c000>: CKIdentity record matches store: <CKRecordID: 0x600000b8c2a0; recordName=_4d2c1f0e9a8b7c6d5e4f3a2b1c0d9e8f, zoneID=_defaultZone:__defaultOwner__>"),
                    CKSample.stderr("CloudKit", "-[PFCloudKitHistoryAnalyzer processTransaction:withContext:error:]", 212,
                                    "Finished processing analyzed history with 3 metadata objects to create, 0 deleted rows without metadata."),
                 ]),
            CloudKitEvent.rule("cloudkit-import-no-work", .cloudKit, .cloudKitImportFetched, #"Import request finished with no work to do:"#,
                 samples: [CKSample.stderr("CloudKit", "-[PFCloudKitImporter databaseFetchFinishWithContext:error:completion:]_block_invoke", 431,
                                           "<PFCloudKitImporter: 0x600000c2d2a0>: Import request finished with no work to do: <NSCloudKitMirroringImportRequest: 0x600002a49d00> \(CKSample.otherRequest)")]
                ),
            // The CloudKit framework aborts a process that uses it without the iCloud entitlement:
            // `CKException`'s reasons (`The application is missing required entitlement …`, `In
            // order to use CloudKit, your process must have a … entitlement`) and, in recent
            // releases, the fault `Significant issue at CKContainer.m:<line>: In order to use
            // CloudKit, …` (category `CK`, subsystem `com.apple.cloudkit.sim` in the simulator),
            // which SwiftData's and NSPersistentCloudKitContainer's set-up reach through Core Data.
            // Each names the entitlement's key; a message that names none is not read as this.
            CloudKitEvent.rule("cloudkit-missing-entitlement", .cloudKitFramework, .cloudKitMissingEntitlement,
                 #"[^\n]{0,300}?(?:missing[ ]required[ ]entitlement[ ]com\.apple\.developer\.icloud-services|must[ ]have[ ]a[ ]com\.apple\.developer\.icloud-services[ ]entitlement)"#,
                 samples: [
                    CKSample.app("*** Terminating app due to uncaught exception 'CKException', reason: 'The application is missing required entitlement com.apple.developer.icloud-services'"),
                    CKSample.app("*** Terminating app due to uncaught exception 'CKException', reason: 'In order to use CloudKit, your process must have a com.apple.developer.icloud-services entitlement. The value of this entitlement must be an array that includes the string \"CloudKit\" or \"CloudKit-Anonymous\".'"),
                    "2025-09-12 18:40:03.771 E  Pantry[8812:2a41c] [com.apple.cloudkit:CK] Significant issue at CKContainer.m:748: In order to use CloudKit, your process must have a com.apple.developer.icloud-services entitlement. The value of this entitlement must be an array that includes the string \"CloudKit\" or \"CloudKit-Anonymous\".",
                    CKSample.framework("Significant issue at CKContainer.m:760: In order to use CloudKit, your process must have a com.apple.developer.icloud-services entitlement. The value of this entitlement must be an array that includes the string \"CloudKit\" or \"CloudKit-Anonymous\".",
                                       process: "Notes Plus", subsystem: "[com.apple.cloudkit.sim:CK]"),
                 ]),
        ]
    }
}
