import Testing
import TestSupport
@testable import UbiquityLogKit

/// A line without a header after a record joins it, unless the catalogue reads it as a record
/// of its own (`RecordAssembler.isRecordOfItsOwn`): the app's `print` of an error after a Core
/// Data record in an Xcode console paste is read, on the line it stands on, while Core Data's
/// own continuation lines (dictionaries, values on the next line) stay in their record.
@Suite struct OwnLineTests {
    static let done = "CoreData: CloudKit: CoreData+CloudKit: -[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke(3569): <NSCloudKitMirroringDelegate: 0x600003d1c000>: No more requests to execute."
    static let quota = #"<CKError 0x600000c9c060: "Quota Exceeded" (25/2035); server message = "Quota exceeded"; op = 9A1C3E5B7D0F2A4C>"#

    /// Each record's first line and line count, and its event's family.
    static func records(_ lines: [String]) throws -> [(first: Int, lines: Int, family: FamilyID?)] {
        try classify(lines.joined(separator: "\n")).map { ($0.record.firstLine, $0.record.lineCount, $0.classification.event.kind.family) }
    }

    /// An app line the catalogue recognises, after a record with a marker, is a record of its
    /// own, cited at its line; the lines before it that no rule reads stay in the record.
    @Test func anAppsErrorAfterACoreDataRecordIsARecordOfItsOwn() throws {
        let cases: [(String, FamilyID)] = [
            (Self.quota, .ckError),
            ("Sync failed: " + Self.quota, .ckError),
            (#"[Sync] upload failed: Error Domain=CKErrorDomain Code=25 "Quota Exceeded" UserInfo={NSLocalizedDescription=Quota Exceeded}"#, .ckError),
            (#"SyncMonitor: export state changed to failed(CKError(_nsError: <CKError 0x6000: "Permission Failure" (10/2007); server message = "Invalid bundle ID for container">))"#, .ckError),
            ("iCloud sync error: The operation couldn’t be completed. (CKErrorDomain error 2.)", .ckError),
        ]
        for (line, family) in cases {
            // Right after the record, and after an app line that no rule reads.
            let right = try Self.records([Self.done, "Sync failed: " + line])
            expectEqual(right.map(\.first), [1, 2], line)
            expectEqual(right.last?.family, family, line)
            let later = try Self.records(["Recipes launched", Self.done, "Recipe list refreshed: 7 recipes", line, Self.done])
            expectEqual(later.map(\.first), [1, 2, 4, 5], line)
            expectEqual(later.map(\.lines), [1, 2, 1, 1], line)
            expectEqual(later[2].family, family, line)
        }
        // The error's own continuation lines stay with it.
        let partial = try Self.records([
            Self.done,
            #"Sync failed: Error Domain=CKErrorDomain Code=2 "Failed to modify some records" UserInfo={CKPartialErrors={"#,
            #"    "<CKRecordID: 0x6000; recordName=PHOTO-77A1>" = "<CKError 0x60000341c90: \"Quota Exceeded\" (25/2035); server message = \"Quota exceeded\">";"#,
            "}, NSLocalizedDescription=Failed to modify some records}",
        ])
        expectEqual(partial.map(\.first), [1, 2])
        expectEqual(partial.map(\.lines), [1, 3])
        // A record with a header and its marker, followed by an app line without a header.
        let logShow = try Self.records([
            "2022-06-01 10:00:04.100000-0700 Recipes[905:1a2b] [CloudKit] CoreData+CloudKit: -[NSCloudKitMirroringDelegate checkAndExecuteNextRequest]_block_invoke(3569): <NSCloudKitMirroringDelegate: 0x600003d1c000>: No more requests to execute.",
            #"Event(type: export, succeeded: false, error: Optional(Error Domain=CKErrorDomain Code=10 "Permission Failure" UserInfo={NSLocalizedDescription=Permission Failure}))"#,
        ])
        expectEqual(logShow.map(\.first), [1, 2])
        expectEqual(logShow.last?.family, .ckError)
    }

    /// Core Data's own lines after its message stay in its record, whatever they hold.
    @Test func coreDataContinuationLinesStay() throws {
        let setUp = "CoreData: error: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1115): <NSCloudKitMirroringDelegate: 0x2830c8f00>: Failed to set up CloudKit integration for store: <NSSQLCore: 0x104e21c80> (URL: file:///var/mobile/Notebook.sqlite)"
        let kept: [[String]] = [
            // `%@\n%@`: the error as the value on the next line.
            [setUp, Self.quota],
            [setUp, #"Error Domain=CKErrorDomain Code=25 "Quota Exceeded" UserInfo={NSLocalizedDescription=Quota Exceeded}"#],
            // Inside the bracket the first line left open.
            [
                #"CoreData: error: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _finishedRequest:withResult:](3584): Finished request: <NSCloudKitMirroringExportRequest: 0x6000> with result: <NSCloudKitMirroringResult: 0x6000> storeIdentifier: 3E5A success: 0 madeChanges: 0 error: <CKError 0x60000345a0a0: "Partial Failure" (2/1011); "Failed to modify some records"; partial errors: {"#,
                "\tPHOTO-77A1:(com.apple.coredata.cloudkit.zone:__defaultOwner__) = " + Self.quota,
                "}>",
            ],
            // Values one after another (`%@\n%@\n%@`).
            [
                "CoreData: warning: CoreData+CloudKit: -[PFCloudKitExporter exportOperationFinished:withSavedRecords:deletedRecordIDs:operationError:](677): <PFCloudKitExporter: 0x6000>: Modify records finished: (",
                ")", "(", ")", Self.quota,
            ],
            // After a line that ends with a colon.
            ["CoreData: CloudKit: CoreData+CloudKit: -[PFCloudKitImporter _importFinishedWithResult:importer:](1280): <PFCloudKitImporter: 0x6000>: Import failed with error:", Self.quota],
            // The words on the line after an object's description alone, as the ubiquity
            // family prints them, and a value after an indented line.
            [
                "2016-03-02 09:14:07.318 Journal[412:60b] -[PFUbiquitySetupAssistant finishSetupForStore:error:](1012): CoreData: Ubiquity:  <PFUbiquitySetupAssistant: 0x15d4e0a0>",
                #"Error moving local log files to the ubiquity directory: Error Domain=NSCocoaErrorDomain Code=134080 "(null)" UserInfo={reason=Unable to create the ubiquity metadata directory}"#,
            ],
            [
                "2014-03-02 09:14:07.318 Journal[412:60b] -[PFUbiquitySetupAssistant finishSetupWithRetry:](930): CoreData: Ubiquity:  <PFUbiquitySetupAssistant: 0x15d4e0a0>",
                "\tstoreName: JournalStore: Retrying after delay: 60",
                #"Error Domain=NSCocoaErrorDomain Code=134080 "x" UserInfo={}"#,
            ],
            // The record's text on the lines after a header and a method alone.
            [
                "error\t14:14:20.441902-0700\tYourCoolApp\terror: CoreData+CloudKit:",
                "-[NSCloudKitMirroringDelegate _finishedRequest:withResult:](3584):",
                "Finished request: <NSCloudKitMirroringExportRequest: 0x6000> with result: <NSCloudKitMirroringResult: 0x6000> success: 0 error: " + Self.quota,
            ],
        ]
        for lines in kept {
            let records = try Self.records(lines)
            expectEqual(records.map(\.lines), [lines.count], "\(lines)")
        }
    }

    /// A first line that ends with a description after other words is text: the app's line
    /// after it is its own record.
    @Test func descriptionsAfterWordsAreText() throws {
        let saved = "CoreData: debug: CoreData+CloudKit: -[NSCloudKitMirroringDelegate managedObjectContextSaved:](3020): <NSCloudKitMirroringDelegate: 0x600003d1c000>: Observed context save: <NSPersistentStoreCoordinator: 0x600003c04000> - <NSManagedObjectContext: 0x600003a08340>"
        let records = try Self.records([saved, "SyncMonitor: export failed: " + Self.quota])
        expectEqual(records.map(\.first), [1, 2])
        expectEqual(records.last?.family, .ckError)
        func alone(_ text: String) -> Bool { Array(text.utf8).withUnsafeBufferPointer { RecordAssembler.isDescriptionAlone($0) } }
        expect(alone("<PFUbiquitySetupAssistant: 0x15d4e0a0>"))
        expect(alone("<A: 0x1; b = <B: 0x2>>"))
        expect(!alone("<A: 0x1>: Observed context save: <B: 0x2>"))
        expect(!alone("<A: 0x1> - <B: 0x2>"))
        expect(!alone("A <B: 0x2>"))
        expect(!alone("<A: 0x1"))
    }

    /// Brackets open after some lines; quotes hide none (an NSError's message is quoted with
    /// its own quotes unescaped).
    @Test func bracketDepth() {
        let cases: [(String, Int)] = [
            ("a (b) <c> {d} [e]", 0),
            ("partial errors: {", 1),
            ("error: <CKError 0x1: \"Partial Failure\" (2/1011); partial errors: {", 2),
            ("Code=134406 \"Request '<A: 0x1> B' was aborted due to error: <CKError 0x2: \"Partial Failure\"; partial errors: {", 2),
            ("\"<a quoted (bracket\" = 1;", 2),
            ("} ) > (", 1),
        ]
        for (text, depth) in cases {
            let bytes = Array(text.utf8)
            expectEqual(bytes.withUnsafeBufferPointer { RecordAssembler.depth(after: $0, from: 0) }, depth, text)
        }
    }
}
