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
        "The Xcode console's second copy of the record before it (the os_log copy and the stderr copy of one error): counted once.")

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
        "A request was dropped because one of its type was already pending (134417); harmless when a later one succeeds.")
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
    public static let cloudKitActivityRateLimited = EventKind(cloudKit: "cloudkit-activity-rate-limited", .scheduler, .warning, .notable,
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

/// What `explain` says about the family's kinds beyond their meaning.
enum CloudKitGuidance {
    private static func g(_ next: String, _ action: String? = nil) -> Guidance { Guidance(next: next, action: action) }

    static let byKind: [String: Guidance] = [
        "cloudkit-setup-succeeded": g("Imports and exports run as the system schedules them: cloudkit-request-executing and cloudkit-request-finished."),
        "cloudkit-setup-failed": g("Requests for the store are refused (cloudkit-not-initialized) until the app loads the store again.",
            "Read the error under it (`parselogs explain CODE`): 134400 is the account, 134410 a second container, 134060 the model, CKError 5/10 the container's set-up."),
        "cloudkit-delegate-deallocated": g("The work is lost; a later container may redo it.",
            "Keep one long-lived container (a singleton owned by the app); do not create containers in views or per request."),
        "cloudkit-second-instance": g("The second container's mirroring stops; the first may keep syncing, or both fail.",
            "Let one process (the app) mirror the store and keep a single container instance; extensions and widgets read the store and observe remote-change notifications without CloudKit options."),
        "cloudkit-container-not-linked": g("Every request fails the same way until the container is set up.",
            "In the developer portal, assign the iCloud container to the App ID and regenerate the provisioning profile; check the container identifier in the entitlements matches NSPersistentCloudKitContainerOptions. If it persists, try a new container."),
        "cloudkit-container-without-app-id": g("CloudKit stays unavailable in this process.", "Sign the build with a team and the iCloud entitlement (the simulator needs a signed build too)."),
        "cloudkit-daemon-unreachable": g("Set-up fails and is retried at the next launch.", "On macOS, give the app the CloudKit entitlement and check its sandbox; link CloudKit.framework."),
        "cloudkit-not-initialized": g("Every request is refused until set-up succeeds.", "Fix the set-up error the record carries (its cause is named); the request itself is fine."),
        "cloudkit-swiftdata-load-failed": g("The app has no ModelContainer.", "Read the Core Data records before it; with CloudKit, make every attribute optional or defaulted, every relationship optional, and drop unique constraints."),
        "cloudkit-echo": g("Nothing: it repeats the record before it."),
        "cloudkit-schema-not-deployed": g("Exports of the named record type fail until the schema is deployed; other records may sync.",
            "In CloudKit Console, deploy the Development schema to Production (after creating it with initializeCloudKitSchema or by exercising every entity in a debug build). Typical symptom: works from Xcode, not from TestFlight or the App Store."),
        "cloudkit-model-ordered-relationship": g("The store does not load.", "Make the relationship unordered (keep an explicit order attribute instead)."),
        "cloudkit-model-attribute-required": g("The store does not load.", "Make the attribute optional or give it a default value in the model."),
        "cloudkit-model-relationship-required": g("The store does not load.", "Make the relationship optional (and give it an inverse)."),
        "cloudkit-core-data-error": g("The operation it belongs to fails.", "Read its failure reason; model rules and object graphs in several zones are the usual ones."),
        "cloudkit-bad-request": g("The client's request failed with the matching CKError.", "Look at the record type and zone in the entry; a BAD_REQUEST on save is usually a schema that lacks a field."),
        "cloudkit-account-unavailable": g("Mirroring stays off until the account is usable; the store works locally.",
            "Ask the user to sign in to iCloud, turn iCloud on for the app, or accept the new terms in Settings; observe CKAccountChanged to resume."),
        "cloudkit-quota-exceeded": g("Exports fail until the user frees iCloud storage; imports still run.", "Tell the user their iCloud storage is full; keep records small (assets for large data)."),
        "cloudkit-request-cancelled": g("The pending request of that type runs instead.", "Nothing, as long as a later request of that type succeeds."),
        "cloudkit-request-failed": g("The container retries at the next scheduled activity.", "Read the CKErrors with it (`parselogs explain` with their codes); if the same failure repeats, it will not clear by itself."),
        "cloudkit-network-unavailable": g("The container retries when the network is back.", "Nothing unless it persists; then check the device's network and whether CloudKit is reachable."),
        "cloudkit-partial-failure-hidden": g("Nothing more is logged on this line.", "Capture the log with -com.apple.CoreData.CloudKitDebug 1 (or log stream on com.apple.coredata) to see the per-record errors."),
        "cloudkit-export-failed": g("The changes stay local and are exported at the next attempt.", "Read the error with it; if the same failure repeats, it will not clear by itself."),
        "cloudkit-limit-exceeded": g("The offending records never sync as they are.", "Keep records under 1 MB (move large data to external-storage attributes, which become assets) and fewer than 256 fields per entity."),
        "cloudkit-record-conflict": g("Core Data fetches the server's record, merges and exports again."),
        "cloudkit-history-expired": g("Mirroring may reset its metadata and re-export.", "Do not purge persistent history that the mirroring delegate has not exported yet."),
        "cloudkit-zone-missing": g("Mirroring recreates the zone and uploads the store again.", "Nothing if it happens once after the user deleted the app's iCloud data; if it repeats, check the container and environment."),
        "cloudkit-activity-deferred": g("The activity runs when the earlier one ends, usually within seconds."),
        "cloudkit-activity-rate-limited": g("The activity runs when the rate limit or power condition clears, sometimes hours later.", "Nothing to configure; avoid bursts of saves (batch large imports)."),
        "cloudkit-throttled": g("Requests wait for the retry-after and are retried; a retry may be throttled again.", "Nothing to configure; if it persists, reduce the volume of changes (batch saves, populate gradually)."),
        "cloudkit-teardown": g("Nothing syncs for that store until it is added again.", "Expected when the app removes or replaces the store (migration, restore); otherwise find the code that removes it."),
        "cloudkit-reset-after-error": g("Mirroring for the store stops until the app loads it again.", "Read the error it carries; 134410 means a second container on the same store."),
        "cloudkit-share-save-failed": g("The share is not created or updated.", "Read the CKError (record too large, quota, permission); reuse shares and purge empty share zones."),
        "cloudkit-objects-in-several-zones": g("The share is refused.", "Share whole object graphs: move related objects into the share's zone together, or relate them only within one zone."),
        "cloudkit-recovery-attempted": g("cloudkit-recovery-failed or a successful request follows.",
            "Nothing unless recovery fails; the error it recovers from names the cause."),
        "cloudkit-recovery-failed": g("The failed records or the store stay unsynced.", "Read the error it names; schema and container problems need fixing outside the app."),
        "cloudkit-fatal-partial-errors": g("Those records stay unsynced.", "Fix what each entry's CKError names (schema, permission, limits); the records export again after that."),
        "cloudkit-unknown-partial-error": g("The record stays unsynced.", "Read the CKError; `Invalid bundle ID for container` means the container is not assigned to the App ID."),
    ]
}

/// The CKError codes `parselogs explain` knows (CKError.Code, CloudKit's public numbers) and
/// the internal codes seen beside them in mirroring logs.
public struct CKErrorCode: Sendable {
    public let code: Int
    public let name: String
    public let meaning: String
    public let action: String
    /// Internal codes seen with it: `(code, what it means)`.
    public let internalCodes: [(Int, String)]

    init(_ code: Int, _ name: String, _ meaning: String, _ action: String, internal internalCodes: [(Int, String)] = []) {
        self.code = code
        self.name = name
        self.meaning = meaning
        self.action = action
        self.internalCodes = internalCodes
    }

    public static func named(_ code: Int) -> CKErrorCode? { all.first { $0.code == code } }

    static let domain = "CKErrorDomain"

    /// The table as `explain` entries (`CKErrorDomain:25`), the internal codes in the meaning,
    /// and the Core Data codes of the mirroring code.
    static let errorCodes: [ErrorCode] = all.map { entry in
        let internals = entry.internalCodes.map { "\($0.0) \($0.1)" }.joined(separator: "; ")
        let meaning = entry.meaning + (internals.isEmpty ? "" : " Internal codes seen with it: \(internals).")
        return ErrorCode(domain, entry.code, "CKError.\(entry.name)", meaning, entry.action)
    } + [
        ErrorCode(ErrorCode.cocoa, 4099, "NSXPCConnectionInvalid",
                  "The connection to a daemon was invalidated; for CloudKit, the process could not reach cloudd (on macOS usually the sandbox: \"Sandbox restriction\").",
                  "Give the app the iCloud/CloudKit entitlement and check its sandbox; on iOS, restarting the device restarts the daemon."),
        ErrorCode(ErrorCode.cocoa, 134301, "NSPersistentHistoryTokenExpiredError",
                  "A persistent-history token points at history that was deleted; with CloudKit mirroring the delegate may reset its local metadata.",
                  "Do not purge history the mirroring delegate has not exported yet; a consumer must drop its saved token and refetch."),
        ErrorCode(ErrorCode.cocoa, 134400, "NSCloudKitMirroringDelegate: no iCloud account",
                  "Mirroring cannot start without an iCloud account (CKAccountStatusNoAccount), or with iCloud turned off for the app.",
                  "Ask the user to sign in to iCloud and turn it on for the app; the store works locally meanwhile."),
        ErrorCode(ErrorCode.cocoa, 134406, "NSCloudKitMirroringDelegate: never initialized",
                  "A request was aborted because mirroring set-up never succeeded; the error nested in it is the set-up's real cause.",
                  "Read the nested error (schema, account, container) and fix that; the request itself is fine."),
        ErrorCode(ErrorCode.cocoa, 134410, "NSCloudKitMirroringDelegate: second instance",
                  "Another instance of this store is already mirroring with CloudKit in this process: two containers, or the app and an extension, on one store.",
                  "Keep one container per store in one process; let extensions read the store without CloudKit options."),
        ErrorCode(ErrorCode.cocoa, 134417, "NSCloudKitMirroringDelegate: request cancelled",
                  "A request was dropped because one of its type was already pending.",
                  "Nothing, as long as a later request of that type succeeds."),
        ErrorCode(ErrorCode.cocoa, 134419, "NSCloudKitMirroringDelegate: unknown code",
                  "A mirroring code outside Apple's public headers (reported for exports superseded at once).",
                  "Look at the error nested in it, which carries the cause."),
        ErrorCode(ErrorCode.cocoa, 134421, "NSCloudKitMirroringDelegate: unknown code",
                  "A mirroring code outside Apple's public headers (reported for imports while throttled).",
                  "Look at the error nested in it, which carries the cause."),
    ]
    static func name(of code: Int) -> String? { named(code)?.name }

    public static let all: [CKErrorCode] = [
        .init(1, "internalError", "CloudKit failed inside the client or the daemon.", "Usually transient; with internal code 4000 the device has no signed-in account able to sign requests (common in the simulator): sign in to iCloud.",
              internal: [(4000, "no signing certificate or signature"), (1000, "no response from the server")]),
        .init(2, "partialFailure", "Some items of a request failed; each entry of its partial errors says why.", "Read the entries (parselogs lists them as ckErrors); the log holds them even when the app's event only says code 2.",
              internal: [(1011, "partial failure")]),
        .init(3, "networkUnavailable", "No network.", "Nothing: the container retries when the network is back."),
        .init(4, "networkFailure", "The network failed during the request.", "Nothing unless it persists."),
        .init(5, "badContainer", "The container is unknown or not provisioned for this app.", "Check the container identifier and its assignment to the App ID in the developer portal.",
              internal: [(1014, "no container configuration from the server")]),
        .init(6, "serviceUnavailable", "The server refused the request, usually a throttle (HTTP 503) with a retry-after.", "Wait: the container honours the retry-after. Reduce bursts of changes if it persists.",
              internal: [(2022, "HTTP 503, the client should throttle")]),
        .init(7, "requestRateLimited", "The device refuses requests locally after an earlier throttle.", "Wait for the retry-after; it clears by itself.",
              internal: [(2008, "rate limited after an earlier error")]),
        .init(8, "missingEntitlement", "The app lacks the iCloud/CloudKit entitlement.", "Add the iCloud capability with CloudKit and the container to the target."),
        .init(9, "notAuthenticated", "No usable iCloud account: signed out, CloudKit off for the app, or new terms to accept.", "Ask the user to sign in or accept the terms in Settings.",
              internal: [(1002, "access denied by the user's settings"), (1004, "the account must accept new terms")]),
        .init(10, "permissionFailure", "The user or app may not do this; for a container, it is not assigned to the app's ID.", "Assign the container to the App ID and regenerate the provisioning profile.",
              internal: [(2007, "invalid bundle ID for the container")]),
        .init(11, "unknownItem", "The record does not exist on the server.", "Usually handled by Core Data; persistent cases mean local metadata is stale (reinstall)."),
        .init(12, "invalidArguments", "The request was malformed; for mirroring, usually a field or type missing from the Production schema.", "Deploy the schema from Development to Production in CloudKit Console.",
              internal: [(2006, "field or type not in the production schema")]),
        .init(13, "resultsTruncated", "A query returned fewer results than asked.", "Nothing for mirroring."),
        .init(14, "serverRecordChanged", "The record changed on the server since it was fetched (a conflict).", "Nothing: Core Data merges and retries.",
              internal: [(2004, "oplock error or record already exists")]),
        .init(15, "serverRejectedRequest", "The server rejected the request, for example a duplicate subscription.", "Harmless for duplicate subscriptions; otherwise read the server message.",
              internal: [(2032, "duplicate subscription")]),
        .init(16, "assetFileNotFound", "An asset's file was missing when uploading.", "Check external-storage attributes are not deleted while exporting."),
        .init(17, "assetFileModified", "An asset's file changed while uploading.", "Nothing: it is retried."),
        .init(18, "incompatibleVersion", "The app is too old for the container's data.", "Update the app."),
        .init(19, "constraintViolation", "A unique constraint was violated on the server.", "Do not use unique constraints with CloudKit mirroring."),
        .init(20, "operationCancelled", "The operation was cancelled.", "Nothing: the container cancels and reschedules its own work."),
        .init(21, "changeTokenExpired", "The saved change token is no longer valid.", "Nothing: mirroring refetches."),
        .init(22, "batchRequestFailed", "An item failed only because another in its atomic batch failed.", "Fix the other item's error; these are summarised as \"Batch Request Failed\" CKError's omited."),
        .init(23, "zoneBusy", "The zone is busy; try later.", "Nothing: it is retried."),
        .init(24, "badDatabase", "The operation is not allowed in this database.", "Check the database scope in the container options."),
        .init(25, "quotaExceeded", "The user's iCloud storage is full.", "Tell the user to free iCloud storage.",
              internal: [(2035, "quota exceeded")]),
        .init(26, "zoneNotFound", "The record zone does not exist.", "Nothing if mirroring recreates it; if it repeats, check the environment and container.",
              internal: [(2036, "zone not found")]),
        .init(27, "limitExceeded", "A limit was exceeded: a record over 1 MB, or more than 400 items in one request.", "Keep records small (assets for large data); batches are split by Core Data.",
              internal: [(2023, "record too large"), (1020, "more than 400 items in one request")]),
        .init(28, "userDeletedZone", "The user deleted the app's data from iCloud settings.", "Nothing: mirroring rebuilds the zone from the local store.",
              internal: [(2042, "zone purged by the user")]),
        .init(29, "tooManyParticipants", "A share has too many participants.", "Remove participants from the share."),
        .init(30, "alreadyShared", "The record is already shared.", "Reuse the existing share."),
        .init(31, "referenceViolation", "A reference points at a record that does not exist.", "Save the referenced record first; check relationships across zones."),
        .init(32, "managedAccountRestricted", "The account is restricted by management (MDM).", "The user's organisation must allow iCloud for the app."),
        .init(33, "participantMayNeedVerification", "A share participant must verify their account.", "Ask the participant to open the share and verify."),
        .init(34, "serverResponseLost", "The server's answer was lost; the request may have succeeded.", "Nothing: it is retried."),
        .init(35, "assetNotAvailable", "An asset could not be downloaded.", "Nothing unless it persists."),
        .init(36, "accountTemporarilyUnavailable", "The account is temporarily unavailable (for example, being set up).", "Nothing: wait until the account is ready."),
    ]
}
