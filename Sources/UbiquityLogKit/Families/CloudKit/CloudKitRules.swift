// The CloudKit family's rules: Core Data's mirroring records (`CoreData+CloudKit:`) by the
// text after the logging method and the logged object, and the lines of CloudKit's framework
// and daemons around them. Patterns never name the source line or the exact selector: both
// change with every OS release.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum CloudKitRules {
    static let all: [Rule] = (CloudKitSetupRules.all + AccountRules.all + RequestRules.all + ExportImportRules.all
        + RecoveryRules.all + FrameworkRules.all).map { rule in
        switch rule.id {
        case "cloudkit-account-fetched": rule.producing([.cloudKitAccountUnavailable])
        case "cloudkit-activity-decision": rule.producing([.cloudKitActivityDeferred, .cloudKitActivityRateLimited])
        case "cloudkit-model-rule": rule.producing([.cloudKitModelOrderedRelationship, .cloudKitModelRelationshipRequired])
        case "cloudkit-setup-failed", "cloudkit-not-initialized", "cloudkit-reset-after-error", "cloudkit-request-finished",
             "cloudkit-export-failed", "cloudkit-automatic-export-finished", "cloudkit-fatal-partial-errors",
             "cloudkit-unknown-partial-error", "cloudkit-mirroring-error-text", "cloudkit-ckerror-text", "cloudkit-recovery-failed":
            rule.producing(causeKinds)
        default: rule
        }
    }

    /// The kinds a failure can be reported as, by its cause.
    static let causeKinds: [EventKind] = {
        var seen = Set<EventKind>()
        return CloudKitCause.allCases.map(\.kind).filter { seen.insert($0).inserted }
    }()

    /// The request object (`<NSCloudKitMirroringExportRequest: 0x…> UUID`, or `<private>`).
    static let requestObject = #"(?:<(?<requestClass>[A-Za-z]+)(?::[ ][^>\n]*)?>|<private>)?[ ]?(?<requestID>[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})?"#
    /// `storeIdentifier: X success: N madeChanges: N error: `
    static let result = #"[^\n]*?(?:storeIdentifier:[ ](?<store>[^\s]+)[ ])?success:[ ](?<success>[01])[ ]madeChanges:[ ](?<madeChanges>[01])[ ]error:"#
    /// A store's URL, where the line names one.
    static let url = #"[^\n]*?(?:\(URL:[ ](?<url>[^)\n]+)\)|$)"#
}

/// Making events of the family: facts from the named groups, and for failures the errors in
/// the record and the kind of their cause.
enum CloudKitEvent {
    /// `NSCloudKitMirroringExportRequest` → `export`, `NSCloudKitMirroringDelegateSetupRequest` → `setup`.
    /// Read as bytes (the class name is `[A-Za-z]+`): String's prefix, suffix, count and
    /// `lowercased` walked it Character by Character, some 2,900 instructions a call (callgrind).
    static func requestType(_ className: String?) -> String? {
        guard var name = className else { return nil }
        return name.withUTF8 { requestType(UnsafeRawBufferPointer($0)) }
    }

    /// `requestType` of a class name as the record's bytes show it.
    static func requestType(_ className: RecordText) -> String? {
        className.withUnsafeBytes { requestType($0) }
    }

    private static func requestType(_ bytes: UnsafeRawBufferPointer) -> String? {
        func has(_ text: StaticString, at offset: Int) -> Bool {
            let count = text.utf8CodeUnitCount
            guard let base = bytes.baseAddress, offset >= 0, offset + count <= bytes.count else { return false }
            return memcmp(base + offset, text.utf8Start, count) == 0
        }
        guard has("NSCloudKitMirroring", at: 0) else { return nil }
        var start = 19
        var end = bytes.count
        if has("Delegate", at: start) { start += 8 }
        if end - start >= 7, has("Request", at: end - 7) { end -= 7 }
        guard start < end else { return nil }
        // Written straight into the String (a small one: `export`, `setup`), not through an
        // Array of its own, which was an allocation per request record.
        return String(unsafeUninitializedCapacity: end - start) { type in
            _ = type.initialize(from: bytes[start..<end])
            if type[0] >= UInt8(ascii: "A"), type[0] <= UInt8(ascii: "Z") { type[0] |= 0x20 }
            return end - start
        }
    }

