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
        #expect(arrived, "the record was not shown while the pipe was open; got: \(live.collected.text)")
        #expect(live.process.isRunning, "parselogs must still be reading")
        #expect(live.finish() == 0)
    }
}
