import Testing
import TestSupport
@testable import UbiquityLogKit

/// Apple's own shapes of mirroring logs, as the technotes print them and people paste them:
/// records wrapped over several lines, condensed `log show` lines, `dasd`'s decisions over
/// several lines, descriptions a copy stripped.
@Suite struct CloudKitShapesTests {
    static let export = "<NSCloudKitMirroringExportRequest: 0x600002a2c0f0> \(CKSample.request)"
    static let finished = "Finished request: \(export) with result: <NSCloudKitMirroringResult: 0x600000c2b480> storeIdentifier: \(CKSample.store) success: 1 madeChanges: 1 error: (null)"

    @Test func aRecordWrappedAfterItsTokenKeepsItsMethodAndText() throws {
        let text = [
            "default\t14:14:18.100000-0700\tYourCoolApp\tCloudKit: CoreData+CloudKit:",
            "-[NSCloudKitMirroringDelegate _finishedRequest:withResult:](3584):",
            Self.finished,
            "CloudKit: CoreData+CloudKit:",
            "-[NSCloudKitMirroringDelegate _scheduleAutomatedExportWithLabel:activity:voucher:completionHandler:](3647): \(CKSample.delegate) - Beginning automated export - AppDeactivationExport:",
            "<_DASActivity: 0x600001c3c000>",
        ].joined(separator: "\n")
        let results = try classify(text)
        try require(results.count == 2, "\(results.map(\.record.textString))")
        expectEqual(results[0].classification.event.kind, .cloudKitRequestFinished)
        expectEqual(results[0].record.lineCount, 3)
        expectEqual(results[0].record.header?.method, "-[NSCloudKitMirroringDelegate _finishedRequest:withResult:]")
        expectEqual(results[0].record.sourceLine, 3584)
        expectEqual(results[0].record.header?.process, "YourCoolApp")
        expectEqual(results[1].classification.event.kind, .cloudKitExportBegan)
        expectEqual(results[1].record.lineCount, 3)
    }

    @Test func aLogShowExcerptWithItsTextOnTheNextLineIsOneRecord() throws {
        let text = [
            "default  2024-02-20 14:14:16.621530 -0800  YourCoolApp",
            "CoreData+CloudKit: -[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke(3566): \(CKSample.delegate): Executing: \(Self.export)",
            "info … 14:14:18.100000 … YourCoolApp  CoreData+CloudKit: -[NSCloudKitMirroringDelegate _finishedRequest:withResult:](3584):",
            "    \(Self.finished)",
        ].joined(separator: "\n")
        let results = try classify(text)
        try require(results.count == 2, "\(results.map(\.record.textString))")
        expectEqual(results.map(\.classification.event.kind), [.cloudKitRequestExecuting, .cloudKitRequestFinished])
        expectEqual(results[0].record.header?.process, "YourCoolApp")
        expectEqual(results[0].record.marker, .cloudKit)
    }

    /// A condensed line with a clock and process of its own is a record of its own, never the
    /// wrapped rest of a header before it that has no text: the app's set-up failure after a
    /// `dasd` line with an empty message was taken into dasd's record, a daemon's that is not
    /// judged, and the log said healthy.
    @Test func aCondensedLineWithItsOwnHeaderIsNotWrappedIntoTheRecordBefore() throws {
        let text = [
            "default\t21:13:59.000000-0700\tdasd\t",
            "error\t21:14:01.000000-0700\tNotes Plus\tCoreData+CloudKit: -[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1088): <private>: Failed to set up CloudKit integration for store: <private>",
            "default\t21:14:05.992810-0700\tNotes Plus\tCoreData+CloudKit: -[NSCloudKitMirroringDelegate _finishedRequest:withResult:](3584): Finished request: <private> with result: <private> storeIdentifier: <private> success: 1 madeChanges: 1 error: (null)",
        ].joined(separator: "\n")
        let results = try classify(text)
        try require(results.count == 3, "\(results.map(\.record.textString))")
        expectEqual(results[1].record.header?.process, "Notes Plus")
        expectEqual(results[1].classification.event.kind, .cloudKitSetupFailed)
        expectEqual(try summarize([("t.log", text + "\n")]).verdict, .broken)
    }

    /// Condensed `log show` headers: the type, the time with or without date and offset, the
    /// process, by tabs or blanks, with `…` or `...` where columns were left out.
    @Test(arguments: [
        ("default\t14:14:16.630112-0700\tdasd\ttext", "dasd"),
        ("Default  2024-02-20 14:14:16.630112 -0800  dasd  text", "dasd"),
        ("info … 14:14:16.621530 … Notes\ttext", "Notes"),
        ("error\t2024-02-20T14:14:16.62-08:00\tNotes Plus\ttext", "Notes Plus"),
        ("fault ... 09:00:01 ... cloudd", "cloudd"),
    ])
    func condensedLogShowHeadersStartRecords(line: String, process: String) throws {
        let read = Array(line.utf8).withUnsafeBytes { CondensedLogShow.header($0) }
        let found = try require(read, "\(line)")
        expectEqual(String(decoding: Array(line.utf8)[found.process], as: UTF8.self), process)
        for notHeader in ["defaults\t14:14:16.1\tx\ty", "default 14:14 x y", "info: 14:14:16.1 x", "error reading 12 records", "debug"] {
            expect(Array(notHeader.utf8).withUnsafeBytes { CondensedLogShow.header($0) } == nil, "\(notHeader)")
        }
    }

