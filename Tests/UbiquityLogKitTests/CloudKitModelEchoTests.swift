// Core Data's record of a store that failed to load for its model, then the app's print of the
// same error: one incident, which the timelines tell once (issue #42, item 5).
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct CloudKitModelEchoTests {
    static let catalog = Result { try Catalog.standard() }

    /// Core Data's `Store failed to load` record (lines 1 to 4).
    static let storeLoad = """
        2024-06-11 14:02:55.301022-0700 Pantry[3310:10a4b] CoreData: error: Store failed to load.  <NSPersistentStoreDescription: 0x600003b2c0c0> (type: SQLite, url: file:///tmp/Pantry.sqlite) with error = Error Domain=NSCocoaErrorDomain Code=134060 "A Core Data error occurred." UserInfo={NSLocalizedFailureReason=CloudKit integration requires that all relationships be optional, the following are not:
        Shelf: pantry} with userInfo {
            NSLocalizedFailureReason = "CloudKit integration requires that all relationships be optional, the following are not:\\nShelf: pantry";
        }
        """

    /// The app's print of an error with `entities` in its reason.
    static func appPrint(_ entities: String) -> String {
        """
        2024-06-11 14:02:55.302918-0700 Pantry[3310:10a4b] Unresolved error loading container Error Domain=NSCocoaErrorDomain Code=134060 "A Core Data error occurred." UserInfo={NSLocalizedFailureReason=CloudKit integration requires that all relationships be optional, the following are not:
        \(entities)}
        """
    }

    static func timeline(_ records: [String], verbosity: Int) throws -> [Substring] {
        let output = CapturedOutput()
        let reporter = TextReporter(output: output.writer, options: TextOptions(verbosity: verbosity))
        let run = LogRun(catalog: try catalog.get(), reporters: [reporter])
        var source = MemorySource(Array((records.joined(separator: "\n") + "\n").utf8))
        try run.process(&source, name: "pantry.log")
        _ = run.finish()
        return output.text.split(separator: "\n")
    }

    @Test func theAppsPrintOfTheFailureIsTheSameIncident() throws {
        let records = [Self.storeLoad, Self.appPrint("Shelf: pantry")]
        let quiet = try Self.timeline(records, verbosity: 0)
        expectEqual(quiet.filter { $0.contains("ERROR") }.count, 1, "\(quiet)")
        expect(quiet.contains { $0.contains("(pantry.log:1)") })
        expect(!quiet.contains { $0.contains("pantry.log:5") })
        // From -v the print has a line of its own that points to the first telling.
        let verbose = try Self.timeline(records, verbosity: 1)
        expectEqual(verbose.filter { $0.contains("ERROR") }.count, 1, "\(verbose)")
        expect(verbose.contains { $0.contains("printed again: the same incident as pantry.log:1  (pantry.log:5)") }, "\(verbose)")
    }

    @Test func anotherListOrAnotherLoadIsAnIncidentOfItsOwn() throws {
        let other = try Self.timeline([Self.storeLoad, Self.appPrint("Shelf: pantry\nBin: shelf")], verbosity: 0)
        expectEqual(other.filter { $0.contains("ERROR") }.count, 2, "\(other)")
        let twice = try Self.timeline([Self.storeLoad, Self.storeLoad], verbosity: 0)
        expectEqual(twice.filter { $0.contains("ERROR") }.count, 2, "\(twice)")
        // A print with no store-load record before it is the only telling.
        let alone = try Self.timeline([Self.appPrint("Shelf: pantry")], verbosity: 0)
        expectEqual(alone.filter { $0.contains("ERROR") }.count, 1, "\(alone)")
    }

    @Test func thePageMarksTheIncidentOnce() throws {
        let text = [Self.storeLoad, Self.appPrint("Shelf: pantry")].joined(separator: "\n") + "\n"
        let (html, _) = try HTMLReporterTests.page(Array(text.utf8), name: "pantry.log")
        let marks = try require(HTMLReporterTests.data(html)["marks"] as? [[Any]])
        let places = marks.compactMap { $0[4] as? String }
        expect(places.contains("pantry.log:1"), "\(places)")
        expect(!places.contains("pantry.log:5"), "\(places)")
    }

    /// Every record stays counted: the summary tells the cause once, reported twice.
    @Test func theSummaryStillCountsBothReports() throws {
        let summary = try summarize([("pantry.log", [Self.storeLoad, Self.appPrint("Shelf: pantry")].joined(separator: "\n") + "\n")])
        expectEqual(summary.unhandled, 0)
        expectEqual(summary.verdict, .broken)
    }
}