    /// Groups whose text is a number.
    private static let numericGroups: Set<String> = ["objects", "token"]

    /// The facts the rule's groups hold, typed.
    /// `spare`: room for the fields the caller adds (see `RuleMatch.fields(numeric:skipping:leading:spare:)`).
    static func facts(_ match: RuleMatch, spare: Int = 0) -> FieldList {
        var fields = FieldList()
        // Made once here, not per call from a literal: a set's storage and two strings' hashes
        // for every record of the family.
        // Only a rule with one of those groups hands the set: for the others, hashing each
        // group's name to find it is not there cost some 350 instructions a CloudKit event.
        // (Names are told apart by their length first, throughout: a comparison of Strings
        // that differ is a call into the runtime, and these ran some 7,000 times on the
        // default mix's 3 MB slice, 23 instructions a record with `-q`, callgrind.)
        let numeric = match.orderedGroups.contains { group in
            let name = group.name
            return name.utf8.count == 7 && name == "objects" || name.utf8.count == 5 && name == "token"
        } ? numericGroups : []
        // The groups' fields are typed where they stand, in the one array `fields(numeric:)`
        // made: appended one by one to a second array, they cost its allocation and a retain
        // and release of each field.
        fields.items = match.fields(numeric: numeric, spare: spare)
        var index = 0
        while index < fields.items.count {
            let value = fields.items[index].value
            let name = fields.items[index].name
            switch name.utf8.count {
            case 12 where name == "requestClass":
                guard case .span(let text) = value, let type = requestType(text) else {
                    fields.items.remove(at: index)
                    continue
                }
                fields.items[index] = Field("requestType", .string(type))
            case 7 where name == "success", 11 where name == "madeChanges", 18 where name == "needsToVerifyTerms":
                fields.items[index].value = .bool(value.isText("1") || value.isText("true") || value.isText("YES"))
            default:
                break
            }
            index += 1
        }
        return fields
    }

    /// A rule whose event is its kind and its facts (`message`): the classifier leaves the
    /// facts out where no part of the run reads those of `kind` (`Rule.buildsFactsOnly`).
    /// Most of the family's records are debug lines whose facts `-q` and the default timeline
    /// never read: left out, 200 instructions a record fewer with `-q` and the default
    /// timeline on the default mix, 220 on ~420-byte records (`scripts/bench-instructions`).
    static func rule(_ id: String, _ channel: Channel, _ kind: EventKind, _ pattern: String,
                     position: RulePosition = .lineStart, methods: [String] = [], samples: [String]) -> Rule {
        Rule.factsOnly(id, channel, kind, pattern, position: position, methods: methods, samples: samples) { message(kind, $0) }
    }

    /// The rule's facts; a warning or error also carries the error its record prints.
    static func message(_ kind: EventKind, _ match: RuleMatch) -> Event {
        let withError = kind.severity >= .warning
        var fields = facts(match, spare: withError ? 1 : 0)
        if withError { fields.add(match.errorAfterMatch()) }
        return .message(kind, fields.items)
    }

