// The rules for Core Data's mirroring records (`CoreData+CloudKit:`): set-up, the account,
// requests, exports and imports, recovery.

extension CloudKitRules {
    enum CloudKitSetupRules {
        static let all: [Rule] = [
            CloudKitEvent.rule("cloudkit-options-validated", .cloudKit, .cloudKitOptionsValidated,
                 #"Validating options:[ ](?:<[^>\n]*>[ ]?)?(?:containerIdentifier:(?<container>[^\s]+))?(?:[^\n]*?databaseScope:(?<databaseScope>\w+))?"#,
                 samples: [
                    CKSample.stderr("debug", "-[PFCloudKitOptionsValidator validateOptions:andStoreOptions:error:]", 36,
                                    "Validating options: <NSCloudKitMirroringDelegateOptions: 0x600002d3c2a0> containerIdentifier:\(CKSample.container) databaseScope:Private ckAssetThresholdBytes:<null> operationMemoryThresholdBytes:<null> useEncryptedStorage:NO useDeviceToDeviceEncryption:NO automaticallyDownloadFileBackedFutures:NO automaticallyScheduleImportAndExportOperations:YES skipCloudKitSetup:NO preserveLegacyRecordMetadataBehavior:NO useDaemon:YES apsConnectionMachServiceName:<null> containerProvider:<PFCloudKitContainerProvider: 0x600000c30a40> storeMonitorProvider:<PFCloudKitStoreMonitorProvider: 0x600000c30a50> metricsClient:<PFCloudKitMetricsClient: 0x600000c30a60> metadataPurger:<PFCloudKitMetadataPurger: 0x600000c30a70> scheduler:<null> notificationListener:<null> containerOptions:<null> defaultOperationConfiguration:<null> progressProvider:<NSPersistentCloudKitContainer: 0x600003e18000> test_useLegacySavePolicy:YES archivingUtilities:<PFCloudKitArchivingUtilities: 0x600000c30a80> bypassSchedulerActivityForInitialImport:NO bypassDasdRateLimiting:NO\nstoreOptions: {\n    NSInferMappingModelAutomaticallyOption = 1;\n    NSMigratePersistentStoresAutomaticallyOption = 1;\n    NSPersistentCloudKitContainerOptionsKey = \"<NSPersistentCloudKitContainerOptions: 0x600000c1b1e0>\";\n    NSPersistentHistoryTrackingKey = 1;\n    NSPersistentStoreMirroringOptionsKey =     {\n        NSPersistentStoreMirroringDelegateOptionKey = \"<NSCloudKitMirroringDelegate: 0x600003d1c000>\";\n    };\n    NSPersistentStoreRemoteChangeNotificationOptionKey = 1;\n}"),
                    // iOS 13: a shorter dump, no database scope.
                    CKSample.stderr("debug", "-[PFCloudKitOptionsValidator validateOptions:andStoreOptions:error:]", 29,
                                    "Validating options: <NSCloudKitMirroringDelegateOptions: 0x2835c4f00> containerIdentifier:iCloud.org.example.Notes ckAssetThresholdBytes:<null> useEncryptedStorage:NO automaticallyScheduleImportAndExportOperations:YES skipCloudKitSetup:NO containerOptions:<null>\nstoreOptions: {\n    NSPersistentHistoryTrackingKey = 1;\n}"),
                 ]),

            CloudKitEvent.rule("cloudkit-store-observed", .cloudKit, .cloudKitStoreObserved,
                 #"Observing store:"# + CloudKitRules.url,
                 samples: [
                    CKSample.stderr("debug", "-[NSCloudKitMirroringDelegate observeChangesForStore:inPersistentStoreCoordinator:]", 429,
                                    "\(CKSample.delegate): Observing store: <NSSQLCore: 0x10380a2c0> (URL: \(CKSample.storeURL))"),
                    CKSample.sysdiagnose("-[NSCloudKitMirroringDelegate observeChangesForStore:inPersistentStoreCoordinator:]", 417, "<private>: Observing store: <private>"),
                 ]),

            CloudKitEvent.rule("cloudkit-setup-enqueued", .cloudKit, .cloudKitSetupEnqueued,
                 #"Successfully enqueued setup request(?:[.:][ ]?)?"# + CloudKitRules.requestObject,
                 samples: [
                    CKSample.stderr("CloudKit", "-[NSCloudKitMirroringDelegate _setUpCloudKitIntegration:]", 591,
                                    "\(CKSample.delegate): Successfully enqueued setup request: <NSCloudKitMirroringDelegateSetupRequest: 0x600002a1c0a0> \(CKSample.request)"),
                    CKSample.stderr("CloudKit", "-[NSCloudKitMirroringDelegate _setUpCloudKitIntegration]", 417,
                                    "<NSCloudKitMirroringDelegate: 0x2825a8000>: Successfully enqueued setup request."),
                 ]),

            CloudKitEvent.rule("cloudkit-setup-succeeded", .cloudKit, .cloudKitSetupSucceeded,
                 #"Successfully set up CloudKit integration for store"# + CloudKitRules.url,
                 samples: [
                    "CoreData+CloudKit: -[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1242): \(CKSample.delegate): Successfully set up CloudKit integration for store (\(CKSample.store)): <NSSQLCore: 0x10380a2c0> (URL: \(CKSample.storeURL))",
                    CKSample.logShow("-[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke", 1198,
                                     "\(CKSample.otherDelegate): Successfully set up CloudKit integration for store: <NSSQLCore: 0x1066143f0> (URL: \(CKSample.storeURL))"),
                 ]),

            Rule("cloudkit-setup-failed", .cloudKit, .cloudKitSetupFailed,
                 #"Failed to set up CloudKit integration for store"# + CloudKitRules.url,
                 samples: [
                    CKSample.oslogError("-[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke", 1242,
                                        "\(CKSample.delegate): Failed to set up CloudKit integration for store: <NSSQLCore: 0x10380a2c0> (URL: \(CKSample.storeURL))\n<CKError 0x600000c6d2c0: \"Service Unavailable\" (6/2022); \"Request failed with http status code 503\"; uuid = 2E4F6A8C-0B1D-4E3F-9A5B-7C9D1E3F5A7B; Retry after 30.0 seconds>\n"),
                 ]) { CloudKitEvent.outcome($0, failed: .cloudKitSetupFailed, stage: "setup") },

            CloudKitEvent.rule("cloudkit-delegate-deallocated", .cloudKit, .cloudKitDelegateDeallocated,
                 #"Unable to schedule work because the mirroring delegate was deallocated"#,
                 samples: [
                    CKSample.stderr("debug", "-[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke", 3212,
                                    "Unable to schedule work because the mirroring delegate was deallocated."),
                 ]),

            Rule("cloudkit-not-initialized", .cloudKit, .cloudKitNotInitialized,
                 #"Never successfully initialized and cannot execute request '?"# + CloudKitRules.requestObject,
                 samples: [
                    CKSample.oslogError("-[NSCloudKitMirroringDelegate _requestAbortedNotInitialized:]", 2183,
                                        "\(CKSample.delegate) - Never successfully initialized and cannot execute request '<NSCloudKitMirroringExportRequest: 0x600002a38f00> \(CKSample.otherRequest)' due to error: Error Domain=CKErrorDomain Code=2 \"Failed to modify some records\" UserInfo={CKPartialErrors={\n}}"),
                 ]) { CloudKitEvent.outcome($0, failed: .cloudKitNotInitialized, stage: "request") },

            CloudKitEvent.rule("cloudkit-metadata-migration-skipped", .cloudKit, .cloudKitMetadataMigrationSkipped,
                 #"Skipping migration for '(?<table>ANSCK\w+)'"#,
                 samples: [CKSample.stderr("debug", "-[PFCloudKitMetadataModelMigrator calculateMigrationStepsWithConnection:error:]", 446,
                                           "Skipping migration for 'ANSCKDATABASEMETADATA' because it already has a column named 'ZLASTFETCHDATE'")]
                ),

            CloudKitEvent.rule("cloudkit-teardown", .cloudKit, .cloudKitTeardown,
                 #"Told to tear down with reason:[ ](?<reason>[^\n]+)"#,
                 samples: [
                    "CoreData+CloudKit: -[NSCloudKitMirroringDelegate tearDown:]_block_invoke(806): \(CKSample.delegate): Told to tear down with reason: Store Removed",
                    CKSample.sysdiagnose("-[NSCloudKitMirroringDelegate tearDown:]_block_invoke", 797, "<private>: Told to tear down with reason: Stores Changed"),
                 ]),

            Rule("cloudkit-reset-after-error", .cloudKit, .cloudKitResetAfterError,
                 #"resetting internal state after error"#,
                 samples: [
                    "CoreData+CloudKit: -[NSCloudKitMirroringDelegate resetAfterError:andKeepContainer:](612): \(CKSample.delegate) - resetting internal state after error: Error Domain=NSCocoaErrorDomain Code=134410 \"CloudKit setup failed because there is another instance of this persistent store actively syncing with CloudKit in this process.\" UserInfo={NSURL=\(CKSample.storeURL), NSLocalizedFailureReason=CloudKit setup failed because there is another instance of this persistent store actively syncing with CloudKit in this process., NSUnderlyingException=Illegal attempt to register a second handler for activity identifier com.apple.coredata.cloudkit.activity.setup.\(CKSample.store)}",
                    "CoreData+CloudKit: -[NSCloudKitMirroringDelegate resetAfterError:andKeepContainer:](612): \(CKSample.delegate) - resetting internal state after error: Error Domain=NSCocoaErrorDomain Code=134060 \"A Core Data error occurred.\" UserInfo={NSLocalizedFailureReason=The mirroring delegate could not initialize because its store was removed from the coordinator.}",
                 ]) { CloudKitEvent.outcome($0, failed: .cloudKitResetAfterError, stage: "teardown") },
        ]
    }

