import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

/// Records of Core Data's CloudKit mirroring: the token found in every envelope, multi-line
/// records kept whole, the Xcode console's two copies of an error counted once.
@Suite struct CloudKitRecordTests {
    static let method = "-[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke"
    static let message = "\(CKSample.delegate): Executing: <NSCloudKitMirroringImportRequest: 0x600002a48c80> \(CKSample.otherRequest)"

    @Test func aRequestsTypeIsItsClassNameShortened() {
        expectEqual(CloudKitEvent.requestType("NSCloudKitMirroringExportRequest"), "export")
        expectEqual(CloudKitEvent.requestType("NSCloudKitMirroringDelegateSetupRequest"), "setup")
        expectEqual(CloudKitEvent.requestType("NSCloudKitMirroringResetZoneRequest"), "resetZone")
        expectEqual(CloudKitEvent.requestType("NSCloudKitMirroringFetchRecordsRequestX"), "fetchRecordsRequestX", "a suffix only at the end")
        expectEqual(CloudKitEvent.requestType("NSCloudKitMirroringimport"), "import")
        expect(CloudKitEvent.requestType("NSCloudKitMirroringRequest") == nil)
        expect(CloudKitEvent.requestType("NSCloudKitMirroringDelegateRequest") == nil)
        expect(CloudKitEvent.requestType("NSCloudKitMirroring") == nil)
        expect(CloudKitEvent.requestType("PFCloudKitExportRequest") == nil)
        expect(CloudKitEvent.requestType(nil) == nil)
    }

    static let envelopes: [String] = [
        CKSample.stderr("CloudKit", method, 3566, message),
        CKSample.xcodeTimed("CloudKit", method, 3579, message),
        CKSample.logShow(method, 3583, message),
        CKSample.compact(method, 3570, message),
        CKSample.syslog(method, 3566, message),
        "CoreData+CloudKit: \(method)(2468): \(message)",
        "CloudKit: CoreData+CloudKit: \(method)(3553): \(message)",
        "default\t14:14:16.621530+0100\tRecipes\tCloudKit: CoreData+CloudKit: \(method)(3566): \(message)",
        // A method pasted without its `-`, and one with `]block_invoke`.
        "CoreData: CloudKit: CoreData+CloudKit: [NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke(3566): \(message)",
        "CoreData: CloudKit: CoreData+CloudKit: -[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]block_invoke(1943): \(message)",
    ]

    @Test(arguments: envelopes)
    func theTokenMarksTheRecordInEveryEnvelope(line: String) throws {
        let results = try classify(line)
        try require(results.count == 1, "\(line)")
        expectEqual(results[0].record.marker, .cloudKit, "\(line)")
        let event = results[0].classification.event
        expectEqual(event.kind, .cloudKitRequestExecuting, "\(line)")
        expect(event.fields.contains(Field("requestType", .string("import"))), "\(event.fields)")
        expect(event.fields.contains(Field("requestID", .string(CKSample.otherRequest))))
    }

    @Test func ndjsonEventMessagesAreMirroringRecords() throws {
        let object = #"{"timestamp":"2025-03-14 09:26:53.532641+0100","messageType":"Default","subsystem":"com.apple.coredata","category":"CloudKit","processImagePath":"/private/var/containers/Bundle/Application/0A1B/Recipes.app/Recipes","processID":2210,"threadID":246303,"eventMessage":"CoreData+CloudKit: -[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1242): <NSCloudKitMirroringDelegate: 0x600003d1c000>: Failed to set up CloudKit integration for store: <NSSQLCore: 0x10380a2c0> (URL: file:///var/mobile/Recipes.sqlite)\n<CKError 0x600000c6d2c0: \"Partial Failure\" (2/1011); \"Failed to modify some records\"; partial errors: {\n\tA1:(com.apple.coredata.cloudkit.zone:__defaultOwner__) = <CKError 0x600000c8a5b0: \"Quota Exceeded\" (25/2035); server message = \"Quota exceeded\"; Retry after 342.0 seconds>\n}>"}"#
        let summary = try summarize([("a.ndjson", object + "\n")])
        expectEqual(summary.countsByKind["cloudkit-quota-exceeded"], 1)
    }

