// The kinds of the CloudKit mirroring family and what `parselogs explain` says about each.

extension EventKind {
    fileprivate convenience init(cloudKit id: String, _ category: Category, _ severity: Severity, _ tier: Tier, _ summary: String) {
        self.init(id, category, severity, tier, summary, family: .cloudKit)
    }

    // Setup
    public static let cloudKitOptionsValidated = EventKind(cloudKit: "cloudkit-options-validated", .setup, .debug, .routine,
        "The mirroring delegate checked the container options of a store it is about to mirror (container identifier, database scope).")
    public static let cloudKitStoreObserved = EventKind(cloudKit: "cloudkit-store-observed", .setup, .debug, .routine,
        "The mirroring delegate attached to a store file; the URL says which store the following records concern.")
    public static let cloudKitSetupEnqueued = EventKind(cloudKit: "cloudkit-setup-enqueued", .setup, .info, .detail,
        "Mirroring set-up for a store was queued; it has not run yet.")
    public static let cloudKitSetupSucceeded = EventKind(cloudKit: "cloudkit-setup-succeeded", .setup, .info, .notable,
        "Mirroring is set up for a store: its zone and subscription exist, and imports and exports can run.")
    public static let cloudKitSetupFailed = EventKind(cloudKit: "cloudkit-setup-failed", .setup, .error, .notable,
        "Mirroring could not be set up for a store; nothing syncs until it is. The error under it says why.")
    public static let cloudKitDelegateDeallocated = EventKind(cloudKit: "cloudkit-delegate-deallocated", .setup, .warning, .notable,
        "The container (and its mirroring delegate) was released before its queued work ran.")
    public static let cloudKitSecondInstance = EventKind(cloudKit: "cloudkit-second-instance", .setup, .error, .notable,
        "A second container mirrors the same store in one process (134410): two containers, or the app and an extension, on one store file.")
    public static let cloudKitContainerNotLinked = EventKind(cloudKit: "cloudkit-container-not-linked", .setup, .error, .notable,
        "CloudKit refused the container: it is not assigned to the app's ID, unknown to the server, or the app lacks the entitlement.")
    public static let cloudKitContainerWithoutAppID = EventKind(cloudKit: "cloudkit-container-without-app-id", .setup, .error, .notable,
        "CloudKit cannot start: the process has no application identifier (an unsigned or wrongly signed build).")
    public static let cloudKitMissingEntitlement = EventKind(cloudKit: "cloudkit-missing-entitlement", .setup, .error, .notable,
        "The process lacks the iCloud (CloudKit) entitlement: CloudKit refused it (CKError 8) or aborted the process.")
    public static let cloudKitDaemonUnreachable = EventKind(cloudKit: "cloudkit-daemon-unreachable", .setup, .error, .notable,
        "The process cannot reach the CloudKit daemon (on macOS, usually the sandbox or a missing entitlement).")
    public static let cloudKitNotInitialized = EventKind(cloudKit: "cloudkit-not-initialized", .setup, .error, .notable,
        "A request was refused because mirroring set-up never succeeded (134406); the error under it is the set-up's.")
    public static let cloudKitSwiftDataLoadFailed = EventKind(cloudKit: "cloudkit-swiftdata-load-failed", .setup, .error, .notable,
        "SwiftData could not load its ModelContainer; the Core Data records before it say why (often the CloudKit model rules).")
    public static let cloudKitMetadataMigrationSkipped = EventKind(cloudKit: "cloudkit-metadata-migration-skipped", .setup, .debug, .routine,
        "The mirroring metadata tables are already up to date.")
    public static let cloudKitSubscriptionDuplicate = EventKind(cloudKit: "cloudkit-subscription-duplicate", .setup, .info, .detail,
        "The store's CloudKit subscription already exists; nothing to do.")
    public static let cloudKitEcho = EventKind(cloudKit: "cloudkit-echo", .setup, .debug, .routine,
        "The Xcode console's second copy of the record before it (the os_log copy and the stderr copy of one error): counted once. A copy after an echo is a failure again.")

    // Schema and model
    public static let cloudKitSchemaNotDeployed = EventKind(cloudKit: "cloudkit-schema-not-deployed", .schema, .error, .notable,
        "The CloudKit schema in use (Production, for TestFlight and App Store builds) lacks a record type or field of the Core Data model.")
    public static let cloudKitModelOrderedRelationship = EventKind(cloudKit: "cloudkit-model-ordered-relationship", .schema, .error, .notable,
        "The store was not loaded: the model has an ordered relationship, which CloudKit mirroring does not support.")
    public static let cloudKitModelAttributeRequired = EventKind(cloudKit: "cloudkit-model-attribute-required", .schema, .error, .notable,
        "The store was not loaded: an attribute is non-optional without a default value, which CloudKit mirroring does not allow.")
    public static let cloudKitModelRelationshipRequired = EventKind(cloudKit: "cloudkit-model-relationship-required", .schema, .error, .notable,
        "The store was not loaded: a relationship is non-optional, which CloudKit mirroring does not allow.")
    public static let cloudKitCoreDataError = EventKind(cloudKit: "cloudkit-core-data-error", .schema, .error, .notable,
        "Core Data's generic error (134060) from the mirroring code; its failure reason says what it is about.")
    public static let cloudKitBadRequest = EventKind(cloudKit: "cloudkit-bad-request", .schema, .error, .notable,
        "CloudKit Console's log of a request the server refused (BAD_REQUEST and others): it names the operation and zone.")