    enum AccountRules {
        static let all: [Rule] = [
            Rule("cloudkit-account-fetched", .cloudKit, .cloudKitAccountFetched,
                 #"Fetched account info for store(?:[^\n]*?accountStatus=(?<accountStatus>[^,;>\n]+))?(?:[^\n]*?needsToVerifyTerms=(?<needsToVerifyTerms>\w+))?"#,
                 samples: [
                    CKSample.stderr("warning", "-[PFCloudKitSetupAssistant _checkAccountStatus:]_block_invoke", 521,
                                    "Fetched account info for store \(CKSample.store): <CKAccountInfo: 0x600000c3a3c0; accountStatus=Available, accountPartition=Prod, deviceToDeviceEncryptionAvailability=(account|device), hasValidCredentials=true, walrus=Disabled, needsToVerifyTerms=false, accountAccessAuthorization=Allowed, validationCounter=0>\n(null)"),
                    CKSample.stderr("warning", "-[PFCloudKitSetupAssistant _checkAccountStatus:]_block_invoke", 521,
                                    "Fetched account info for store \(CKSample.otherStore): <CKAccountInfo: 0x600000c3a3c0; accountStatus=No account, accountPartition=Prod, deviceToDeviceEncryptionAvailability=(none), hasValidCredentials=false, walrus=Disabled, needsToVerifyTerms=false, accountAccessAuthorization=Allowed, validationCounter=0>\n(null)"),
                 ]) { match in
                let status = match["accountStatus"]
                let terms = match["needsToVerifyTerms"]
                let unusable = (status != nil && status != "Available" && status != "1") || terms == "true" || terms == "YES" || terms == "1"
                return CloudKitEvent.message(unusable ? .cloudKitAccountUnavailable : .cloudKitAccountFetched, match)
            },
        ]
    }