    static let dasd = [
        "default\t14:14:16.630112-0700\tdasd\tcom.apple.coredata.cloudkit.activity.export.\(CKSample.store):5A1B2C:[",
        "\t{name: Application Policy, policyWeight: 50.000, response: {Decision: Can Proceed, Score: 0.50}}",
        " ], FinalDecision: Can Proceed}",
        "default\t14:20:01.000112-0700\tdasd\t5801:com.apple.coredata.cloudkit.activity.import.\(CKSample.store):7C3E2A:[",
        "\t{name: Application Policy, policyWeight: 50.000, response: {Decision: Can Proceed, Score: 0.50}},",
        "\t{name: Activity Group Policy, policyWeight: 1.000, response: {Decision: Must Not Proceed, Score: 0.00, Rationale: [{\"com.apple.coredata.cloudkit.import\".currentAvailableLimit == 0}]}}",
        " ], FinalDecision: Must Not Proceed}",
        "default\t14:25:01.000112-0700\tdasd\t'5802:com.apple.coredata.cloudkit.activity.export.\(CKSample.store):9D0E1F':[",
        "{name: ActivityRateLimitPolicy, policyWeight: 1.000, ",
        "response: {Decision: Must Not Proceed, Score: 0.00, ",
        "Rationale: [{[ratelimited]: Required:1.00, Observed:0.00},]}}",
        " ], FinalDecision: Must Not Proceed}",
    ].joined(separator: "\n")

    @Test func dasdDecisionsAreSchedulingFactsToldAsWaiting() throws {
        let results = try classify(Self.dasd)
        try require(results.count == 3, "\(results.map(\.record.textString))")
        let events = results.map(\.classification.event)
        expectEqual(events.map(\.kind), [.cloudKitActivityAllowed, .cloudKitActivityDeferred, .cloudKitActivityRateLimited])
        expect(events.allSatisfy { $0.kind.severity < .warning }, "waiting is no failure")
        expect(results.allSatisfy { $0.record.header?.process == "dasd" })
        expectEqual(Facts(events[1].fields).string("policy"), "Activity Group Policy")
        expectEqual(Facts(events[2].fields).string("policy"), "ActivityRateLimitPolicy")
        expectEqual(Facts(events[2].fields).string("causeText"), "waiting: the system deferred the export activity (ActivityRateLimitPolicy), it runs once that allows it")
    }