    /// A record that ends a request or reports a failure: `ok` when it says success 1 and
    /// carries no error, else the kind of the cause its errors add up to (`failed` when none is
    /// known); `fixedKind`: always `failed`, the cause only in the facts.
    static func outcome(_ match: RuleMatch, ok: EventKind? = nil, failed: EventKind, stage: String, fixedKind: Bool = false) -> Event {
        // Room for the stage, the error, the report's fields (at most eight) and the cause's words.
        var fields = facts(match, spare: 11)
        // What finished or failed: set-up, an export, a request (its type is `requestType`), ….
        fields.add("stage", stage)
        let succeeded = match.group("success", is: "1")
        if succeeded == true, let ok { return .message(ok, fields.items) }
        let report = CloudKitErrors.report(in: match.messageBytes)
        fields.add(match.errorAfterMatch())
        fields.items += report.fields
        var kind = failed
        // A cause no more specific than "other" leaves the record its own kind (set-up failed,
        // an unknown partial error).
        if !fixedKind, let cause = report.cause, cause != .other { kind = cause.kind }
        if let cause = report.cause {
            // The cause in words, which the timeline and the findings show for the record.
            let records = Set(report.causeErrors.compactMap(\.record)).count
            let what = stage == "request" ? (match["requestClass"].flatMap(requestType) ?? stage) : stage
            let said = CloudKitTracker.sentence(cause, stage: what, Facts(fields.items))
            let label = CloudKitTracker.label(what, fixedKind ? kind : nil)
            fields.add("causeText", (said.hasPrefix(label) ? said : label + ": " + said) + (records > 1 ? " (\(records) records)" : ""))
        }
        return .message(kind, fields.items)
    }
}

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
            CloudKitEvent.rule("cloudkit-import-applied", .cloudKit, .cloudKitImportApplied, #"Finished importing changes for request:[ ]?"# + CloudKitRules.requestObject,
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

extension CloudKitRules {
    /// Lines of the CloudKit framework, `dasd`, `apsd` and the app's own error prints, which
    /// carry no `CoreData+CloudKit:` token: tried on the app's records, at the message start.
    enum FrameworkRules {
        /// Core Data's stderr level word, when the line starts with it.
        static let level = #"(?:CoreData:[ ](?:debug|annotation|info|warning|error|CloudKit):[ ])?"#

        static let all: [Rule] = [
            CloudKitEvent.rule("cloudkit-second-handler", .cloudKitFramework, .cloudKitSecondInstance,
                 #"BUG IN CLIENT OF CLOUDKIT: Registering a handler for a CKScheduler activity identifier that has already been registered"#,
                 samples: [CKSample.framework("BUG IN CLIENT OF CLOUDKIT: Registering a handler for a CKScheduler activity identifier that has already been registered (com.apple.coredata.cloudkit.activity.export.\(CKSample.store)).", subsystem: "[com.apple.cloudkit:Scheduler]")]
                ),
            CloudKitEvent.rule("cloudkit-account-terms", .cloudKitFramework, .cloudKitAccountUnavailable,
                 #"Can't return account credentials for account[^\n]*?(?<reason>needs to verify new terms|suspended mode)"#,
                 samples: [CKSample.framework("Can't return account credentials for account 5F1A2B3C because the account needs to verify new terms or is in suspended mode.", subsystem: "[com.apple.cloudkit:Account]")]
                ),
            CloudKitEvent.rule("cloudkit-container-without-app-id", .cloudKitFramework, .cloudKitContainerWithoutAppID,
                 #"Trying to initialize a container without an application ID"#,
                 samples: ["2025-01-08 16:40:12.771201+0100 RecipesTests[8812:1c0a3] Trying to initialize a container without an application ID"]
                ),
            CloudKitEvent.rule("cloudkit-daemon-unreachable", .cloudKitFramework, .cloudKitDaemonUnreachable,
                 #"Error retrieving daemon to get network transfer endpoint"#,
                 samples: [CKSample.framework("Error retrieving daemon to get network transfer endpoint: Error Domain=NSCocoaErrorDomain Code=4099 \"The connection to service named com.apple.cloudd was invalidated: failed at lookup with error 159 - Sandbox restriction.\"", process: "Recipes Mac", subsystem: "[com.apple.cloudkit:Daemon]")]
                ),
            CloudKitEvent.rule("cloudkit-framework-metadata-migration-skipped", .cloudKitFramework, .cloudKitMetadataMigrationSkipped,
                 level + #"Skipping migration for '(?<table>ANSCK\w+)'"#,
                 samples: ["CoreData: debug: Skipping migration for 'ANSCKRECORDMETADATA' because it already has a column named 'ZNEEDSCLOUDDELETE'"]
                ),
            CloudKitEvent.rule("cloudkit-framework-history-caught-up", .cloudKitFramework, .cloudKitHistoryCaughtUp,
                 level + #"Ignoring remote change notification because the exporter has already caught up"#,
                 samples: ["CoreData: debug: Ignoring remote change notification because the exporter has already caught up to this transaction: 112 / 112 - <NSSQLCore: 0x7fb4c8e0d3a0>"]
                ),
            CloudKitEvent.rule("cloudkit-framework-delegate-deallocated", .cloudKitFramework, .cloudKitDelegateDeallocated,
                 level + #"Unable to schedule work because the mirroring delegate was deallocated"#,
                 samples: ["CoreData: debug: Unable to schedule work because the mirroring delegate was deallocated."]
                ),
            CloudKitEvent.rule("cloudkit-push-delivered", .cloudKitFramework, .cloudKitPushDelivered,
                 #"(?:Received CKNotification:|Checking notification's user record ID|Running handler for notification)"#,
                 samples: [
                    CKSample.framework("Received CKNotification: <CKDatabaseNotification: 0x600000c5d5e0; notificationType=4, notificationID=<CKNotificationID: 0x600000c5d600; UUID=8A7B6C5D-4E3F-4A2B-9C1D-0E9F8A7B6C5D>, containerIdentifier=\(CKSample.container), subscriptionID=com.apple.coredata.cloudkit.private.subscription, databaseScope=Private> for \(CKSample.container)"),
                    CKSample.framework("Running handler for notification <CKDatabaseNotification: 0x600000c5d5e0>: {\n    aps =     {\n        \"content-available\" = 1;\n    };\n    ck =     {\n        ce = 2;\n        cid = \"\(CKSample.container)\";\n        met =         {\n            dbs = 1;\n            sid = \"com.apple.coredata.cloudkit.private.subscription\";\n        };\n        nid = \"8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d\";\n    };\n}"),
                    CKSample.framework("Checking notification's user record ID _4f1e2d3c4b5a69788796a5b4c3d2e1f0 against container user record ID for \(CKSample.container)"),
                 ]),
            CloudKitEvent.rule("cloudkit-push-payload", .cloudKitFramework, .cloudKitPushDelivered,
                 #"[^\n]{1,200}?[ ]received push with payload"#,
                 samples: [CKSample.framework("<CKContainer: 0x600003a0c000; containerID=<CKContainerID: 0x600000c3a2a0; containerIdentifier=\(CKSample.container), containerEnvironment=\"Production\">> received push with payload {\n    aps = { \"content-available\" = 1; };\n}")]
                ),
            CloudKitEvent.rule("cloudkit-push-apsd", .cloudKitFramework, .cloudKitPushDelivered,
                 #"[^\n]{1,200}?Received message[^\n]*? for enabled topic 'com\.apple\.icloud-container\.(?<bundle>[^']+)'"#,
                 samples: [CKSample.daemon("apsd", "[com.apple.apsd:connection]", "<APSCourier: 0x7b8c2e010>: Received message for enabled topic 'com.apple.icloud-container.com.example.recipes' onInterface: NonCellular with payload '{\"aps\":{\"content-available\":1},\"ck\":{\"ce\":2}}' with priority 5 for device token: NO isProxyMessage: NO")]
                ),
            Rule("cloudkit-activity-decision", .cloudKitFramework, .cloudKitActivityAllowed,
                 #"\d+:com\.apple\.coredata\.cloudkit\.activity\.(?<activity>\w+)\.(?<store>[0-9A-Fa-f-]+)(?:[\s\S]*?name:[ ](?<policy>[^,\n]+),[^\n]*\n?[^\n]*?Decision:[ ]Must Not Proceed)?[\s\S]*?FinalDecision:[ ](?<decision>Can Proceed|Must Not Proceed)"#,
                 samples: [
                    CKSample.daemon("dasd", "(DuetActivitySchedulerDaemon) [com.apple.duetactivityscheduler:Scoring]", "5712:com.apple.coredata.cloudkit.activity.export.\(CKSample.store):4A2F1B:[\n{name: Application Policy, policyWeight: 50.000, \nresponse: {Decision: Can Proceed, Score: 0.50}}\n] sumScores:82.500000, denominator:97.000000, \nFinalDecision: Can Proceed FinalScore: 0.850515}"),
                    CKSample.daemon("dasd", "(DuetActivitySchedulerDaemon) [com.apple.duetactivityscheduler:Scoring]", "5713:com.apple.coredata.cloudkit.activity.import.\(CKSample.store):7C3E2A:[\n{name: Activity Group Policy, policyWeight: 1.000, \nresponse: {Decision: Must Not Proceed, Score: 0.00, \nRationale: [{\"com.apple.coredata.cloudkit.import.\(CKSample.store)\".currentAvailableLimit == 0}]}\n}], FinalDecision: Must Not Proceed}"),
                    CKSample.daemon("dasd", "(DuetActivitySchedulerDaemon) [com.apple.duetactivityscheduler:Scoring]", "5790:com.apple.coredata.cloudkit.activity.export.\(CKSample.store):9D0E1F:[\n{name: ActivityRateLimitPolicy, policyWeight: 1.000, \nresponse: {Decision: Must Not Proceed, Score: 0.00, \nRationale: [{[ratelimited]: Required:1.00, Observed:0.00},]}}\n], FinalDecision: Must Not Proceed}"),
                 ]) { match in
                var kind = EventKind.cloudKitActivityAllowed
                if match["decision"] == "Must Not Proceed" {
                    kind = match["policy"] == "Activity Group Policy" ? .cloudKitActivityDeferred : .cloudKitActivityRateLimited
                }
                return CloudKitEvent.message(kind, match)
            },
            CloudKitEvent.rule("cloudkit-throttle-429", .cloudKitFramework, .cloudKitThrottled,
                 #"Operation throttled by previous server http (?<status>\d+) reply\. Retry after (?<retryAfter>[\d.]+) seconds"#,
                 samples: [CKSample.framework("Operation throttled by previous server http 429 reply. Retry after 5.1 seconds. (operation=C1D2E3F4A5B6C7D8)", subsystem: "[com.apple.cloudkit:OP]")]
                ),
            CloudKitEvent.rule("cloudkit-throttle-web", .cloudKitFramework, .cloudKitThrottled,
                 #"\{[\s\S]{0,400}?"serverErrorCode":[ ]*"THROTTLED""#,
                 samples: [CKSample.app("{\n    \"reason\": \"Database throttled, retry later\",\n    \"retryAfter\": 30,\n    \"serverErrorCode\": \"THROTTLED\",\n    \"uuid\": \"e4f5a6b7-c8d9-4e0f-a1b2-c3d4e5f6a7b8\"\n}")]
                ),
            CloudKitEvent.rule("cloudkit-throttle-user-info", .cloudKitFramework, .cloudKitThrottled,
                 #"\[[\s\S]{0,400}?"CKErrorShouldThrottleClient":[ ]*1(?:[\s\S]{0,400}?"CKRetryAfter":[ ]*(?<retryAfter>[\d.]+))?"#,
                 samples: [CKSample.app("[\n    \"CKErrorShouldThrottleClient\": 1, \n    \"RequestUUID\": 2C3D4E5F-6A7B-4C8D-9E0F-1A2B3C4D5E6F, \n    \"NSLocalizedDescription\": Request failed with http status code 503, \n    \"CKRetryAfter\": 34, \n    \"CKErrorDescription\": Request failed with http status code 503, \n    \"NSDebugDescription\": CKInternalErrorDomain: 2022, \n    \"NSUnderlyingError\": <CKError 0x600000c5e7f0: \"Server Rejected Request\" (15/2022); \"Request failed with http status code 503\">\n]")]
                ),
            CloudKitEvent.rule("cloudkit-console-entry", .cloudKitFramework, .cloudKitBadRequest,
                 #"error:(?<serverError>[A-Z_]+)\noperation:(?<operation>[^\n]*)(?:\ndatabase:(?<database>[^\n]*))?(?:\nzone:(?<zone>[^\n]*))?"#,
                 samples: [CKSample.app("error:BAD_REQUEST\noperation:RecordSave\ndatabase:PRIVATE\nzone:com.apple.coredata.cloudkit.zone\nitems:1\nserver latency:41ms\nrequest size:2.1KB\nresponse size:312B\nhardware:iPhone15,2\nrequestId:0a1b2c3d4e5f6a7b")]
                ),
            CloudKitEvent.rule("cloudkit-swiftdata-load-failed", .cloudKitFramework, .cloudKitSwiftDataLoadFailed,
                 #"[^\n]{0,300}?SwiftDataError\(_error: SwiftData\.SwiftDataError\._Error\.(?<swiftDataError>\w+)"#,
                 samples: [CKSample.app("Recipes/RecipesApp.swift:24: Fatal error: Could not create ModelContainer: SwiftDataError(_error: SwiftData.SwiftDataError._Error.loadIssueModelContainer, _explanation: nil)")]
                ),
            Rule("cloudkit-model-rule", .cloudKitFramework, .cloudKitModelAttributeRequired,
                 #"[^\n]{0,400}?CloudKit integration (?:requires does not|does not) support ordered relationships|[^\n]{0,400}?CloudKit integration requires that all (?:attributes be optional|relationships be optional)"#,
                 samples: [
                    CKSample.app("Unresolved error Error Domain=NSCocoaErrorDomain Code=134060 \"A Core Data error occurred.\" UserInfo={NSLocalizedFailureReason=CloudKit integration requires that all attributes be optional, or have a default value set. The following attributes are marked non-optional but do not have a default value:\nRecipe: title\nRecipe: createdAt}"),
                    CKSample.app("Store failed to load: CloudKit integration requires does not support ordered relationships. The following relationships are marked ordered:\nCookbook: recipes"),
                    CKSample.app("Error: CloudKit integration requires that all relationships be optional, the following are not:\nStep: recipe"),
                 ]) { match in
                let text = match.message
                let kind: EventKind = text.firstRange(ofASCII: "ordered relationships") != nil ? .cloudKitModelOrderedRelationship
                    : text.firstRange(ofASCII: "all relationships be optional") != nil ? .cloudKitModelRelationshipRequired : .cloudKitModelAttributeRequired
                var fields = FieldList()
                fields.add(match.error())
                return .message(kind, fields.items + CloudKitEvent.modelFacts(text))
            },
            Rule("cloudkit-mirroring-error-text", .cloudKitFramework, .cloudKitCoreDataError,
                 #"[^\n]{0,300}?Error Domain=NSCocoaErrorDomain Code=(?<code>134(?:060(?=[\s\S]*?(?:CloudKit|zones))|301|400|406|410|417))\b"#,
                 samples: [
                    CKSample.app("Error Domain=NSCocoaErrorDomain Code=134400 \"Unable to initialize without an iCloud account (CKAccountStatusNoAccount).\" UserInfo={NSLocalizedFailureReason=Unable to initialize without an iCloud account (CKAccountStatusNoAccount).}"),
                    CKSample.app("Sync event failed: Error Domain=NSCocoaErrorDomain Code=134060 \"A Core Data error occurred.\" UserInfo={NSLocalizedFailureReason=Objects related to 'Recipe' are assigned to multiple zones: {<CKRecordZoneID: 0x600000c0c0e0; zoneName=com.apple.coredata.cloudkit.zone, ownerName=__defaultOwner__>, <CKRecordZoneID: 0x600000c0c100; zoneName=com.apple.coredata.cloudkit.share.3F2E, ownerName=_a1b2c3>}}"),
                    CKSample.app("Error Domain=NSCocoaErrorDomain Code=134301 \"(null)\" UserInfo={NSLocalizedFailureReason=The history token is expired (NSPersistentHistoryTokenExpiredError).}"),
                 ]) { match in
                let report = CloudKitErrors.report(in: match.messageBytes)
                var fields = CloudKitEvent.facts(match)
                fields.add(match.error())
                fields.items += report.fields
                let kind = match.int("code") == 134060 && report.cause == nil ? .cloudKitCoreDataError : (report.cause?.kind ?? .cloudKitCoreDataError)
                return .message(kind, fields.items)
            },
            Rule("cloudkit-ckerror-text", .cloudKitFramework, .cloudKitPartialFailureHidden,
                 #"[^\n]{0,300}?(?:\(CKErrorDomain error (?<code>\d+)\.\)|Error Domain=CKErrorDomain Code=(?<code>\d+)|<CKError[ ]0x[0-9A-Fa-f]+:[ ]\\?")"#,
                 samples: [
                    CKSample.app("Export event failed: The operation couldn’t be completed. (CKErrorDomain error 2.)"),
                    CKSample.app("CloudKit event error: Error Domain=CKErrorDomain Code=2 \"(null)\""),
                    CKSample.app("<CKError 0x600000c5f0a0: \"Quota Exceeded\" (25/2035); server message = \"Quota exceeded\"; op = 3E4F5A6B7C8D9E0F; uuid = 7A8B9C0D-1E2F-4A3B-8C4D-5E6F7A8B9C0D; Retry after 342.0 seconds>"),
                 ]) { match in
                let report = CloudKitErrors.report(in: match.messageBytes)
                var fields = CloudKitEvent.facts(match)
                fields.add(match.error())
                fields.items += report.fields
                var kind = EventKind.cloudKitPartialFailureHidden
                if report.cause != .other || report.errors.first?.code != 2, let cause = report.cause { kind = cause.kind }
                return .message(kind, fields.items)
            },
            CloudKitEvent.rule("cloudkit-objects-in-several-zones", .cloudKitFramework, .cloudKitObjectsInSeveralZones,
                 #"[^\n]{0,300}?Objects related to '(?<entity>[^'\n]+)' are assigned to multiple zones"#,
                 samples: [CKSample.app("Share failed: Objects related to 'Recipe' are assigned to multiple zones: {<CKRecordZoneID: 0x600000c0c0e0; zoneName=com.apple.coredata.cloudkit.zone, ownerName=__defaultOwner__>, <CKRecordZoneID: 0x600000c0c100; zoneName=com.apple.coredata.cloudkit.share.3F2E, ownerName=_a1b2c3>}")]
                ),
            CloudKitEvent.rule("cloudkit-user-deleted-zone", .cloudKitFramework, .cloudKitZoneMissing,
                 #"User Deleted Zone: the user has deleted this zone"#,
                 samples: [CKSample.app("User Deleted Zone: the user has deleted this zone from the settings UI.CKError.Code: 28")]
                ),
        ]
    }
}

extension CloudKitEvent {
    /// `Entity: attribute` lines after a model rule's text.
    static func modelFacts(_ text: String) -> [Field] {
        var text = text
        if case .some(let named) = text.withUTF8({ asciiModelLines($0) }) {
            var fields = FieldList()
            if !named.isEmpty { fields.add("properties", .list(named)) }
            return fields.items
        }
        return modelFactsByCharacters(text)
    }

    /// `modelFacts` read on Characters: any text.
    static func modelFactsByCharacters(_ text: String) -> [Field] {
        var fields = FieldList()
        let lines = text.split(separator: "\n").dropFirst().map { $0.trimmingCharacters(in: " \t}") }
        let named = lines.filter { $0.contains(": ") && !$0.contains(" ") || $0.split(separator: " ").count == 2 && $0.contains(": ") }
        if !named.isEmpty { fields.add("properties", .list(named.prefix(50).map { .string($0) })) }
        return fields.items
    }

    /// `modelFacts`' lines of a text of ASCII without carriage returns, where each byte is a
    /// Character, read on its bytes: the lines after the first (empty ones left out), trimmed
    /// of blanks and `}`, that are two words (runs without a blank) and hold `: `; at most 50.
    /// `.none` for another text, which the Characters read. Splitting and trimming the String
    /// and splitting each line again cost some 130,000 instructions a model error (most of
    /// its message is the error's user info), 53 a record with `-q` on the default mix
    /// (callgrind).
    private static func asciiModelLines(_ bytes: UnsafeBufferPointer<UInt8>) -> [FieldValue]? {
        guard ByteText.isASCII(bytes), !bytes.contains(0x0D) else { return nil }
        var named: [FieldValue] = []
        var start = 0
        var isFirst = true
        while start < bytes.count, named.count < 50 {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            defer { start = end + 1 }
            guard end > start else { continue }  // `split` leaves empty lines out
            if isFirst {
                isFirst = false
                continue
            }
            func isTrimmed(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: "}") }
            var lower = start
            var upper = end
            while lower < upper, isTrimmed(bytes[lower]) { lower += 1 }
            while upper > lower, isTrimmed(bytes[upper - 1]) { upper -= 1 }
            var words = 0
            var hasColonBlank = false
            var index = lower
            while index < upper {
                if bytes[index] != 0x20, index == lower || bytes[index - 1] == 0x20 { words += 1 }
                if bytes[index] == UInt8(ascii: ":"), index + 1 < upper, bytes[index + 1] == 0x20 { hasColonBlank = true }
                index += 1
            }
            if words == 2, hasColonBlank {
                named.append(.string(String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self)))
            }
        }
        return named
    }
}