    enum RequestRules {
        static let all: [Rule] = [
            CloudKitEvent.rule("cloudkit-request-asked", .cloudKit, .cloudKitRequestAsked,
                 #"Asked to execute request:[ ]"# + CloudKitRules.requestObject,
                 samples: [CKSample.stderr("CloudKit", "-[NSCloudKitMirroringDelegate executeMirroringRequest:error:]", 1075,
                                           "\(CKSample.delegate): Asked to execute request: <NSCloudKitMirroringExportRequest: 0x600002a2c0f0> \(CKSample.request)")]
                ),

            CloudKitEvent.rule("cloudkit-request-enqueued", .cloudKit, .cloudKitRequestEnqueued,
                 #"(?:enqueuing|Enqueued) request:[ ]"# + CloudKitRules.requestObject,
                 samples: [
                    CKSample.stderr("CloudKit", "-[NSCloudKitMirroringDelegate _enqueueRequest:]_block_invoke", 1035,
                                    "\(CKSample.delegate): enqueuing request: <NSCloudKitMirroringExportRequest: 0x600002a2c0f0> \(CKSample.request)"),
                    CKSample.stderr("CloudKit", "-[NSCloudKitMirroringDelegate _enqueueRequest:]_block_invoke_2", 1063,
                                    "Enqueued request: <NSCloudKitMirroringExportRequest: 0x600002a2c0f0> \(CKSample.request)"),
                 ]),

            Rule.message("cloudkit-request-checking", .cloudKit, .cloudKitRequestChecking, #"Checking for pending requests"#,
                 samples: [CKSample.stderr("CloudKit", "-[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]", 3553, "\(CKSample.delegate): Checking for pending requests.")]),

            CloudKitEvent.rule("cloudkit-request-executing", .cloudKit, .cloudKitRequestExecuting,
                 #"Executing:[ ]"# + CloudKitRules.requestObject,
                 samples: [
                    CKSample.stderr("CloudKit", "-[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke", 3566,
                                    "\(CKSample.delegate): Executing: <NSCloudKitMirroringDelegateSetupRequest: 0x600002a1c0a0> \(CKSample.request)"),
                    CKSample.compact("-[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke", 3583,
                                     "\(CKSample.delegate): Executing: <NSCloudKitMirroringImportRequest: 0x600002a48c80> \(CKSample.otherRequest)"),
                 ]),

            Rule.message("cloudkit-queue-idle", .cloudKit, .cloudKitQueueIdle,
                 #"(?:No more requests to execute|Deferring additional work\. There is still an active request)"#,
                 samples: [
                    CKSample.stderr("CloudKit", "-[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke", 3569, "\(CKSample.delegate): No more requests to execute."),
                    CKSample.stderr("CloudKit", "-[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke", 2468, "<NSCloudKitMirroringDelegate: 0x283d54070>: No more requests to execute"),
                 ]),

            Rule("cloudkit-request-finished", .cloudKit, .cloudKitRequestFinished,
                 #"Finished request(?::[ ]|[ ]')"# + CloudKitRules.requestObject + CloudKitRules.result,
                 samples: [
                    CKSample.stderr("CloudKit", "-[NSCloudKitMirroringDelegate _finishedRequest:withResult:]", 3584,
                                    "Finished request: <NSCloudKitMirroringExportRequest: 0x600002a2c0f0> \(CKSample.request) with result: <NSCloudKitMirroringResult: 0x600000c2b480> storeIdentifier: \(CKSample.store) success: 1 madeChanges: 1 error: (null)"),
                    CKSample.stderr("warning", "-[NSCloudKitMirroringDelegate finishedAutomatedRequestWithResult:]", 2972,
                                    "Finished request '<NSCloudKitMirroringImportRequest: 0x2819c0460> \(CKSample.otherRequest)' with result: <NSCloudKitMirroringResult: 0x2824e1b00> success: 1 madeChanges: 0 error: (null)"),
                    CKSample.stderr("CloudKit", "-[NSCloudKitMirroringDelegate _finishedRequest:withResult:]", 3584,
                                    "Finished request: <NSCloudKitMirroringExportRequest: 0x600002a2c0f0> \(CKSample.request) with result: <NSCloudKitMirroringResult: 0x600000c2b480> storeIdentifier: \(CKSample.store) success: 0 madeChanges: 0 error: Error Domain=NSCocoaErrorDomain Code=134417 \"Request '<NSCloudKitMirroringExportRequest: 0x600002a2c0f0> \(CKSample.request)' was cancelled because there is already a pending request of type 'NSCloudKitMirroringExportRequest'.\" UserInfo={NSLocalizedFailureReason=Request '<NSCloudKitMirroringExportRequest: 0x600002a2c0f0> \(CKSample.request)' was cancelled because there is already a pending request of type 'NSCloudKitMirroringExportRequest'.}"),
                 ]) { CloudKitEvent.outcome($0, ok: .cloudKitRequestFinished, failed: .cloudKitRequestFailed, stage: "request") },
        ]
    }

