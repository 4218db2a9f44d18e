// The calls whose spelling differs between Darwin and glibc (Sources/UbiquityLogKit/Platform):
// a signal's handler set, read back and reset; a thread started, joined, and cut short in
// read(2) by a signal sent to its number; the processors a process may run on. Each
// platform's build runs its own branch.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CByteScan
import Foundation
import Synchronization
import Testing
@testable import UbiquityLogKit
import TestSupport

// SIGUSR2, which nothing else in the tests or the tool uses; the two tests take turns with it.
@Suite(.serialized) struct PlatformTests {
    static let caught = Atomic<Int32>(0)

    @Test func aSignalsHandlerIsSetReadBackAndReset() {
        defer { SignalDisposition.set(SIGUSR2, to: SIG_DFL) }
        var previous = Self.unblockUSR2()
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        SignalDisposition.set(SIGUSR2, to: SIG_IGN)
        expect(SignalDisposition.isIgnored(SIGUSR2))
        raise(SIGUSR2)  // ignored: the process goes on

        Self.caught.store(0, ordering: .sequentiallyConsistent)
        SignalDisposition.set(SIGUSR2, to: { signal in PlatformTests.caught.store(signal, ordering: .sequentiallyConsistent) })
        expect(!SignalDisposition.isIgnored(SIGUSR2))
        raise(SIGUSR2)  // delivered to this thread before raise returns
        expectEqual(Self.caught.load(ordering: .sequentiallyConsistent), SIGUSR2)

        SignalDisposition.set(SIGUSR2, to: SIG_DFL)
        expect(!SignalDisposition.isIgnored(SIGUSR2))
    }

    @Test func aThreadBlockedInReadIsCutShortBySignallingItsNumber() throws {
        // Caught without SA_RESTART, as Interruption catches Ctrl-C: read(2) returns EINTR.
        SignalDisposition.set(SIGUSR2, to: { _ in })
        defer { SignalDisposition.set(SIGUSR2, to: SIG_DFL) }
        var ends: [Int32] = [-1, -1]
        try require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let shared = Shared()
        let readEnd = ends[0]
        let thread = try require(SystemThread.start {
            _ = PlatformTests.unblockUSR2()
            shared.number.store(SystemThread.currentNumber, ordering: .sequentiallyConsistent)
            var byte: UInt8 = 0
            let count = read(readEnd, &byte, 1)
            shared.error.store(count < 0 ? errno : 0, ordering: .sequentiallyConsistent)
            shared.done.store(true, ordering: .sequentiallyConsistent)
        })
        var waited = 0
        while shared.number.load(ordering: .sequentiallyConsistent) == 0, waited < 10_000 {
            usleep(1_000)
            waited += 1
        }
        let number = shared.number.load(ordering: .sequentiallyConsistent)
        expect(number != 0)
        expect(number != SystemThread.currentNumber)
        // A signal that lands before the thread is in read(2) is lost: send it until read returns
        // (ten seconds at most; then a byte ends the read, and the test fails).
        var sent = 0
        while !shared.done.load(ordering: .sequentiallyConsistent), sent < 500, number != 0 {
            SystemThread.signal(number, SIGUSR2)
            usleep(20_000)
            sent += 1
        }
        let interrupted = shared.done.load(ordering: .sequentiallyConsistent)
        if !interrupted {
            var byte: UInt8 = 0
            _ = write(ends[1], &byte, 1)
        }
        pthread_join(thread, nil)
        expect(interrupted, "the signal did not reach the thread")
        expectEqual(shared.error.load(ordering: .sequentiallyConsistent), EINTR)
    }

    /// Test threads (libdispatch's) start with most signals blocked; a blocked signal waits
    /// instead of running its handler. Returns the mask before.
    static func unblockUSR2() -> sigset_t {
        var set = sigset_t()
        var previous = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGUSR2)
        pthread_sigmask(SIG_UNBLOCK, &set, &previous)
        return previous
    }

    private final class Shared: Sendable {
        let number = Atomic<UInt>(0)
        let error = Atomic<Int32>(-1)
        let done = Atomic<Bool>(false)
    }
}

/// The processors the run counts (`LogRun.processors`) are the ones the system lets this
/// process use: on Linux those of its affinity mask, as the kernel lists them in
/// /proc/self/status (`taskset -c 0 swift test` gives 1); elsewhere the processors online.
@Suite struct ProcessorTests {
    @Test func theUsableProcessorsAreTheAllowedOnes() throws {
        let usable = Int(cbytescan_usable_processors())
        expect(usable >= 1)
        expectEqual(LogRun.processors, usable)
#if os(Linux)
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        let allowed = line.dropFirst("Cpus_allowed_list:".count).split(separator: ",").map { range -> Int in
            let ends = range.split(separator: "-").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return ends.count == 2 ? ends[1] - ends[0] + 1 : 1
        }.reduce(0, +)
        expectEqual(usable, allowed)
#else
        expectEqual(usable, Int(sysconf(_SC_NPROCESSORS_ONLN)))
#endif
    }
}