    // Account
    public static let cloudKitAccountFetched = EventKind(cloudKit: "cloudkit-account-fetched", .account, .info, .detail,
        "Set-up looked up the iCloud account and it is available.")
    public static let cloudKitAccountUnavailable = EventKind(cloudKit: "cloudkit-account-unavailable", .account, .warning, .notable,
        "The iCloud account cannot be used: no account, iCloud off for the app, new terms to accept, or no valid credentials.")
    public static let cloudKitQuotaExceeded = EventKind(cloudKit: "cloudkit-quota-exceeded", .account, .warning, .notable,
        "The user's iCloud storage is full: records cannot be saved until space is freed.")

    // Requests
    public static let cloudKitRequestAsked = EventKind(cloudKit: "cloudkit-request-asked", .request, .debug, .routine,
        "A request (setup, import, export, reset) was handed to the mirroring delegate.")
    public static let cloudKitRequestEnqueued = EventKind(cloudKit: "cloudkit-request-enqueued", .request, .debug, .routine,
        "A request went into the mirroring delegate's serial queue.")
    public static let cloudKitRequestChecking = EventKind(cloudKit: "cloudkit-request-checking", .request, .debug, .routine,
        "The mirroring delegate polls its queue for the next request.")
    public static let cloudKitRequestExecuting = EventKind(cloudKit: "cloudkit-request-executing", .request, .info, .detail,
        "A queued request starts now; its class says which (setup, import, export, reset).")
    public static let cloudKitQueueIdle = EventKind(cloudKit: "cloudkit-queue-idle", .request, .debug, .routine,
        "The request queue is drained or waits for the active request: the delegate is idle.")
    public static let cloudKitRequestFinished = EventKind(cloudKit: "cloudkit-request-finished", .request, .info, .detail,
        "A request finished successfully.")
    public static let cloudKitRequestCancelled = EventKind(cloudKit: "cloudkit-request-cancelled", .request, .info, .detail,
        "A request was cancelled: dropped because one of its type was already pending (134417), or its CloudKit operation cancelled (CKError 20); the container does the work in another request.")
    public static let cloudKitRequestFailed = EventKind(cloudKit: "cloudkit-request-failed", .request, .error, .notable,
        "A request finished with success 0 and an error that no more specific kind explains.")
    public static let cloudKitNetworkUnavailable = EventKind(cloudKit: "cloudkit-network-unavailable", .request, .warning, .notable,
        "A request failed for want of the network or the server's answer; the container retries later.")
    public static let cloudKitPartialFailureHidden = EventKind(cloudKit: "cloudkit-partial-failure-hidden", .request, .warning, .notable,
        "A partial failure reported without its per-record errors (CKErrorDomain error 2): the cause is in the mirroring records.")

    // Export
    public static let cloudKitContextSaveObserved = EventKind(cloudKit: "cloudkit-context-save-observed", .export, .debug, .routine,
        "A save touched the mirrored store; an export will be scheduled.")
    public static let cloudKitRemoteChangeObserved = EventKind(cloudKit: "cloudkit-remote-change-observed", .export, .debug, .routine,
        "Another coordinator or process changed the store; an export will be scheduled.")
    public static let cloudKitExportBegan = EventKind(cloudKit: "cloudkit-export-began", .export, .info, .detail,
        "An automated export starts; its label says why (ExportActivity, AppDeactivationExport).")
    public static let cloudKitExportChangesSince = EventKind(cloudKit: "cloudkit-export-changes-since", .export, .debug, .routine,
        "The exporter reads persistent history from a token onward.")
    public static let cloudKitExportObjectsFound = EventKind(cloudKit: "cloudkit-export-objects-found", .export, .info, .detail,
        "How many objects the export will send (0: nothing pending).")
    public static let cloudKitExportFinished = EventKind(cloudKit: "cloudkit-export-finished", .export, .info, .detail,
        "An export finished successfully.")
    public static let cloudKitExportFailed = EventKind(cloudKit: "cloudkit-export-failed", .export, .error, .notable,
        "An export failed with an error that no more specific kind explains.")
    public static let cloudKitLimitExceeded = EventKind(cloudKit: "cloudkit-limit-exceeded", .export, .error, .notable,
        "A CloudKit limit was hit: a record over 1 MB, more than 400 items in one request, or one record twice in a request.")
    public static let cloudKitRecordConflict = EventKind(cloudKit: "cloudkit-record-conflict", .export, .info, .detail,
        "A record changed on the server since it was fetched (14, Server Record Changed); Core Data merges and retries.")
    public static let cloudKitHistoryCaughtUp = EventKind(cloudKit: "cloudkit-history-caught-up", .export, .debug, .routine,
        "A remote-change notification concerned history the exporter had already handled.")
    public static let cloudKitChangeTokenExpired = EventKind(cloudKit: "cloudkit-change-token-expired", .import, .warning, .notable,
        "CloudKit refused the saved server change token (CKError 21, Change Token Expired): the changes must be fetched again from scratch.")
    public static let cloudKitHistoryExpired = EventKind(cloudKit: "cloudkit-history-expired", .export, .warning, .notable,
        "A persistent-history token points at history that was deleted (134301); mirroring may reset its local metadata.")