    @Test func recordsWhoseDescriptionsWereStrippedStillRead() throws {
        let method = "-[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke"
        let text = [
            "CoreData: CloudKit: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1242): : Successfully set up CloudKit integration for store (\(CKSample.store)):  (URL: file:///var/mobile/Recipes.sqlite)",
            "CoreData: CloudKit: CoreData+CloudKit: \(method)(3566): : Executing:  \(CKSample.otherRequest)",
            "error: CoreData+CloudKit: -[NSCloudKitMirroringDelegate recoverFromError:](2290):  - Attempting recovery from error: : \"Zone Not Found\" (26/2036); server message = \"Zone 'com.apple.coredata.cloudkit.zone' does not exist\"",
        ].joined(separator: "\n")
        let results = try classify(text)
        try require(results.count == 3)
        expectEqual(results.map(\.classification.event.kind), [.cloudKitSetupSucceeded, .cloudKitRequestExecuting, .cloudKitRecoveryAttempted])
        expect(results[1].classification.event.fields.contains(Field("requestID", .string(CKSample.otherRequest))))
        let recovery = Facts(results[2].classification.event.fields)
        expectEqual(recovery.string("cause"), "zone-not-found", "\(results[2].classification.event.fields)")
        let stripped = CloudKitErrors.report(in: #"error: : "Quota Exceeded" (25/2035); server message = "Quota exceeded"; Retry after 342.0 seconds"#)
        expectEqual(stripped.errors.first?.code, 25)
        expectEqual(stripped.errors.first?.internalCode, 2035)
        expectEqual(stripped.errors.first?.retryAfter, "342.0")
        expect(CloudKitErrors.report(in: #"saved "My Notes" (3 items) to the store"#).errors.isEmpty, "a name must be words with a capital")
    }
}

/// Model validation: every message that stops a store from loading, with its `Entity: property`
/// list, however the list follows; the store-load failure and the app's print of it are one cause.
@Suite struct CloudKitModelTests {
    static let cases: [(String, EventKind, String, [String])] = [
        (CKSample.app("Unresolved error Error Domain=NSCocoaErrorDomain Code=134060 \"A Core Data error occurred.\" UserInfo={NSLocalizedFailureReason=CloudKit integration requires that all attributes be optional, or have a default value set. The following attributes are marked non-optional but do not have a default value:\nRecipe: title\nRecipe: createdAt}"),
         .cloudKitModelAttributeRequired, "model-attribute-required", ["Recipe: title", "Recipe: createdAt"]),
        ("[Store] failed: CloudKit integration requires does not support ordered relationships. The following relationships are marked ordered:\n  Cookbook: recipes\n  Shelf: cookbooks",
         .cloudKitModelOrderedRelationship, "model-ordered-relationship", ["Cookbook: recipes", "Shelf: cookbooks"]),
        (CKSample.app("CloudKit integration does not support ordered relationships. The following relationships are marked ordered:\nList: items"),
         .cloudKitModelOrderedRelationship, "model-ordered-relationship", ["List: items"]),
        (CKSample.app("Error: CloudKit integration requires that all relationships be optional, the following are not:\nStep: recipe"),
         .cloudKitModelRelationshipRequired, "model-relationship-required", ["Step: recipe"]),
        ("2024-06-11 14:02:55.310877-0700 Ledger[3310:10a4b] Fatal error: Failed to create ModelContainer: SwiftDataError(_error: SwiftData.SwiftDataError._Error.loadIssueModelContainer, _explanation: Optional(\"CloudKit integration does not support unique constraints. The following entities are constrained:\\nAccount: number\\nCategory: name\"))",
         .cloudKitModelUnsupported, "model-unsupported", ["Account: number", "Category: name"]),
        ("error: Store load failed: CloudKit integration does not support the Deny deletion rule for relationships. The following relationships use Deny:\n\tFolder: notes",
         .cloudKitModelUnsupported, "model-unsupported", ["Folder: notes"]),
        ("2025-09-30 08:12:04.001 Df Journal[77:4f1] CloudKit integration requires that all relationships have an inverse, the following do not: Entry: mood, Entry: tags",
         .cloudKitModelUnsupported, "model-unsupported", ["Entry: mood", "Entry: tags"]),
        ("2023-10-02 10:00:00.000 Pantry[12:34] CoreData: error: Store failed to load.  <NSPersistentStoreDescription: 0x6000> (type: SQLite, url: file:///tmp/P.sqlite) with error = Error Domain=NSCocoaErrorDomain Code=134060 \"A Core Data error occurred.\" UserInfo={NSLocalizedFailureReason=CloudKit integration requires that all attributes be optional, or have a default value set. The following attributes are marked non-optional but do not have a default value:\nItem: name\nItem: addedAt} with userInfo {\n    NSLocalizedFailureReason = \"CloudKit integration requires that all attributes be optional, or have a default value set. The following attributes are marked non-optional but do not have a default value:\\nItem: name\\nItem: addedAt\";\n}",
         .cloudKitModelAttributeRequired, "model-attribute-required", ["Item: name", "Item: addedAt"]),
    ]

    @Test(arguments: cases.indices)
    func eachMessageListsItsEntities(_ index: Int) throws {
        let (line, kind, cause, entities) = Self.cases[index]
        let results = try classify(line)
        try require(results.count == 1, "\(results.map(\.record.textString))")
        let event = results[0].classification.event
        expectEqual(event.kind, kind, "\(line)")
        let facts = Facts(event.fields)
        expectEqual(facts.string("cause"), cause)
        expect(event.fields.contains(Field("entities", .list(entities.map { .string($0) }))), "\(event.fields)")
        expectEqual(facts.string("causeText")?.hasSuffix("(" + entities.joined(separator: ", ") + ")"), true, "\(facts.string("causeText") ?? "")")
    }

    @Test func theStoreLoadFailureAndTheAppsPrintOfItAreOneCause() throws {
        let log = Self.cases[7].0 + "\n" + CKSample.app("Unresolved error Error Domain=NSCocoaErrorDomain Code=134060 \"A Core Data error occurred.\" UserInfo={NSLocalizedFailureReason=CloudKit integration requires that all attributes be optional, or have a default value set. The following attributes are marked non-optional but do not have a default value:\nItem: name\nItem: addedAt}")
        let summary = try summarize([("load.log", log)])
        expectEqual(summary.verdict, .broken, "\(summary.verdictSentence)")
        let story = try require(summary.cloudKit)
        try require(story.causes.count == 1, "\(story.causes)")
        expectEqual(story.causes[0].reports, 2)
        expectEqual(story.causes[0].text, "the model cannot be mirrored: an attribute is non-optional without a default (Item: name, Item: addedAt)")
        expectEqual(summary.verdicts.first?.evidence.count, 1, "\(summary.verdicts)")
    }

    @Test func theListEndsAtTheFirstTextThatIsNoPair() {
        let text = "…do not have a default value:\nItem: name\nItem: addedAt} with userInfo {\n    Note: body\n}"
        expectEqual(CloudKitRules.ModelRules.modelEntities(in: Substring(text)), ["Item: name", "Item: addedAt"])
        expectEqual(CloudKitRules.ModelRules.modelEntities(in: "no list here"), [])
        expectEqual(CloudKitRules.ModelRules.modelEntities(in: Substring("x:\n" + (0..<60).map { "E\($0): a" }.joined(separator: "\n"))).count, 50)
    }
}
