// Every message the original parseLogs script reported or knowingly dropped is recognised,
// in the iOS 6 wording it was written against (marker right after the header, the logging
// object's description first).
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct OriginalScriptCoverageTests {
    static let importer = "<_PFUbiquityRecordsImporter: 0x1d5a3b40>: /private/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/Logs - mobile.6F2C0E8A1B7D4C559A342B8E1D0C7F11"
    static let baseline = "<PFUbiquityBaseline: 0x1d5d1f40>\n\tpermanentLocation: /private/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/Logs/baseline.zip"
    static let medic = "<PFUbiquityStoreMetadataMedic: 0x1e5d8290>"
    static let assistant = "<PFUbiquitySetupAssistant: 0x1d5a4f60>"

    /// (message after the marker, the kind it must become)
    static let messages: [(String, String)] = [
        // reported
        ("<_PFUbiquityRecordsExporter: 0x1d5b2c10> exporting updated objects: {(\n)}", "objects-exported"),
        ("<_PFUbiquityRecordsExporter: 0x1d5b2c10> Successfully wrote transaction log: <PFUbiquityTransactionEntryLight: 0x1d5f3c20>\n\ttransactionNumber: 5", "transaction-log-written"),
        ("Got final value for relationship: tags\n(\n)\nObject: <Entry: 0x1d5e7010>", "relationship-resolved"),
        ("<PFUbiquityBaselineRollResponseOperation: 0x1e5d6070> Encountered an error while trying to respond to the roll of baseline: <PFUbiquityBaseline: 0x1d5d1f40>\nError: Error Domain=NSCocoaErrorDomain Code=134307 \"x\" UserInfo=0x1 {}", "baseline-roll-response-failed"),
        ("\(importer)\nScheduling baseline recovery operation on behalf of: <PFUbiquityBaselineRollResponseOperation: 0x1e5d6070>", "baseline-recovery-scheduled"),
        ("\(importer)\nCan't process log with score: <PFUbiquityKnowledgeVector: 0x1>:{a:2} after log with score: <PFUbiquityKnowledgeVector: 0x2>:{a:1}\n It is ahead of the local peer.", "log-ahead-of-peer"),
        ("\(importer)\nSkipping incompatible operation (<PFUbiquityKnowledgeVector: 0x1>:{a:2}): <_PFUbiquityRecordImportOperation: 0x3>:", "incompatible-operation-skipped"),
        ("Got notification that store is about to commit: NSConcreteNotification 0x1d5f0a10 {}", "store-will-commit"),
        ("Changes applied for transaction log content, managed object context changes: \n\tinserted: {(\n)}", "changes-imported"),
        ("\(importer)\nSkipping log because it has already been imported into the local store: <PFUbiquityLocation: 0x1e8c21a0>: /a/b.cdt", "log-already-imported"),
        // dropped as routine
        ("Initializing stack", "stack-initialized"),
        ("Setting up metadataMOC for stack: <_PFUbiquityStack: 0x1d5a2d40>", "stack-initialized"),
        ("Stack Changes: {\n}", "export-considered"),
        ("Added transaction entries to cache", "export-considered"),
        ("Path: /private/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/Logs is a ubiquity root url.", "ubiquity-root-located"),
        ("Truncated path: /private/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/Logs is a ubiquity root url.\nMatches: /x", "ubiquity-root-located"),
        ("Exporter considering response to save: NSConcreteNotification 0x1d5f0a10", "export-considered"),
        ("Exporter: <_PFUbiquityRecordsExporter: 0x1d5b2c10>\nWill respond.", "export-considered"),
        ("<PFUbiquityFilePresenter: 0x1d5c3e0>\nGot change notification for url: file://localhost/a/b.cdt", "file-change-observed"),
        ("Coordinated read finished for ubiquity root url: file://localhost/a/", "file-change-observed"),
        ("<PFUbiquityPeerReceipt: 0x1d5b3e50>: Successfully wrote to file.", "peer-receipt-written"),
        ("Checking peer file upload: <PFUbiquityPeerReceipt: 0x1d5b3e50>", "peer-receipt-written"),
        ("\(baseline)\nSuccessfully created staging directory: /a/staging", "baseline-staging"),
        ("\(baseline)\n Successfully removed contents of staging area.", "baseline-staging"),
        ("Beginning metadata recovery for store: <NSSQLCore: 0x1d5a1c30>", "metadata-recovery-started"),
        ("Metadata recovery for store: <NSSQLCore: 0x1d5a1c30>\nCreating new store metadata.", "metadata-recovery-step"),
        ("\(medic) Moving on to recreating the peer ranges.", "metadata-recovery-step"),
        ("\(medic)\nMetadata recovery for store: <NSSQLCore: 0x1d5a1c30>\nFinished creating new peer ranges, moving to knowledge vector, peer states, and transaction entries.", "metadata-recovery-step"),
        ("\(medic)\nMetadata recovery for store: <NSSQLCore: 0x1d5a1c30>\nFetched knowledge vector: <PFUbiquityKnowledgeVector: 0x1>:{a:1}", "metadata-recovery-step"),
        ("\(medic)\nMetadata recovery for store: <NSSQLCore: 0x1d5a1c30>\nFinished.", "metadata-recovery-step"),
        ("\(assistant)\nSuccessfully recovered metadata", "metadata-recovered"),
        ("Removing identifiers from: <NSSQLCore: 0x1d5a1c30>", "baseline-staging"),
        ("\(assistant)\nSuccessfully wrote peer receipt file: <PFUbiquityPeerReceipt: 0x1d5b3e50>", "peer-receipt-written"),
        ("\(assistant)\nLocal store knowledge vector matches metadata knowledge vector.", "knowledge-vector-matched"),
        ("\(assistant)\nDidn't get a switchboard entry back after trying to register store: <NSSQLCore: 0x1d5a1c30>", "switchboard-entry-missing"),
        ("\(importer)\nScheduling root scan", "import-scan"),
        ("Starting scan of location: /a", "import-scan"),
        ("\(importer)\nadding root scan: <PFUbiquityImportScanOperation: 0x1d5c7e90> to queue: <NSOperationQueue: 0x1d5c8fa0>", "import-scan"),
        ("<PFUbiquityImportScanOperation: 0x1d5c7e90> got subpaths of root location: (\n)", "import-scan"),
        ("<PFUbiquityImportScanOperation: 0x1d5c7e90> Ignoring subpath (model version hash): H7UqDxyz=", "import-scan"),
        ("<PFUbiquityImportScanOperation: 0x1d5c7e90> Got candidate log locations: (\n)", "import-scan"),
        ("Initiated download for urls: (\n)", "import-scan"),
        ("Finished scan of root location", "import-scan"),
        ("\(importer)\nRegistering for application resumed notification.", "import-scheduling"),
        ("Post store setup succeded.", "store-setup-finished"),
        ("Ignoring private file: /a/.DS_Store", "ubiquity-root-located"),
        ("Scheduling response to baseline: /a/baseline.zip", "baseline-response"),
        ("Registered coordinators: {(\n)}", "baseline-response"),
        ("store name: JournalStore - {\n}\n<NSSQLCore: 0x1d5a1c30>", "baseline-response"),
        ("Store: <NSSQLCore: 0x1d5a1c30>", "baseline-response"),
        ("Adding operation", "import-scheduling"),
        ("Responding to baseline: <PFUbiquityBaseline: 0x1d5d1f40>", "baseline-response"),
        ("\(baseline)\nChecking to see if it can replace store with knowledge vector: <PFUbiquityKnowledgeVector: 0x1>:{a:1}", "baseline-check"),
        ("\(baseline)\nLocal store is current with the baseline", "baseline-check"),
        ("\(baseline)\nFinished check: 0", "baseline-check"),
        ("Can adopt: 0 replace: 0\nkv: <PFUbiquityKnowledgeVector: 0x1>:{a:1}", "baseline-check"),
        ("Baseline exists in the cloud, will evaluate other criteria to see if a new one can be rolled.", "baseline-check"),
        ("not enough transactions to roll: 3 < 100", "baseline-check"),
        ("\(importer)\nFinished scheduling logs with context: <PFUbiquityRecordsImporterSchedulingContext: 0x1>", "import-scheduling"),
        ("Posting import notification: : NSConcreteNotification 0x1 {}", "import-scheduling"),
    ]

    @Test(arguments: messages.indices)
    func recognised(index: Int) throws {
        let (message, kind) = Self.messages[index]
        let record = "2012-11-20 18:02:41.770 Journal[233:1303] CoreData: Ubiquity:  \(message)"
        let results = try classify(record)
        try require(results.count == 1)
        expectEqual(results[0].classification.event.kind.id, kind, "\(message)")
    }
}