    // Import
    public static let cloudKitImportScheduled = EventKind(cloudKit: "cloudkit-import-scheduled", .import, .info, .detail,
        "An import was scheduled; the label says why (a push, or how stale the last fetch of the database or a zone is).")
    public static let cloudKitImportBegan = EventKind(cloudKit: "cloudkit-import-began", .import, .info, .detail,
        "An automated import starts (the system approved its activity).")
    public static let cloudKitImportFetched = EventKind(cloudKit: "cloudkit-import-fetched", .import, .info, .detail,
        "The database fetch of an import ended; Changed lists the zones with changes.")
    public static let cloudKitImportWorkItems = EventKind(cloudKit: "cloudkit-import-work-items", .import, .debug, .routine,
        "The importer works through its per-zone work items.")
    public static let cloudKitImportApplied = EventKind(cloudKit: "cloudkit-import-applied", .import, .info, .detail,
        "Fetched records were applied to the store.")
    public static let cloudKitZoneMissing = EventKind(cloudKit: "cloudkit-zone-missing", .import, .warning, .notable,
        "The store's record zone is gone (not found, or the user deleted the app's iCloud data); mirroring must rebuild it.")

    // Scheduler and throttles
    public static let cloudKitActivityAllowed = EventKind(cloudKit: "cloudkit-activity-allowed", .scheduler, .debug, .routine,
        "The system let a sync activity run now (dasd: Can Proceed).")
    public static let cloudKitActivityDeferred = EventKind(cloudKit: "cloudkit-activity-deferred", .scheduler, .info, .detail,
        "The system deferred a sync activity because the app already runs as many as allowed (Activity Group Policy); it clears in seconds.")
    public static let cloudKitActivityRateLimited = EventKind(cloudKit: "cloudkit-activity-rate-limited", .scheduler, .info, .notable,
        "The system deferred a sync activity by its rate limit or power policy; it can last hours and clears by itself.")
    public static let cloudKitThrottled = EventKind(cloudKit: "cloudkit-throttled", .scheduler, .warning, .notable,
        "CloudKit throttled the app (HTTP 503 or 429, Request Rate Limited): requests wait for the retry-after.")

    // Pushes
    public static let cloudKitPushReceived = EventKind(cloudKit: "cloudkit-push-received", .push, .info, .detail,
        "A CloudKit push for the store's subscription arrived; an import follows.")
    public static let cloudKitPushDelivered = EventKind(cloudKit: "cloudkit-push-delivered", .push, .debug, .routine,
        "The push daemon or the CloudKit framework handled a push on its way to the app.")

    // Teardown
    public static let cloudKitTeardown = EventKind(cloudKit: "cloudkit-teardown", .teardown, .warning, .notable,
        "Mirroring stopped for a store (Store Removed, Stores Changed).")
    public static let cloudKitResetAfterError = EventKind(cloudKit: "cloudkit-reset-after-error", .teardown, .error, .notable,
        "The mirroring delegate threw away its state after a fatal error; syncing for the store stops.")

    // Sharing
    public static let cloudKitShareSaveFailed = EventKind(cloudKit: "cloudkit-share-save-failed", .sharing, .warning, .notable,
        "A share record could not be saved; the CKError with it says why.")
    public static let cloudKitObjectsInSeveralZones = EventKind(cloudKit: "cloudkit-objects-in-several-zones", .sharing, .warning, .notable,
        "Related objects are in several zones (part shared, part private); the share is refused.")

    // Recovery
    public static let cloudKitRecoveryAttempted = EventKind(cloudKit: "cloudkit-recovery-attempted", .recovery, .warning, .notable,
        "The mirroring delegate tries to recover from an error (resetting a zone, retrying set-up).")
    public static let cloudKitRecoveryFailed = EventKind(cloudKit: "cloudkit-recovery-failed", .recovery, .error, .notable,
        "The mirroring delegate gave up recovering from an error.")
    public static let cloudKitFatalPartialErrors = EventKind(cloudKit: "cloudkit-fatal-partial-errors", .recovery, .error, .notable,
        "A partial failure held errors that cannot be retried; those records stay unsynced.")
    public static let cloudKitUnknownPartialError = EventKind(cloudKit: "cloudkit-unknown-partial-error", .recovery, .error, .notable,
        "A per-record error inside a partial failure that the mirroring delegate cannot classify.")
}