    @Test func aRecordKeepsItsContinuationLines() throws {
        let text = [
            CKSample.stderr("warning", "-[PFCloudKitSetupAssistant _checkAccountStatus:]_block_invoke", 521,
                            "Fetched account info for store \(CKSample.store): <CKAccountInfo: 0x600000c3a3c0; accountStatus=Available, needsToVerifyTerms=false>\n(null)"),
            CKSample.oslogError("-[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke", 1242,
                                "\(CKSample.delegate): Failed to set up CloudKit integration for store: <NSSQLCore: 0x10380a2c0> (URL: \(CKSample.storeURL))\nError Domain=NSCocoaErrorDomain Code=134400 \"Unable to initialize without an iCloud account (CKAccountStatusNoAccount).\" UserInfo={NSLocalizedFailureReason=Unable to initialize without an iCloud account (CKAccountStatusNoAccount).}"),
        ].joined(separator: "\n")
        let results = try classify(text)
        try require(results.count == 2)
        expectEqual(results[0].record.lineCount, 2)
        expectEqual(results[0].classification.event.kind, .cloudKitAccountFetched)
        expectEqual(results[1].record.lineCount, 2)
        // The account, on the line under the message, is the cause: a warning, not a broken set-up.
        expectEqual(results[1].classification.event.kind, .cloudKitAccountUnavailable)
        expect(results[1].classification.event.fields.contains(Field("stage", .string("setup"))))
    }

    @Test func theTwoCopiesOfAnErrorCountOnce() throws {
        let message = "\(CKSample.delegate) - Never successfully initialized and cannot execute request '<NSCloudKitMirroringExportRequest: 0x600002a38f00> \(CKSample.request)' due to error: <CKError 0x600000c74a80: \"Permission Failure\" (10/2007); server message = \"Invalid bundle ID for container\"; op = 5A4B3C2D1E0F9A8B>"
        let method = "-[NSCloudKitMirroringDelegate _requestAbortedNotInitialized:]"
        let doubled = [CKSample.oslogError(method, 2183, message), CKSample.stderr("error", method, 2183, message), "Saved recipe"].joined(separator: "\n")
        let summary = try summarize([("a.log", doubled)])
        expectEqual(summary.countsByKind["cloudkit-container-not-linked"], 1)
        expectEqual(summary.countsByKind["cloudkit-echo"], 1)
        expectEqual(summary.errors, 1)
        // The same copy twice is two failures (two requests refused), not an echo.
        let twice = [CKSample.stderr("error", method, 2183, message), CKSample.stderr("error", method, 2183, message)].joined(separator: "\n")
        try expectEqual(summarize([("b.log", twice)]).countsByKind["cloudkit-container-not-linked"], 2)
        // An echo is the copy right after its original, not any repeat: a copy after an echo
        // is a failure again.
        let alternating = [CKSample.oslogError(method, 2183, message), CKSample.stderr("error", method, 2183, message),
                           CKSample.oslogError(method, 2183, message)].joined(separator: "\n")
        let third = try summarize([("c.log", alternating)])
        expect(third.countsByKind["cloudkit-container-not-linked"] == 2 && third.countsByKind["cloudkit-echo"] == 1)
    }

    /// Issue #41: three identical failures, each printed twice, are three failures and three
    /// echoes (not one failure and five echoes).
    @Test func repeatedFailuresEachPrintedTwiceAreEachCounted() throws {
        let message = "\(CKSample.delegate) - Never successfully initialized and cannot execute request '<NSCloudKitMirroringExportRequest: 0x600002a38f00> \(CKSample.request)' due to error: <CKError 0x600000c74a80: \"Permission Failure\" (10/2007); server message = \"Invalid bundle ID for container\"; op = 5A4B3C2D1E0F9A8B>"
        let method = "-[NSCloudKitMirroringDelegate _requestAbortedNotInitialized:]"
        let pair = [CKSample.oslogError(method, 2183, message), CKSample.stderr("error", method, 2183, message)]
        let summary = try summarize([("a.log", (pair + pair + pair).joined(separator: "\n"))])
        expectEqual(summary.countsByKind["cloudkit-container-not-linked"], 3)
        expectEqual(summary.countsByKind["cloudkit-echo"], 3)
        // The stderr copy first, then the os_log copy: the same.
        let reversed = Array(pair.reversed())
        let other = try summarize([("b.log", (reversed + reversed + reversed).joined(separator: "\n"))])
        expectEqual(other.countsByKind["cloudkit-container-not-linked"], 3)
        expectEqual(other.countsByKind["cloudkit-echo"], 3)
    }
}