    enum ExportImportRules {
        static let all: [Rule] = [
            CloudKitEvent.rule("cloudkit-context-save-observed", .cloudKit, .cloudKitContextSaveObserved, #"Observed context save:"#,
                 samples: [CKSample.stderr("debug", "-[NSCloudKitMirroringDelegate managedObjectContextSaved:]", 3020,
                                           "\(CKSample.delegate): Observed context save: <NSPersistentStoreCoordinator: 0x600003c08000> - <NSManagedObjectContext: 0x600003a0c1a0>")]
                ),
            CloudKitEvent.rule("cloudkit-remote-change-observed", .cloudKit, .cloudKitRemoteChangeObserved, #"Observed remote store notification:"#,
                 samples: [CKSample.stderr("debug", "-[NSCloudKitMirroringDelegate remoteStoreDidChange:]", 3063,
                                           "\(CKSample.delegate): Observed remote store notification: <NSPersistentStoreCoordinator: 0x600003c08000> - \(CKSample.store) - <NSPersistentHistoryToken - {\n    \"\(CKSample.store)\" = 48;\n}> - file:///private/var/mobile/Containers/Shared/AppGroup/5E6F/Recipes.sqlite")]
                ),
            CloudKitEvent.rule("cloudkit-export-began", .cloudKit, .cloudKitExportBegan, #"Beginning automated export - (?<label>[^:\n]+)"#,
                 samples: [CKSample.logShow("-[NSCloudKitMirroringDelegate _scheduleAutomatedExportWithLabel:activity:voucher:completionHandler:]", 3633,
                                            "\(CKSample.delegate) - Beginning automated export - ExportActivity:\n<NSCloudKitMirroringActivityVoucher: 0x600000c3c000> (ExportActivity)")]
                ),
            CloudKitEvent.rule("cloudkit-export-changes-since", .cloudKit, .cloudKitExportChangesSince, #"Exporting changes since \((?<token>\d+)\)"#,
                 samples: [CKSample.stderr("CloudKit", "-[PFCloudKitExporter analyzeHistoryInStore:withManagedObjectContext:error:]", 588,
                                           "<PFCloudKitExporter: 0x600000c24c80>: Exporting changes since (47): <NSPersistentHistoryToken - {\n    \"\(CKSample.store)\" = 47;\n}>")]
                ),
            CloudKitEvent.rule("cloudkit-export-objects-found", .cloudKit, .cloudKitExportObjectsFound, #"Found (?<objects>\d+) objects needing export"#,
                 samples: [CKSample.stderr("CloudKit", "-[PFCloudKitExporter exportIfNecessary]_block_invoke_2", 196, "<PFCloudKitExporter: 0x600000c24c80>: Found 3 objects needing export.")]
                ),
            CloudKitEvent.rule("cloudkit-export-finished", .cloudKit, .cloudKitExportFinished, #"Finished export:"#,
                 samples: [CKSample.stderr("warning", "-[NSCloudKitMirroringDelegate _exportFinishedWithResult:exporter:]", 1385,
                                           "Finished export: <PFCloudKitExporter: 0x600000c24c80>")]
                ),
            Rule("cloudkit-export-failed", .cloudKit, .cloudKitExportFailed, #"Export failed with error"#,
                 samples: [CKSample.sysdiagnose("-[NSCloudKitMirroringDelegate _exportFinishedWithResult:exporter:]", 1398, "<private>: Export failed with error:\n<private>")]
                ) { CloudKitEvent.outcome($0, failed: .cloudKitExportFailed, stage: "export") },
            Rule("cloudkit-automatic-export-finished", .cloudKit, .cloudKitExportFinished,
                 #"Finished automatic export - (?<label>[^\n]+?) - with result:"# + CloudKitRules.result,
                 samples: [
                    CKSample.stderr("CloudKit", "-[NSCloudKitMirroringDelegate _scheduleAutomatedExportWithLabel:activity:voucher:completionHandler:]_block_invoke", 3647,
                                    "\(CKSample.delegate) - Finished automatic export - ExportActivity - with result: <NSCloudKitMirroringResult: 0x600000c2b9c0> storeIdentifier: \(CKSample.store) success: 1 madeChanges: 1 error: (null)"),
                    CKSample.stderr("CloudKit", "-[NSCloudKitMirroringDelegate _scheduleAutomatedExportWithLabel:activity:completionHandler:]_block_invoke", 3364,
                                    "\(CKSample.otherDelegate) - Finished automatic export - AppDeactivationExport - with result: <NSCloudKitMirroringResult: 0x2824e1b00> storeIdentifier: \(CKSample.otherStore) success: 0 madeChanges: 0 error: Error Domain=NSCocoaErrorDomain Code=134406 \"Request '<NSCloudKitMirroringExportRequest: 0x2819c0460> \(CKSample.otherRequest)' was aborted because the mirroring delegate never successfully initialized due to error: \(CKSample.partialFailure(CKSample.schemaEntry("A1B2C3D4-0001")))\" UserInfo={NSLocalizedFailureReason=Request was aborted because the mirroring delegate never successfully initialized.}"),
                 ]) { CloudKitEvent.outcome($0, ok: .cloudKitExportFinished, failed: .cloudKitExportFailed, stage: "export") },
            CloudKitEvent.rule("cloudkit-history-caught-up", .cloudKit, .cloudKitHistoryCaughtUp,
                 #"Ignoring remote change notification because the exporter has already caught up"#,
                 samples: [CKSample.stderr("debug", "-[NSCloudKitMirroringDelegate remoteStoreDidChange:]", 3091,
                                           "Ignoring remote change notification because the exporter has already caught up to this transaction: 48 / 48 - <NSSQLCore: 0x10380a2c0>")]
                ),

            CloudKitEvent.rule("cloudkit-import-scheduled", .cloudKit, .cloudKitImportScheduled, #"Scheduling automated import with activity \((?<label>[^)\n]*)\)"#,
                 samples: [CKSample.stderr("warning", "-[NSCloudKitMirroringDelegate checkAndScheduleImportIfNecessary:andStartAfterDate:]_block_invoke", 3301,
                                           "\(CKSample.delegate): Scheduling automated import with activity (Database-LastFetchDate-2025-03-14 08:11:02 +0000): <NSCloudKitMirroringActivityVoucher: 0x600000c3c0f0>")]
                ),
            CloudKitEvent.rule("cloudkit-import-began", .cloudKit, .cloudKitImportBegan, #"Beginning automated import - (?<label>[^\n]+?) - in response to activity"#,
                 samples: [CKSample.logShow("-[NSCloudKitMirroringDelegate _scheduleAutomatedImportWithLabel:activity:voucher:completionHandler:]", 3702,
                                            "\(CKSample.delegate) - Beginning automated import - ImportActivity - in response to activity:\n<OS_xpc_dictionary: <dictionary: 0x600002f0c1e0> { count = 1 }>")]
                ),
            CloudKitEvent.rule("cloudkit-import-fetched", .cloudKit, .cloudKitImportFetched, #"Import request finished:"#,
                 samples: [CKSample.stderr("CloudKit", "-[PFCloudKitImporter databaseFetchFinishWithContext:error:completion:]_block_invoke", 462,
                                           "<PFCloudKitImporter: 0x600000c2c3c0>: Import request finished: <NSCloudKitMirroringImportRequest: 0x600002a48c80> \(CKSample.otherRequest)\n- <PFCloudKitImporterZoneChangedWorkItem: 0x600003e0d0e0> {\nToken: <CKServerChangeToken: 0x600000c0c0d0; data=AQAAAAAAAAHT//////////8=>\nChanged: (\n    \"<CKRecordZoneID: 0x600000c0c0e0; zoneName=com.apple.coredata.cloudkit.zone, ownerName=__defaultOwner__>\"\n)}")]
                ),
            CloudKitEvent.rule("cloudkit-import-work-items", .cloudKit, .cloudKitImportWorkItems, #"Processing work items:"#,
                 samples: [CKSample.stderr("CloudKit", "-[PFCloudKitImporter processWorkItemsWithCompletion:]", 388, "<PFCloudKitImporter: 0x600000c2c3c0>: Processing work items: (\n)")]
                ),
            CloudKitEvent.rule("cloudkit-import-applied", .cloudKit, .cloudKitImportApplied, #"Finished importing (?:applying )?changes for request:[ ]?"# + CloudKitRules.requestObject,
                 samples: [CKSample.stderr("warning", "-[PFCloudKitImportRecordsWorkItem newMirroringResultByApplyingAccumulatedChanges]_block_invoke", 1223,
                                           "Finished importing changes for request: <NSCloudKitMirroringImportRequest: 0x600002a48c80> \(CKSample.otherRequest)")]
                ),
            CloudKitEvent.rule("cloudkit-push-received", .cloudKit, .cloudKitPushReceived, #"Got notification for subscription:[ ](?<subscription>[^\s]+)"#,
                 samples: [CKSample.syslog("-[NSCloudKitMirroringDelegate _respondToPushNotification:forSubscription:]_block_invoke", 3456,
                                           "\(CKSample.delegate) - Got notification for subscription: com.apple.coredata.cloudkit.private.subscription")]
                ),
        ]
    }

