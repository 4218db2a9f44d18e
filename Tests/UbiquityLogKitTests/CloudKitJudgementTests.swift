import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

/// Each CKError judged by its code and internal code, the verdict held to the findings, and
/// the summary naming what the log names (issue #42, items 1, 3 and 6).
extension EventKind {
    /// A warning of the sample family (TestFamilyTests) that its tracker does not read.
    static let sampleBatchSlow = EventKind("sample-batch-slow", .export, .warning, .notable, "A batch was slow.", family: .sampleSync)
}

@Suite struct CloudKitJudgementTests {
    static let setUp = CKSample.xcodeTimed("CloudKit", "-[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke", 1242,
                                           "\(CKSample.delegate): Successfully set up CloudKit integration for store (\(CKSample.store)): <NSSQLCore: 0x10380a2c0> (URL: \(CKSample.storeURL))")

    /// A request of `type` that ends with `error` (success 0), or with none (success 1).
    static func finished(_ type: String = "Export", id: String = CKSample.request, error: String?) -> String {
        CKSample.logShow("-[NSCloudKitMirroringDelegate _finishedRequest:withResult:]", 3584,
                         "Finished request: <NSCloudKitMirroring\(type)Request: 0x600002a2c0f0> \(id) with result: <NSCloudKitMirroringResult: 0x600000c2b480> storeIdentifier: \(CKSample.store) success: \(error == nil ? 1 : 0) madeChanges: 0 error: \(error ?? "(null)")")
    }

    static func run(_ lines: [String]) throws -> RunSummary {
        try summarize([("ck.log", lines.joined(separator: "\n") + "\n")])
    }

    // MARK: Item 3: the cause from the code and the internal code