/// The errors inside a mirroring record: every CKError, each partial-error entry, the
/// omitted batch count, the cause; read the same when a paste flattened its line breaks.
@Suite struct CloudKitErrorTests {
    static let entries = [
        CKSample.schemaEntry("R-0001"), CKSample.schemaEntry("R-0002"),
        CKSample.schemaEntry("R-0003", field: "CD_photo", type: "CD_Step"),
    ].joined(separator: "\n")

    @Test(arguments: [false, true])
    func partialErrorsAreReadEntryByEntry(flattened: Bool) {
        var text = "Finished request: <NSCloudKitMirroringExportRequest: 0x1> \(CKSample.request) with result: <NSCloudKitMirroringResult: 0x2> storeIdentifier: \(CKSample.store) success: 0 madeChanges: 0 error: "
            + CKSample.partialFailure(Self.entries, omitted: 12)
        if flattened { text = text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: "") }
        let report = CloudKitErrors.report(in: text)
        expectEqual(report.errors.count, 4)
        expectEqual(report.errors[0].name, "Partial Failure")
        expect(report.errors[0].code == 2 && report.errors[0].internalCode == 1011)
        expectEqual(report.errors[1].record, "R-0001")
        expectEqual(report.errors[1].zone, "com.apple.coredata.cloudkit.zone")
        expect(report.errors[1].field == "CD_rating" && report.errors[1].recordType == "CD_Recipe")
        expect(report.errors[3].field == "CD_photo" && report.errors[3].recordType == "CD_Step")
        expectEqual(report.errors[1].container, CKSample.container)
        expectEqual(report.omittedBatchErrors, 12)
        expectEqual(report.cause, .schemaMissingField)
        expectEqual(report.causeErrors.count, 3)
    }

    @Test func quotedEntriesOfARecoveryDictionary() {
        let text = #"Error recovery failed because the following fatal errors were found: {    "<CKRecordID: 0x600000b8c120; recordName=7F3E-01, zoneID=com.apple.coredata.cloudkit.zone:__defaultOwner__>" = "<CKError 0x600000c8a5b0: \"Limit Exceeded\" (27/2023); server message = \"record too large\"; op = 8C1D; uuid = 5B6C>"; }"#
        let report = CloudKitErrors.report(in: text)
        expectEqual(report.errors.count, 1)
        expectEqual(report.errors[0].record, "7F3E-01")
        expectEqual(report.errors[0].serverMessage, "record too large")
        expectEqual(report.cause, .recordTooLarge)
    }

    @Test func causesFromCodesAndTexts() {
        func cause(_ text: String) -> CloudKitCause? { CloudKitErrors.report(in: text).cause }
        expectEqual(cause(#"<CKError 0x1: "Service Unavailable" (6/2022); "Request failed with http status code 503"; Retry after 30.0 seconds>"#), .throttled)
        expectEqual(cause(#"<CKError 0x1: "Request Rate Limited" (7/2008); "This operation has been rate limited"; Retry after 12.0 seconds>"#), .throttled)
        expectEqual(cause(#"<CKError 0x1: "Not Authenticated" (9/1004); "Can't return account credentials">"#), .accountTerms)
        expectEqual(cause(#"<CKError 0x1: "Zone Not Found" (26/2036); server message = "Zone 'x' does not exist">"#), .zoneNotFound)
        expectEqual(cause(#"<CKError 0x1: "Invalid Arguments" (12); "You can't save the same record twice: <CKRecordID: 0x2>">"#), .duplicateRecordInRequest)
        expectEqual(cause(#"<CKError 0x1: "Limit Exceeded" (27/1020); "Your request contains 612 items which is more than the maximum number of items in a single request (400)">"#), .tooManyItems)
        expectEqual(cause("Error Domain=NSCocoaErrorDomain Code=134417 \"Request was cancelled\""), .cancelledPending)
        // 134406 is told by the set-up's cause nested in it.
        expectEqual(cause("Error Domain=NSCocoaErrorDomain Code=134406 \"aborted due to error: Error Domain=NSCocoaErrorDomain Code=134400 \"no account\"\""), .noAccount)
        expectEqual(cause("Error Domain=NSCocoaErrorDomain Code=134406 \"aborted\""), .notInitialized)
    }

    /// Every phrase that tells a cause anywhere in a failure, spelt out here rather than read
    /// from the catalogue's table, so that a phrase dropped from it or misspelt fails: found
    /// alone, at the very start and the very end of the text (where a search by one of its
    /// bytes stops), and nested in a 134406 that it then explains.
    static let phrases: [(String, CloudKitCause)] = [
        ("does not support ordered relationships", .modelOrderedRelationship),
        ("requires that all attributes be optional", .modelAttributeRequired),
        ("requires that all relationships be optional", .modelRelationshipRequired),
        ("Sandbox restriction", .daemonUnreachable),
        ("Error retrieving daemon", .daemonUnreachable),
        ("assigned to multiple zones", .objectsInSeveralZones),
        ("another instance of this persistent store", .secondInstance),
        ("register a second handler for activity", .secondInstance),
        ("without an iCloud account", .noAccount),
    ]

    @Test(arguments: phrases)
    func aPhraseTellsItsCauseWhereverItStands(phrase: String, expected: CloudKitCause) {
        func cause(_ text: String) -> CloudKitCause? { CloudKitErrors.report(in: text).cause }
        expectEqual(cause(phrase), expected)
        expectEqual(cause(phrase + " (more text after it)"), expected)
        expectEqual(cause("text before it: " + phrase), expected)
        expectEqual(cause("Error Domain=NSCocoaErrorDomain Code=134406 \"aborted due to: \(phrase)\""), expected)
        // One letter off is not the phrase.
        expect(CloudKitErrors.report(in: String(phrase.dropLast()) + "#").cause == nil)
    }

    /// A phrase is not read when a cause it cannot outrank is found already: that cause stays.
    @Test func aPhraseDoesNotOutrankTheSchema() {
        let text = "Failed: <CKError 0x1: \"Invalid Arguments\" (12/2006); server message = \"Cannot create or modify field 'CD_rating' in record 'CD_Recipe' in production schema\">; without an iCloud account"
        expectEqual(CloudKitErrors.report(in: text).cause, .schemaMissingField)
        // A lower cause's phrase still shows beside a benign one it outranks.
        expectEqual(CloudKitErrors.report(in: "Error Domain=NSCocoaErrorDomain Code=134417 \"cancelled\"; without an iCloud account").cause, .noAccount)
    }

    /// The tracker tells a cause's entries from an event's facts, each entry's fields read in
    /// one pass: the same entries, with their records, as the report's errors of that cause.
    @Test func entriesOfACauseAreTheReportsErrorsOfIt() {
        let text = #"<CKError 0x1: "Partial Failure" (2/1011); "Failed to modify some records"; partial errors: { A1:(com.apple.coredata.cloudkit.zone:__defaultOwner__) = <CKError 0x2: "Invalid Arguments" (12/2006); server message = "Cannot create or modify field 'CD_rating' in record 'CD_Recipe' in production schema">; A2:(com.apple.coredata.cloudkit.zone:__defaultOwner__) = <CKError 0x3: "Quota Exceeded" (25/2035); server message = "Quota exceeded"; Retry after 342.0 seconds>; A3:(com.apple.coredata.cloudkit.zone:__defaultOwner__) = <CKError 0x4: "Invalid Arguments" (12/2006); server message = "Cannot create or modify field 'CD_title' in record 'CD_Recipe' in production schema">; A4:(com.apple.coredata.cloudkit.zone:__defaultOwner__) = <CKError 0x5: "Invalid Arguments" (12); "You can't save the same record twice">; A5:(com.apple.coredata.cloudkit.zone:__defaultOwner__) = <CKError 0x6: "Not Authenticated" (9); "Please verify new terms">; A6:(com.apple.coredata.cloudkit.zone:__defaultOwner__) = <CKError 0x7: "Server Rejected Request" (15); server message = "subscription is duplicate"> }>"#
        let report = CloudKitErrors.report(in: text)
        // The cause that wins, with its own CKErrors in their order and no other's.
        expectEqual(report.cause, .schemaMissingField)
        expectEqual(report.causeErrors.map(\.record), ["A1", "A3"])
        expectEqual(report.causeErrors.map(\.field), ["CD_rating", "CD_title"])
        // A cause offered by a code alone carries no CKError; a partial failure alone is
        // `other`, told by its first CKError.
        let byCode = CloudKitErrors.report(in: #"Error Domain=NSCocoaErrorDomain Code=134400 "no account"; <CKError 0x1: "Network Failure" (4)>"#)
        expectEqual(byCode.cause, .noAccount)
        expect(byCode.causeErrors.isEmpty)
        let partial = CloudKitErrors.report(in: #"<CKError 0x1: "Partial Failure" (2/1011); "Failed to modify some records">"#)
        expectEqual(partial.cause, .other)
        expectEqual(partial.causeErrors.map(\.name), ["Partial Failure"])
        let facts = Facts(report.fields)
        let causes: [CloudKitCause] = [.schemaMissingField, .quotaExceeded, .duplicateRecordInRequest, .accountTerms, .duplicateSubscription, .other]
        expectEqual(causes.map { cause in facts.entries(of: cause).map(\.record) }, [["A1", "A3"], ["A2"], ["A4"], ["A5"], ["A6"], []])
        for cause in causes {
            let expected = report.errors.filter { CloudKitErrors.cause(of: $0) == cause }
            let entries = facts.entries(of: cause)
            expectEqual(entries.map(\.record), expected.map(\.record), "\(cause)")
            expectEqual(entries.map { $0.facts.string("field") }, expected.map(\.field), "\(cause)")
        }
    }

    /// Each shape of a partial-error key, and one that is not ASCII (read through a String).
    @Test func entryKeysOfEveryShape() {
        let text = #"partial errors: { com.apple.coredata.cloudkit.zone:__defaultOwner__ = <CKError 0x1: "Zone Not Found" (26/2036)>; sub-1 = <CKError 0x2: "Server Rejected Request" (15/2032)>; café-01:(zoné:o) = <CKError 0x3: "Invalid Arguments" (12)>; R-7:(z1:o) = <CKError 0x4: "Invalid Arguments" (12)>; "<CKRecordID: 0x5; recordName=R-8, zoneID=z2:o>" = "<CKError 0x6: \"Invalid Arguments\" (12)>" }"#
        let errors = CloudKitErrors.report(in: text).errors
        expectEqual(errors.count, 5)
        expectEqual(errors.map(\.record), [nil, "sub-1", "café-01", "R-7", "R-8"])
        expectEqual(errors.map(\.zone), ["com.apple.coredata.cloudkit.zone", nil, "zoné", "z1", "z2"])
    }

    /// A group named as a number is a number in the facts, and only there: the set of such
    /// names is handed only to rules that have one of those groups.
    @Test func numericGroupsAreNumbers() throws {
        let classifier = Classifier(catalog: try Catalog.standard())
        func facts(_ ruleID: String) throws -> [Field] {
            let rule = try require(CloudKitRules.all.first { $0.id == ruleID })
            let sample = try require(rule.samples.first)
            let records = try assemble(sample)
            let record = try require(records.first)
            guard case .message(_, let fields) = classifier.classify(record).event else { return [] }
            return fields
        }
        try expectEqual(facts("cloudkit-export-objects-found").first { $0.name == "objects" }?.value, .int(3))
        try expectEqual(facts("cloudkit-teardown").first { $0.name == "reason" }?.value, .string("Store Removed"))
    }

    /// Rules hand the message's bytes: invalid UTF-8 in them reads as it did from the message's
    /// String (`RuleMatch.message`, each bad byte escaped as `\xFF`).
    @Test func bytesReadAsTheirString() {
        var bytes = Array(#"<CKError 0x1: "Zone Not Found" (26/2036); server message = "Zone '"#.utf8) + [0xFF, 0xC3] + Array(#"x' does not exist">"#.utf8)
        let fromBytes = bytes.withUnsafeBytes { CloudKitErrors.report(in: $0) }
        let fromString = CloudKitErrors.report(in: ByteText.string(bytes))
        expectEqual(fromBytes, fromString)
        expectEqual(fromBytes.errors.first?.zone, #"\xFF\xC3x"#)
        bytes = Array("without an iCloud account".utf8)
        expectEqual(bytes.withUnsafeBytes { CloudKitErrors.report(in: $0) }.cause, .noAccount)
    }
}