    enum RecoveryRules {
        static let all: [Rule] = [
            Rule("cloudkit-recovery-attempted", .cloudKit, .cloudKitRecoveryAttempted, #"Attempting recovery from error"#,
                 samples: [CKSample.oslogError("-[NSCloudKitMirroringDelegate recoverFromError:]", 2312,
                                               "\(CKSample.delegate) - Attempting recovery from error: <CKError 0x600000c6e4f0: \"Zone Not Found\" (26/2036); server message = \"Zone 'com.apple.coredata.cloudkit.zone' does not exist\"; op = 1A2B3C4D5E6F7081; uuid = 9C8B7A6F-5E4D-4C3B-2A1F-0E9D8C7B6A59; container ID = \"\(CKSample.container)\">")]
                ) { CloudKitEvent.outcome($0, failed: .cloudKitRecoveryAttempted, stage: "recovery", fixedKind: true) },
            Rule("cloudkit-recovery-failed", .cloudKit, .cloudKitRecoveryFailed, #"Failed to recover from error"#,
                 samples: [CKSample.oslogError("-[NSCloudKitMirroringDelegate _recoverFromError:withZoneIDs:forStore:inMonitor:]", 2622,
                                               "\(CKSample.delegate) - Failed to recover from error: NSCocoaErrorDomain:134400\nRecovery encountered the following error: (null):0")]
                ) { CloudKitEvent.outcome($0, failed: .cloudKitRecoveryFailed, stage: "recovery") },
            Rule("cloudkit-fatal-partial-errors", .cloudKit, .cloudKitFatalPartialErrors, #"Error recovery failed because the following fatal errors were found"#,
                 samples: [CKSample.oslogError("-[NSCloudKitMirroringDelegate _recoverFromPartialError:forStore:inMonitor:]", 2796,
                                               "\(CKSample.delegate): Error recovery failed because the following fatal errors were found: {\n    \"<CKRecordID: 0x600000b8c120; recordName=7F3E2D1C-0001, zoneID=com.apple.coredata.cloudkit.zone:__defaultOwner__>\" = \"<CKError 0x600000c8a5b0: \\\"Invalid Arguments\\\" (12/2006); server message = \\\"Cannot create or modify field 'CD_servings' in record 'CD_Recipe' in production schema\\\"; op = 8C1D2E3F4A5B6C7D; uuid = 5B6C7D8E-9F0A-4B1C-8D2E-3F4A5B6C7D8E; container ID = \\\"\(CKSample.container)\\\">\";\n}")]
                ) { CloudKitEvent.outcome($0, failed: .cloudKitFatalPartialErrors, stage: "export") },
            Rule("cloudkit-unknown-partial-error", .cloudKit, .cloudKitUnknownPartialError, #"Found unknown error as part of a partial failure"#,
                 samples: [CKSample.stderr("error", "-[NSCloudKitMirroringDelegate recoverFromPartialError:forStore:inMonitor:]block_invoke", 1943,
                                           "\(CKSample.delegate): Found unknown error as part of a partial failure: <CKError 0x600000c74a80: \"Permission Failure\" (10/2007); server message = \"Invalid bundle ID for container\"; op = 5A4B3C2D1E0F9A8B; uuid = 3D4E5F6A-7B8C-4D9E-8F0A-1B2C3D4E5F6A; container ID = \"\(CKSample.container)\">")]
                ) { CloudKitEvent.outcome($0, failed: .cloudKitUnknownPartialError, stage: "export") },
            Rule("cloudkit-share-save-failed", .cloudKit, .cloudKitShareSaveFailed, #"Called about a failure to save a share"#,
                 samples: [CKSample.stderr("error", "-[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke_2", 1374,
                                           "Called about a failure to save a share: <CKRecordID: 0x600000b8c3c0; recordName=cloudkit.zoneshare, zoneID=Shared-Kitchen:__defaultOwner__> - <CKError 0x600000c75b20: \"Limit Exceeded\" (27/2023); server message = \"record too large\"; op = 0F1E2D3C4B5A6978; uuid = 6A7B8C9D-0E1F-4A2B-9C3D-4E5F6A7B8C9D; container ID = \"\(CKSample.container)\">")]
                ) { CloudKitEvent.outcome($0, failed: .cloudKitShareSaveFailed, stage: "share", fixedKind: true) },
        ]
    }
}
