// A live pipe (a device console streaming into parselogs): a complete record shows up while
// the pipe is still open, without waiting for the next record to begin.
import Foundation
import Testing
import TestSupport

@Suite struct LiveInputTests {
    @Test func aRecordIsShownWhileThePipeStaysOpen() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["--format", "jsonl"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let seen = DispatchSemaphore(value: 0)
        let collected = Collected()
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if collected.append(data).contains("store-load-started") { seen.signal() }
        }
        input.fileHandleForWriting.write(Data("2014-03-02 09:14:05.121 Journal[412:60b] UbiquityStoreManager: Will load cloud store.\n".utf8))
        // Generous: the flush comes after a fraction of a second; a loaded CI machine is slow.
        let arrived = seen.wait(timeout: .now() + 10) == .success
        #expect(arrived, "the record was not shown while the pipe was open; got: \(collected.text)")
        #expect(process.isRunning, "parselogs must still be reading")

        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        #expect(process.terminationStatus == 0)
    }
}

/// Output collected from another thread.
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func append(_ more: Data) -> String {
        lock.lock(); defer { lock.unlock() }
        data.append(more)
        return String(decoding: data, as: UTF8.self)
    }

    var text: String {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}
