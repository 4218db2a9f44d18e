// The rules for the lines around the mirroring records: CloudKit's framework, its daemons
// and the app's own error prints.

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
                 // The activity's number and quotes are left out by some copies (TN3163 prints it bare).
                 #"['"]?(?:\d+:)?com\.apple\.coredata\.cloudkit\.activity\.(?<activity>\w+)\.(?<store>[0-9A-Fa-f-]+)(?:[\s\S]*?name:[ ](?<policy>[^,\n]+),[^{}]*\{Decision:[ ]Must Not Proceed)?[\s\S]*?FinalDecision:[ ](?<decision>Can Proceed|Must Not Proceed)"#,
                 samples: [
                    CKSample.daemon("dasd", "(DuetActivitySchedulerDaemon) [com.apple.duetactivityscheduler:Scoring]", "5712:com.apple.coredata.cloudkit.activity.export.\(CKSample.store):4A2F1B:[\n{name: Application Policy, policyWeight: 50.000, \nresponse: {Decision: Can Proceed, Score: 0.50}}\n] sumScores:82.500000, denominator:97.000000, \nFinalDecision: Can Proceed FinalScore: 0.850515}"),
                    CKSample.daemon("dasd", "(DuetActivitySchedulerDaemon) [com.apple.duetactivityscheduler:Scoring]", "5713:com.apple.coredata.cloudkit.activity.import.\(CKSample.store):7C3E2A:[\n{name: Activity Group Policy, policyWeight: 1.000, \nresponse: {Decision: Must Not Proceed, Score: 0.00, \nRationale: [{\"com.apple.coredata.cloudkit.import.\(CKSample.store)\".currentAvailableLimit == 0}]}\n}], FinalDecision: Must Not Proceed}"),
                    "default\t14:26:01.000112-0700\tdasd\t'com.apple.coredata.cloudkit.activity.export.\(CKSample.store)':[\n\t{name: Low Power Mode Policy, policyWeight: 5.000, response: {Decision: Must Not Proceed, Score: 0.00}}\n ], FinalDecision: Must Not Proceed}",
                    CKSample.daemon("dasd", "(DuetActivitySchedulerDaemon) [com.apple.duetactivityscheduler:Scoring]", "5790:com.apple.coredata.cloudkit.activity.export.\(CKSample.store):9D0E1F:[\n{name: ActivityRateLimitPolicy, policyWeight: 1.000, \nresponse: {Decision: Must Not Proceed, Score: 0.00, \nRationale: [{[ratelimited]: Required:1.00, Observed:0.00},]}}\n], FinalDecision: Must Not Proceed}"),
                 ]) { match in
                guard match["decision"] == "Must Not Proceed" else { return CloudKitEvent.message(.cloudKitActivityAllowed, match) }
                let policy = match["policy"]
                let kind: EventKind = policy == "Activity Group Policy" ? .cloudKitActivityDeferred : .cloudKitActivityRateLimited
                // A scheduling fact, told as waiting: the activity runs once the policy allows it.
                var fields = CloudKitEvent.facts(match, spare: 1)
                let activity = match["activity"].map { "the \($0) activity" } ?? "a sync activity"
                fields.add("causeText", "waiting: the system deferred \(activity)" + (policy.map { " (\($0))" } ?? "") + ", it runs once that allows it")
                return .message(kind, fields.items)
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
            // SwiftData's failure to load its container (`cloudkit-swiftdata-load-failed`) is
            // read on every line of the app's records: StoreLoadFailureRules.swift.
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
                 // An NSPersistentCloudKitContainer event's error as the app prints it: code 2 and
                 // nothing more (its entries are in the mirroring records). Other CKErrors outside
                 // the mirroring records are the `ckerror` family's.
                 #"[^\n]{0,300}?\b[Ee]vent\b[^\n]{0,200}?(?:\(CKErrorDomain error (?<code>2)\.\)|Error Domain=CKErrorDomain Code=(?<code>2)\b)"#,
                 samples: [
                    CKSample.app("Export event failed: The operation couldn’t be completed. (CKErrorDomain error 2.)"),
                    CKSample.app("CloudKit event error: Error Domain=CKErrorDomain Code=2 \"(null)\""),
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
        ]
    }
}
