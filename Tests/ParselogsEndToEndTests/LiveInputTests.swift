// A live pipe (a device console streaming into parselogs): a complete record shows up while
// the pipe is still open, without waiting for the next record to begin.
import Foundation
import Testing
import TestSupport

@Suite struct LiveInputTests {
    @Test func aRecordIsShownWhileThePipeStaysOpen() throws {
        let live = try LiveBinary(["--format", "jsonl"])
        live.write("2014-03-02 09:14:05.121 Journal[412:60b] UbiquityStoreManager: Will load cloud store.\n")
        // Generous: the flush comes after a fraction of a second; a loaded CI machine is slow.
        let arrived = live.waitForOutput(containing: "store-load-started", timeout: 10)
        expect(arrived, "the record was not shown while the pipe was open; got: \(live.collected.text)")
        expect(live.process.isRunning, "parselogs must still be reading")
        expectEqual(live.finish(), 0)
    }

    /// A writer that pauses inside a record, past the idle time: the lines it writes after the
    /// pause still belong to the record. The pause is made by waiting for the record to be
    /// shown, not by a clock.
    @Test func aContinuationAfterAPauseStaysWithItsRecord() throws {
        let live = try LiveBinary(["--format", "jsonl"])
        live.write("2014-03-02 09:15:44.807 Journal[412:4e13] -[_PFUbiquityRecordsImporter operation:failedWithError:](1489): CoreData: Ubiquity:  Import operation encountered had trouble importing log file, Error Domain=NSCocoaErrorDomain Code=134302 \"The operation couldn’t be completed. (Cocoa error 134302.)\" UserInfo=0x15e9a2c0 {reason=Could not read the transaction log}\n")
        let shown = live.waitForOutput(containing: "import-failed", timeout: 10)
        try require(shown, "the record was not shown at the pause; got: \(live.collected.text)")
        live.write(" User Info: {\n    reason = \"Could not read the transaction log\";\n}\n")
        live.write(" The log file is at: /var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs/mobile~A3D19B52-7E0C-4F8A-B1D6-5C2E9F04A7B3/JournalStore/6F0D0A1E-8C55-4F4C-9C3A-1D2E3F4A5B6C/DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.1.cdt.\n")
        expectEqual(live.finish(), 1)
        let objects = live.collected.text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let records = objects.filter { $0["type"] as? String == "record" }
        // However the writes fell around idle times, the last record shown is the whole one.
        let last = try require(records.last)
        expect(last["line"] as? Int == 1 && last["lines"] as? Int == 5)
        expect(records.count == 1 || last["amended"] as? NSNumber == true)
        expectEqual((last["fields"] as? [String: Any])?["log"] as? String, "DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.1.cdt")
        expect(records.allSatisfy { $0["line"] as? Int == 1 }, "no line of the record became a record of its own")
        let summary = try require(objects.last)
        expectEqual(summary["records"] as? Int, 1)
        expectEqual(((summary["families"] as? [String: Any])?["ubiquity"] as? [String: Any])?["importFailures"] as? Int, 1)
        expectEqual(summary["verdict"] as? String, "broken")
    }
}
