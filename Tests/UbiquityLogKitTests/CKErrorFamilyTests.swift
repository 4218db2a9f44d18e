import Testing
import TestSupport
@testable import UbiquityLogKit

/// CKErrors logged outside Core Data's mirroring records (apps, CKSyncEngine and other sync
/// libraries, the CloudKit framework's lines): each is recognised wherever the line prints it,
/// judged by its code and internal code, and a run of them alone is judged by them.
@Suite struct CKErrorFamilyTests {
    static let syncEngine = CKErrorRules.syncEngine
    static let nslog = CKErrorRules.nslog
    static let framework = CKErrorRules.framework

    /// (record, kind, code, internal code) — envelopes, spellings and codes varied.
    static let judged: [(String, EventKind, Int?, Int?)] = [
        (syncEngine(#"<CKSyncEngine 0x600002c1d0e0> Failed to send changes: <CKError 0x600000c1e2c0: "Zone Not Found" (26/2036); server message = "Zone 'Pantry' does not exist">"#), .ckErrorZoneMissing, 26, 2036),
        (nslog(#"Upload failed: "<CKError 0x600000c1e2a0: \"Network Failure\" (4/-1001); \"The request timed out.\">""#), .ckErrorNetwork, 4, nil),
        (nslog(#"fetch failed <CKError 0x6000011a4e70: "Service Unavailable" (6/NSCocoaErrorDomain:4099); "Error connecting to CloudKit daemon."; Retry after 1.0 seconds>"#), .ckErrorDaemonUnreachable, 6, 4099),
        (framework(#"<CKFetchRecordZoneChangesOperation: 0x10481c200; operationID=1A2B> failed: <CKError 0x281f4c2a0: "Service Unavailable" (6/2022); "Request failed with http status code 503"; Retry after 30.0 seconds>"#), .ckErrorThrottled, 6, 2022),
        (framework(#"<CKError 0x281f4c2b0: "Request Rate Limited" (7/2008); "This operation has been rate limited due to an earlier error"; Retry after 12.5 seconds>"#), .ckErrorThrottled, 7, 2008),
        ("[Sync] zone fetch: <CKError 0x0: \"Change Token Expired\" (21/2026); server message = \"client knowledge differs from server knowledge\">", .ckErrorChangeTokenExpired, 21, 2026),
        (nslog(#"Save failed: Error Domain=CKErrorDomain Code=25 "Quota Exceeded" UserInfo={NSLocalizedDescription=Quota Exceeded}"#), .ckErrorQuotaExceeded, 25, nil),
        (nslog("The operation couldn’t be completed. (CKErrorDomain error 9.)"), .ckErrorAccount, 9, nil),
        ("2025-01-30 08:00:01.222 Shelf[77:1a] CKErrorDomain Code=10 container not permitted", .ckErrorContainer, 10, nil),
        (nslog("User Deleted Zone: the user has deleted this zone from the settings UI.CKError.Code: 28"), .ckErrorZoneMissing, 28, nil),
        ("upload rejected: CKErrorDomain:27", .ckErrorLimitExceeded, 27, nil),
        (syncEngine("sentRecordZoneChanges: CKError.Code.serverRecordChanged for Trail-17"), .ckErrorConflict, 14, nil),
        (nslog("Could not save trail: CKError.quotaExceeded"), .ckErrorQuotaExceeded, 25, nil),
        (nslog("subscription save: CKErrorCode(rawValue: 20)"), .ckErrorCancelled, 20, nil),
        (nslog(#"<CKError 0x6000: "Server Rejected Request" (15/2032); server message = "subscription is duplicate of 'all-trails'">"#), .ckErrorSubscriptionDuplicate, 15, 2032),
        (nslog(#"<CKError 0x6000: "Internal Error" (1/1000); "No response from the server">"#), .ckErrorRequestFailed, 1, 1000),
        (nslog(#"<CKError 0x6000: "Not Authenticated" (9/1004); "Can't return account credentials for account because the account needs to verify new terms">"#), .ckErrorAccount, 9, 1004),
        (nslog(#"<CKError 0x6000: "Unknown Item" (11/2003); "Record not found">"#), .ckErrorItemFailed, 11, 2003),
        // Swift's description of a bare code, and NSError's own description of a code that has
        // none, localised: the domain, then the code, whatever the words around them.
        (nslog("Upload failed: CKError(rawValue: 25)"), .ckErrorQuotaExceeded, 25, nil),
        (nslog("Upload failed: Der Vorgang konnte nicht abgeschlossen werden. (CKErrorDomain-Fehler 25.)"), .ckErrorQuotaExceeded, 25, nil),
        (nslog("Upload failed: L’opération n’a pas pu s’achever. (erreur CKErrorDomain 25.)"), .ckErrorQuotaExceeded, 25, nil),
        (nslog("Upload failed: 操作を完了できませんでした。（CKErrorDomain エラー 25）"), .ckErrorQuotaExceeded, 25, nil),
        // An account status that stops sync, as the app prints what accountStatus answered.
        (syncEngine("[com.example.recipes:Sync] Account status: noAccount"), .ckErrorAccount, nil, nil),
        (nslog("Sync stopped: CKAccountStatus.restricted"), .ckErrorAccount, nil, nil),
        // A code CloudKit added after the table: judged as a failure, not passed over.
        (nslog("CKErrorDomain Code=41 something new"), .ckErrorRequestFailed, 41, nil),
    ]

    /// A Core Data record no rule of its channel knows, whose message prints an error, is read
    /// as the app's line would be: an importer's failure with a CKError, at debug level, was an
    /// unhandled record and the run `healthy`.
    @Test func anUnknownCoreDataRecordWithAnErrorIsReadForIt() throws {
        let failed = "CoreData: debug: CoreData+CloudKit: -[PFCloudKitImporter processWorkItemsWithCompletion:](388): <PFCloudKitImporter: 0x600000c3d2a0>: Import failed with error: <CKError 0x600000c1d4a0: \"Zone Not Found\" (26/2036); server message = \"Zone does not exist\"; op = 8F2A1C3E4B5D6F70>"
        let results = try classify(failed)
        expectEqual(results.count, 1)
        expectEqual(results.first?.record.marker, .cloudKit)
        expectEqual(results.first?.classification.event.kind, .ckErrorZoneMissing)
        let summary = try summarize([("f3.log", "Recipe list refreshed: 7 recipes\n" + failed + "\n")])
        expectEqual(summary.unhandled, 0)
        expectEqual(summary.verdict, .degraded, "\(summary.verdicts)")
        // Without an error it stays unhandled.
        let unknown = try classify("CoreData: debug: CoreData+CloudKit: -[PFCloudKitImporter processWorkItemsWithCompletion:](388): <PFCloudKitImporter: 0x6000>: A message no rule knows yet")
        expectEqual(unknown.first?.classification.event, .unhandled(limitHit: false))
    }

    @Test(arguments: judged.indices)
    func eachCKErrorIsJudgedByItsCode(_ index: Int) throws {
        let (line, kind, code, internalCode) = Self.judged[index]
        let results = try classify(line)
        try require(results.count == 1)
        let event = results[0].classification.event
        expectEqual(event.kind, kind, "\(line)")
        expectEqual(event.kind.family, .ckError)
        let facts = Facts(event.fields)
        expectEqual(facts.int("code"), code, "\(event.fields)")
        expectEqual(facts.int("internalCode"), internalCode, "\(event.fields)")
    }

    @Test func aPartialFailureIsJudgedByItsWorstEntryNotItsBatchFailures() throws {
        let line = Self.framework(#"<CKModifyRecordsOperation: 0x10481c200> finished with error <CKError 0x281f4c2a0: "Partial Failure" (2/1011); "Failed to modify some records"; partial errors: { Sighting-0043:(Sightings:__defaultOwner__) = <CKError 0x281f4c3f0: "Batch Request Failed" (22/2024); "could not be saved because another item of the atomic batch failed">, Sighting-0042:(Sightings:__defaultOwner__) = <CKError 0x281f4c3c0: "Limit Exceeded" (27/2023); server message = "record too large"> }>"#)
        let event = try require(classify(line).first).classification.event
        expectEqual(event.kind, .ckErrorLimitExceeded)
        expectEqual(Facts(event.fields).int("code"), 27)
        let said = try require(Facts(event.fields).string("causeText"))
        expect(said.contains("Partial Failure (2/1011), 2 entries; judged by Limit Exceeded (27/2023): record too large"), "\(said)")
        // Without entries it says only that some items failed.
        let bare = try require(classify(Self.nslog("Export: Error Domain=CKErrorDomain Code=2 \"Failed to modify some records\"")).first)
        expectEqual(bare.classification.event.kind, .ckErrorPartialFailure)
    }

    @Test func anEventsHiddenPartialFailureStaysWithTheMirroring() throws {
        let line = Self.nslog("NSPersistentCloudKitContainer.Event error: Error Domain=CKErrorDomain Code=2 \"(null)\"")
        try expectEqual(classify(line).first?.classification.event.kind, .cloudKitPartialFailureHidden)
    }

    @Test func aRunOfCKErrorsAloneIsJudgedByThemNeverNoEvidenceOrHealthy() throws {
        let warnings = [Self.nslog("Loaded 12 trails"),
                        Self.nslog(#"Sync failed: Error Domain=CKErrorDomain Code=26 "Zone Not Found" UserInfo={}"#),
                        Self.nslog("save: CKErrorDomain Code=4 network failure")].joined(separator: "\n")
        let degraded = try summarize([("app.log", warnings)])
        expectEqual(degraded.verdict, .degraded, "\(degraded.verdictSentence)")
        expectEqual(degraded.warnings, 2)
        let story = try require(degraded.ckErrors)
        expectEqual(story.entries.map(\.kind), [.ckErrorZoneMissing, .ckErrorNetwork])
        expectEqual(story.entries.map(\.line), [2, 3])

        let broken = try summarize([("app.log", warnings + "\n" + Self.nslog("fetch failed <CKError 0x6000: \"Bad Container\" (5/1014); \"Couldn't get container configuration from the server for container iCloud.org.example.trails\">"))])
        expectEqual(broken.verdict, .broken, "\(broken.verdictSentence)")
        expectEqual(broken.verdicts.first?.evidence.first?.hasPrefix("app.log:4 ckerror-container:"), true, "\(broken.verdicts)")

        let handled = try summarize([("app.log", Self.nslog("Could not save trail: CKError.serverRecordChanged") + "\n" + Self.nslog("subscription save: CKErrorCode(rawValue: 20)"))])
        expectEqual(handled.verdict, .healthy, "a conflict and a cancellation are handled: \(handled.verdictSentence)")
        expectEqual(handled.ckErrors?.records, 2)
    }

    @Test func anAccountStatusIsToldAsTheAppSaidIt() throws {
        for (line, said) in [(Self.nslog("Account status: noAccount"), "Account status: noAccount"),
                             (Self.nslog("Sync stopped: CKAccountStatus.restricted"), "Sync stopped: CKAccountStatus.restricted")] {
            let event = try require(classify(line).first).classification.event
            expectEqual(Facts(event.fields).string("causeText"), said)
        }
    }

    @Test func aUsableAccountOrAnotherDomainIsNoFinding() throws {
        for line in [Self.nslog("Account status: available"), Self.nslog("CKAccountStatus.available, syncing"),
                     Self.nslog("Fetch failed: Error Domain=CKInternalErrorDomain Code=1002 \"denied\""),
                     Self.nslog("Retrying CKErrorDomain operations in 30 s")] {
            let kind = try require(classify(line).first).classification.event.kind
            expect(kind.family != .ckError, "\(kind.id) for \(line)")
        }
    }

    @Test func repeatsAreToldOnceWithTheirCount() throws {
        let line = Self.syncEngine(#"<CKSyncEngine 0x600002c1d0e0> Failed to send changes: <CKError 0x600000c1e2c0: "User Deleted Zone" (28/2042); server message = "Zone was purged by user">"#)
        let summary = try summarize([("engine.log", [line, line, line].joined(separator: "\n"))])
        let story = try require(summary.ckErrors)
        expectEqual(story.entries.count, 1)
        expectEqual(story.entries.first?.count, 3)
        expectEqual(story.entries.first?.text, "<CKSyncEngine 0x600002c1d0e0> Failed to send changes: User Deleted Zone (28/2042): Zone was purged by user")
        let json = story.fields.first { $0.name == "errors" }
        expect(json != nil)
    }
}