    @Test func serviceUnavailableIsAThrottleOnlyFromTheServer() {
        func cause(_ text: String) -> CloudKitCause? { CloudKitErrors.report(in: text).cause }
        expectEqual(cause(#"<CKError 0x1: "Service Unavailable" (6/2022); "Request failed with http status code 503"; Retry after 30.0 seconds>"#), .throttled)
        expectEqual(cause(#"<CKError 0x1: "Service Unavailable" (6)>"#), .throttled)
        // The XPC connection to cloudd failed: the process never reached the daemon.
        let daemon = #"<CKError 0x1: "Service Unavailable" (6/NSCocoaErrorDomain:4099); "Error connecting to CloudKit daemon.">"#
        expectEqual(cause(daemon), .daemonUnreachable)
        expectEqual(CloudKitErrors.report(in: daemon).errors.first?.internalDomain, "NSCocoaErrorDomain")
        expectEqual(CloudKitErrors.report(in: daemon).errors.first?.internalCode, 4099)
        expectEqual(cause(#"<CKError 0x1: "Service Unavailable" (6/4097); "The connection to service named com.apple.cloudd was interrupted">"#), .daemonUnreachable)
        expectEqual(CloudKitCause.daemonUnreachable.impact, .broken)
        expectEqual(CloudKitCause.throttled.impact, .transient)
    }

    @Test func eachCodeHasItsCause() {
        func cause(_ text: String) -> CloudKitCause? { CloudKitErrors.report(in: text).cause }
        expectEqual(cause(#"<CKError 0x1: "Change Token Expired" (21/2026); "client knowledge differs from server knowledge">"#), .changeTokenExpired)
        expectEqual(cause(#"<CKError 0x1: "Network Failure" (4/-1005); "The network connection was lost.">"#), .network)
        expectEqual(cause(#"<CKError 0x1: "Network Unavailable" (3); "The Internet connection appears to be offline.">"#), .network)
        expectEqual(cause(#"<CKError 0x1: "Bad Container" (5/1014); "Couldn't get container configuration from the server for container \"iCloud.x\"">"#), .badContainer)
        expectEqual(cause(#"<CKError 0x1: "Permission Failure" (10/2007); "Invalid bundle ID">"#), .containerNotLinked)
        expectEqual(cause(#"<CKError 0x1: "Permission Failure" (10/2011); "no write access">"#), .permissionFailure)
        expectEqual(cause(#"<CKError 0x1: "Not Authenticated" (9/1002); "CloudKit access was denied by user settings">"#), .notAuthenticated)
        expectEqual(cause(#"<CKError 0x1: "Not Authenticated" (9); "Please accept new terms">"#), .accountTerms)
        expectEqual(cause(#"<CKError 0x1: "Missing Entitlement" (8)>"#), .missingEntitlement)
        expectEqual(cause(#"<CKError 0x1: "User Deleted Zone" (28/2042); "User purged zone">"#), .userDeletedZone)
        expectEqual(cause(#"<CKError 0x1: "Server Record Changed" (14/2004); server message = "record to insert already exists">"#), .conflict)
        expectEqual(cause(#"<CKError 0x1: "Limit Exceeded" (27/2023); server message = "record too large">"#), .recordTooLarge)
        expectEqual(cause(#"<CKError 0x1: "Quota Exceeded" (25/2035)>"#), .quotaExceeded)
        expectEqual(cause(#"<CKError 0x1: "Internal Error" (1/4000); "Couldn't get an authentication token">"#), .signingFailure)
        expectEqual(cause(#"<CKError 0x1: "Internal Error" (1/1000)>"#), .other)
        expectEqual(cause(#"<CKError 0x1: "Request Rate Limited" (7/2008)>"#), .throttled)
        expectEqual(cause(#"<CKError 0x1: "Operation Cancelled" (20/1)>"#), .operationCancelled)
        // A change token is CloudKit's, never Core Data's persistent-history token.
        expectEqual(CloudKitCause.changeTokenExpired.kind, .cloudKitChangeTokenExpired)
        expect(CloudKitCause.changeTokenExpired != .historyExpired)
    }

    @Test func aBatchOfEntriesIsJudgedByItsOtherEntries() {
        let text = #"<CKError 0x1: "Partial Failure" (2/1011); "Failed to modify some records"; partial errors: { R1:(z:o) = <CKError 0x2: "Batch Request Failed" (22/2024); "Record CKRecordID=R1 could not be saved because another record in its batch failed">; R2:(z:o) = <CKError 0x3: "Limit Exceeded" (27/2023); server message = "record too large">; ... 9 "Batch Request Failed" CKError's omited ... }>"#
        let report = CloudKitErrors.report(in: text)
        expectEqual(report.cause, .recordTooLarge)
        expectEqual(report.omittedBatchErrors, 9)
        expectEqual(report.causeErrors.map(\.record), ["R2"])
    }

    /// The record's words name the batch beside the cause: the entries printed as Batch
    /// Request Failed and those CloudKit left out, once each; a request whose class is
    /// redacted is named once.
    @Test func theBatchIsNamedBesideTheCause() throws {
        let error = #"<CKError 0x1: "Partial Failure" (2/1011); "Failed to modify some records"; partial errors: { R1:(z:o) = <CKError 0x2: "Batch Request Failed" (22/2024); "another record in its batch failed">; R2:(z:o) = <CKError 0x3: "Limit Exceeded" (27/2023); server message = "record too large">; ... 9 "Batch Request Failed" CKError's omited ... }>"#
        let line = CKSample.sysdiagnose("-[NSCloudKitMirroringDelegate _finishedRequest:withResult:]", 3584,
                                        "Finished request: <private> with result: <private> storeIdentifier: <private> success: 0 madeChanges: 0 error: \(error)")
        let event = try require(classify(line).first).classification.event
        let text = try require(event.fields.first { $0.name == "causeText" }?.value.text)
        expectEqual(text, "request failed: a record is over CloudKit's 1 MB limit (Limit Exceeded 27/2023); 10 more failed only with their batch (Batch Request Failed)")
    }

    /// `parselogs explain` has every CKError code 1 to 36, and the internal codes the issue
    /// names are in their entries.
    @Test func explainCoversEveryCKErrorCode() throws {
        for code in 1...36 {
            let entry = try require(ErrorCode.named(domain: "CKErrorDomain", code: code), "CKError \(code)")
            expect(!entry.action.isEmpty)
        }
        func meaning(_ code: Int) -> String { ErrorCode.named(domain: "CKErrorDomain", code: code)?.meaning ?? "" }
        expect(meaning(6).contains("2022") && meaning(6).contains("4099"))
        expect(meaning(5).contains("1014") && meaning(10).contains("2007") && meaning(9).contains("1004"))
        expect(meaning(21).contains("134301"), "21 tells itself apart from Core Data's history token")
        let six = try require(ErrorCode.named(domain: "CKErrorDomain", code: 6))
        expect(six.action.contains("wait") && six.action.contains("waiting does not help"))
        expect(ErrorCode.named(domain: "NSCocoaErrorDomain", code: 4099) != nil)
    }

    /// 134060 is Core Data's catch-all: its hint comes from the failure reason inside it.
    @Test func theCatchAllsHintComesFromItsReason() throws {
        func hint(_ reason: String) throws -> String {
            let line = CKSample.app("Sync event failed: Error Domain=NSCocoaErrorDomain Code=134060 \"A Core Data error occurred.\" UserInfo={NSLocalizedFailureReason=\(reason)}")
            let event = try require(classify(line).first).classification.event
            return try require(Explanation.hint(for: event)).text
        }
        let zones = try hint("Objects related to 'Recipe' are assigned to multiple zones: {<CKRecordZoneID: 0x1; zoneName=a, ownerName=b>}")
        expect(zones.contains("one zone"), "\(zones)")
        let model = try hint("CloudKit integration requires that all attributes be optional, or have a default value set. The following attributes are marked non-optional but do not have a default value:\nPantry: name")
        expect(model.contains("mirrorable"), "\(model)")
        for text in [zones, model] { expect(!text.contains("often the store was removed")) }
        let other = try require(ErrorCode.named(domain: "NSCocoaErrorDomain", code: 134060))
        expect(!other.action.contains("often the store was removed"))
        expect(other.action.contains("NSLocalizedFailureReason"))
    }

    // MARK: Item 1: verdicts follow findings

    /// Each failure the issue found ending `healthy`, as a mirroring record: never healthy.
    static let failures: [(String, Verdict)] = [
        (#"<CKError 0x1: "Zone Not Found" (26/2036); server message = "Zone 'com.apple.coredata.cloudkit.zone' does not exist">"#, .degraded),
        (#"<CKError 0x1: "User Deleted Zone" (28/2042); server message = "User purged zone">"#, .degraded),
        (#"<CKError 0x1: "Limit Exceeded" (27/1020); "Your request contains more than the maximum number of items in a single request (400)">"#, .broken),
        (#"<CKError 0x1: "Server Rejected Request" (15/2032); server message = "subscription is duplicate of 'com.apple.coredata.cloudkit.private.subscription'">"#, .degraded),
        (#"<CKError 0x1: "Network Failure" (4/-1005); "The network connection was lost.">"#, .degraded),
        (#"<CKError 0x1: "Bad Container" (5/1014); "Couldn't get container configuration from the server">"#, .broken),
        (#"<CKError 0x1: "Change Token Expired" (21/2026); "client knowledge differs from server knowledge">"#, .degraded),
        (#"<CKError 0x1: "Partial Failure" (2/1011); "Failed to modify some records"; partial errors: { R1:(z:o) = <CKError 0x2: "Server Record Changed" (14/2004); server message = "record to insert already exists">; ... 4 "Batch Request Failed" CKError's omited ... }>"#, .degraded),
        (#"<CKError 0x1: "Service Unavailable" (6/NSCocoaErrorDomain:4099); "Error connecting to CloudKit daemon.">"#, .broken),
    ]

    @Test(arguments: failures)
    func aFailureIsNeverHealthy(error: String, expected: Verdict) throws {
        let summary = try Self.run([Self.setUp, Self.finished(error: error)])
        expectEqual(summary.verdict, expected, "\(summary.verdicts)")
    }

    /// A failure a success then overcame has still happened: a problem that recovered.
    @Test func aRecoveredNetworkFailureIsDegraded() throws {
        let summary = try Self.run([Self.setUp, Self.finished(error: #"<CKError 0x1: "Network Failure" (4); "The network connection was lost.">"#),
                                    Self.finished(id: CKSample.otherRequest, error: nil)])
        expectEqual(summary.verdict, .degraded)
        expectEqual(summary.verdicts.first?.evidence.first?.contains("cloudkit-network-unavailable"), true)
    }

    /// The app's print of a failure had a cause and counted for nothing: now it is judged.
    @Test func objectsInSeveralZonesAreNotHealthy() throws {
        let line = CKSample.app("Share failed: Objects related to 'Recipe' are assigned to multiple zones: {<CKRecordZoneID: 0x600000c0c0e0; zoneName=com.apple.coredata.cloudkit.zone, ownerName=__defaultOwner__>}")
        let summary = try Self.run([Self.setUp, line])
        expectEqual(summary.verdict, .degraded)
    }

    @Test func aThrottleIsBenignOnlyWhenItClears() throws {
        let throttled = Self.finished(error: #"<CKError 0x1: "Service Unavailable" (6/2022); "Request failed with http status code 503"; Retry after 30.0 seconds>"#)
        try expectEqual(Self.run([Self.setUp, throttled]).verdict, .degraded)
        try expectEqual(Self.run([Self.setUp, throttled, Self.finished(id: CKSample.otherRequest, error: nil)]).verdict, .healthy)
    }

    /// 134417 is never a failure on its own, whether a later request succeeds or not.
    @Test func aRequestDroppedForAPendingOneIsBenign() throws {
        let dropped = Self.finished(error: "Error Domain=NSCocoaErrorDomain Code=134417 \"Request '<NSCloudKitMirroringExportRequest: 0x600002a2c0f0> \(CKSample.request)' was cancelled because there is already a pending request of type 'NSCloudKitMirroringExportRequest'.\"")
        let summary = try Self.run([Self.setUp, dropped])
        expectEqual(summary.verdict, .healthy, "\(summary.verdicts)")
        expectEqual(summary.cloudKit?.requests.first?.cancelled, 1)
        expectEqual(summary.cloudKit?.requests.first?.failed, 0)
    }

    /// An operation the container cancelled (CKError 20) is never a failure on its own either,
    /// named or not, with no later request (docs/verdicts.md); it was `degraded` when no later
    /// request of its kind succeeded.
    @Test func anOperationTheContainerCancelledIsBenign() throws {
        let cancelled = #"<CKError 0x3016c4a80: "Operation Cancelled" (20/1001); uuid = 6E1C0B2A-7D44-4F0E-9A55-3C1B8E2D9F70>"#
        let named = try Self.run([Self.setUp, Self.finished(error: cancelled)])
        expectEqual(named.verdict, .healthy, "\(named.verdicts)")
        expectEqual(named.cloudKit?.requests.first?.cancelled, 1)
        let prefix = "2024-11-02 21:12:41.870233-0700 0x9a41     Default     0x0                  611    0    Notes Plus: (CoreData) [com.apple.coredata:CloudKit] CoreData+CloudKit: "
        let unnamed = try Self.run([
            prefix + "-[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1242): <private>: Successfully set up CloudKit integration for store (<private>): <private>",
            prefix + "-[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke(3579): <private>: Executing: <private>",
            prefix.replacingOccurrences(of: "Default", with: "Error  ") + "-[NSCloudKitMirroringDelegate _finishedRequest:withResult:](3584): Finished request: <private> with result: <private> storeIdentifier: <private> success: 0 madeChanges: 0 error: " + cancelled,
        ])
        expectEqual(unnamed.verdict, .healthy, "\(unnamed.verdicts)")
        expectEqual(unnamed.cloudKit?.requests.first?.cancelled, 1)
    }

    /// A record no rule knows, written at error or fault level, keeps its process from
    /// `healthy`, cited; at the default level it is weighed by the unknown check alone. An
    /// importer's failure in an unknown wording was `healthy` (with a CKError it prints, it is
    /// read for the error: `CKErrorFamilyTests`).
    @Test func anUnknownRecordAtErrorLevelIsNotHealthy() throws {
        let prefix = "2025-05-19 19:41:08.001000-0400 0x1a2b     Default     0x0                  905    0    Recipes: (CoreData) [com.apple.coredata:CloudKit] CoreData+CloudKit: "
        let setUp = prefix + "-[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1242): <private>: Successfully set up CloudKit integration for store (<private>): <private>"
        let queue = prefix + "-[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke(3579): <private>: No more requests to execute."
        let unknown = "-[PFCloudKitImporter _importFinishedWithResult:importer:](1280): <PFCloudKitImporter: 0x600000c3d2a0>: Import failed with error: <private>"
        for (level, verdict) in [("Error  ", Verdict.degraded), ("Fault  ", .degraded), ("Default", .healthy)] {
            let summary = try Self.run([setUp, queue, prefix.replacingOccurrences(of: "Default", with: level) + unknown])
            expectEqual(summary.unhandled, 1)
            expectEqual(summary.verdict, verdict, "\(level): \(summary.verdicts)")
            if verdict == .degraded { expect(summary.verdicts.first?.evidence.first?.contains("ck.log:3 unhandled:") == true, "\(summary.verdicts)") }
        }
    }

    /// Xcode's console has no header: a record's level is then the word Core Data prints
    /// before the marker (`CoreData: error:`, `CoreData: fault:`, the os_log copy's `error:`),
    /// and no other word is.
    static let idle = "CoreData: CloudKit: CoreData+CloudKit: -[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke(3569): <NSCloudKitMirroringDelegate: 0x6000>: No more requests to execute."

    @Test func anUnknownRecordWithXcodesErrorWordIsNotHealthy() throws {
        let setUp = "CoreData: CloudKit: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1242): <NSCloudKitMirroringDelegate: 0x6000>: Successfully set up CloudKit integration for store (8B2E): <NSSQLCore: 0x1045> (URL: file:///Users/dev/Recipes.sqlite)"
        let unknown = "CoreData+CloudKit: -[NSCloudKitMirroringDelegate aMethodOfTomorrow:](12): <NSCloudKitMirroringDelegate: 0x6000>: A message no rule knows yet: ("
        let cases: [(String, Verdict)] = [
            ("CoreData: error: ", .degraded), ("CoreData: fault: ", .degraded), ("error: ", .degraded), ("fault: ", .degraded),
            ("CoreData: debug: ", .healthy), ("CoreData: CloudKit: ", .healthy), ("", .healthy),
        ]
        for (word, verdict) in cases {
            let summary = try Self.run([setUp, Self.idle, Self.idle, word + unknown,
                                        "    \"<CKRecordZoneID: 0x6000; zoneName=com.apple.coredata.cloudkit.zone>\"", ")"])
            expectEqual(summary.unhandled, 1, word)
            expectEqual(summary.verdict, verdict, "\(word): \(summary.verdicts)")
            if verdict == .degraded { expect(summary.verdicts.first?.evidence.first?.contains("ck.log:4 unhandled:") == true, "\(summary.verdicts)") }
        }
        // The word belongs to Core Data only before its marker.
        for prefix in ["CoreData: error: CoreData+CloudKit: -[A b](1): ", "error: CoreData+CloudKit: ", "\terror: CoreData+CloudKit: "] {
            expect(Array(prefix.utf8).withUnsafeBytes { SummaryBuilder.hasLevelWord($0) }, prefix)
        }
        for prefix in ["Sync error: the app's own", "error:CoreData+CloudKit: ", "CoreData: debug: CoreData+CloudKit: ", "xerror: CoreData+CloudKit: "] {
            expect(!Array(prefix.utf8).withUnsafeBytes { SummaryBuilder.hasLevelWord($0) }, prefix)
        }
    }

    /// A line without a header belongs to the process of the last record of its marker's
    /// family: Core Data's record after a daemon's line is the app's, not the daemon's (where
    /// it was not judged, and the run was `healthy`), with `--process` too.
    @Test func aHeaderlessCoreDataRecordAfterADaemonsLineIsTheApps() throws {
        let lines = [
            "2025-05-19 19:41:02.114902-0400 0x1a2b     Default     0x0                  905    0    Recipes: (CoreData) [com.apple.coredata:CloudKit] CoreData+CloudKit: -[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1242): <NSCloudKitMirroringDelegate: 0x6000>: Successfully set up CloudKit integration for store (3E5A): <NSSQLCore: 0x7f8c> (URL: file:///Users/dev/Recipes.sqlite)",
            #"2025-05-19 19:41:05.201000-0400 0x3c4d     Error       0x0                  311    0    cloudd: (CloudKitDaemon) [com.apple.cloudkit:Operation] Operation <CKDModifyRecordsOperation: 0x7fd8> failed with error <CKError 0x6000: "Service Unavailable" (6/2022); "Request failed with http status code 503"; Retry after 30.0 seconds>"#,
            #"CoreData: error: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _finishedRequest:withResult:](3584): Finished request: <NSCloudKitMirroringExportRequest: 0x6000> 8E0A with result: <NSCloudKitMirroringResult: 0x6000> storeIdentifier: 3E5A success: 0 madeChanges: 0 error: <CKError 0x6000: "Partial Failure" (2/1011); "Failed to modify some records"; partial errors: {"#,
            "\t" + #"PHOTO-77A1:(com.apple.coredata.cloudkit.zone:__defaultOwner__) = <CKError 0x6001: "Quota Exceeded" (25/2035); server message = "Quota exceeded">"#,
            "}>",
        ]
        let summary = try Self.run(lines)
        expectEqual(summary.verdict, .degraded, "\(summary.verdicts)")
        let app = try require(summary.verdicts.first?.processes.first { $0.process == "Recipes" })
        expectEqual(app.verdict, .degraded, "\(summary.verdicts)")
        expect(app.evidence.contains { $0.contains("ck.log:3 cloudkit-quota-exceeded") }, "\(app.evidence)")
        let run = LogRun(catalog: try Catalog.standard(), reporters: [])
        run.processes = ["Recipes"]
        var source = MemorySource(lines.joined(separator: "\n") + "\n")
        try run.process(&source, name: "ck.log")
        let selected = run.finish()
        expectEqual(selected.verdict, .degraded, "\(selected.verdicts)")
        expectEqual(selected.otherProcesses, 1)
    }

    /// Whatever a family's tracker concludes, a warning the benign list does not excuse keeps
    /// the process from `healthy`: the summary's own check, cited with its line.
    @Test func theSummaryHoldsEveryFamilyToTheList() throws {
        // The sample family's tracker calls every process healthy and ignores this kind.
        var builder = SummaryBuilder(families: [.sampleSync])
        builder.beginInput("t.log")
        for record in try assemble("2014-03-02 09:14:05.121 Journal[412:60b] MyCoreData: Sync: Slow batch\n", input: "t.log") {
            builder.add(record, .message(.sampleBatchSlow, []), message: "a batch was slow")
        }
        let summary = builder.summary
        expectEqual(summary.verdict, .degraded)
        expectEqual(summary.verdicts.first?.evidence, ["t.log:1 sample-batch-slow: a batch was slow"])
    }

    @Test func theListNamesItsReasons() {
        expect(BenignFindings.all.count >= 7)
        for entry in BenignFindings.all {
            expect(!entry.reason.isEmpty && !entry.what.isEmpty)
            expectEqual(BenignFindings.entry(for: entry.kind)?.what, entry.what)
        }
        expect(BenignFindings.entry(for: .cloudKitNetworkUnavailable) == nil)
        expectEqual(BenignFindings.entry(for: .cloudKitThrottled)?.condition, .cleared)
    }

    // MARK: Item 6: the summary names what the log names

    @Test func causesNameTheirCKErrorHTTPStatusAndRetryAfter() throws {
        let quota = Self.finished(error: CKSample.partialFailure("\tP1:(com.apple.coredata.cloudkit.zone:__defaultOwner__) = <CKError 0x2: \"Quota Exceeded\" (25/2035); server message = \"Quota exceeded\"; uuid = <private>; Retry after 342.0 seconds>"))
        let throttle = Self.finished("Import", id: CKSample.otherRequest,
                                     error: #"<CKError 0x1: "Service Unavailable" (6/2022); "Request failed with http status code 503"; uuid = <private>; Retry after 30.0 seconds>"#)
        let story = try require(Self.run([Self.setUp, quota, throttle]).cloudKit)
        let texts = story.causes.map(\.counted)
        expect(texts.contains { $0.contains("Quota Exceeded 25/2035") && $0.contains("retry after 342.0 s") }, "\(texts)")
        expect(texts.contains { $0.contains("Service Unavailable 6/2022, HTTP 503") && $0.contains("retry after 30.0 s") }, "\(texts)")
        // A request a throttle stopped waits; it did not fail.
        let imports = try require(story.requests.first { $0.type == "import" })
        expect(imports.waiting == 1 && imports.failed == 0)
    }

    /// A failure's sentence is its key: throttles that each ask their own wait are one cause,
    /// its latest wait shown, so that a log of many throttles keeps one.
    @Test func throttlesWithTheirOwnWaitsAreOneCause() throws {
        let lines = (1...40).map { index in
            Self.finished(id: String(format: "6D3E9A41-0B7C-4F28-A5E6-C2D1F0B9%04X", index),
                          error: "<CKError 0x1: \"Service Unavailable\" (6/2022); \"Request failed with http status code 503\"; Retry after \(index).5 seconds>")
        }
        let story = try require(Self.run([Self.setUp] + lines).cloudKit)
        expectEqual(story.causes.count, 1)
        expectEqual(story.causes.first?.retryAfter, "40.5")
        expectEqual(story.causes.first?.reports, 40)
    }

    @Test func pushesArePushes() throws {
        let push = CKSample.syslog("-[NSCloudKitMirroringDelegate _respondToPushNotification:forSubscription:]_block_invoke", 3456,
                                   "\(CKSample.delegate) - Got notification for subscription: com.apple.coredata.cloudkit.private.subscription")
        let summary = try Self.run([Self.setUp, push, push])
        let rows = summary.cloudKit?.rows(in: summary).flatMap(\.details) ?? []
        expect(rows.contains { $0.contains("2 pushes received") }, "\(rows)")
        expect(!rows.contains { $0.contains("pushs") })
    }

    /// Routine steps of every OS version, some logged at `warning` level, are recognised and
    /// never a finding.
    @Test func routineStepsAreRecognised() throws {
        let modified = CKSample.stderr("warning", "-[PFCloudKitExporter exportOperationFinished:withSavedRecords:deletedRecordIDs:operationError:]", 496,
                                       "<PFCloudKitExporter: 0x600000d21a40>: Modify records finished: (\n)\n(\n)\n(null)")
        let summary = try Self.run([Self.setUp, modified, Self.finished(error: nil)])
        expectEqual(summary.countsByKind["cloudkit-routine-step"], 1)
        expect(summary.unhandled == 0 && summary.warnings == 0)
        expectEqual(summary.verdict, .healthy)
    }

    /// The abort for a missing iCloud entitlement is read in the CloudKit framework's wordings,
    /// which name the entitlement's key; an app's own fatal error that mentions an entitlement
    /// is not taken for it.
    @Test func theEntitlementAbortIsReadInCloudKitsWordsAlone() throws {
        let framework = [
            CKSample.app("*** Terminating app due to uncaught exception 'CKException', reason: 'The application is missing required entitlement com.apple.developer.icloud-services'"),
            "2025-09-12 18:40:03.771 Fa Pantry[8812:2a44d] [com.apple.cloudkit:CK] Significant issue at CKContainer.m:748: In order to use CloudKit, your process must have a com.apple.developer.icloud-services entitlement.",
        ]
        for line in framework {
            try expectEqual(Self.run([line]).countsByKind["cloudkit-missing-entitlement"], 1, "\(line)")
        }
        let own = CKSample.app("Pantry/PantryApp.swift:31: Fatal error: Could not create ModelContainer: check the iCloud entitlement of the CloudKit container")
        try expect(Self.run([own]).countsByKind["cloudkit-missing-entitlement"] == nil)
    }
}
