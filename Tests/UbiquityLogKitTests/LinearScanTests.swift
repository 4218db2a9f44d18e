// Work that grows with a message's length, not with its square (issue #41): each scan is
// timed on a short and a longer input, in turns, each keeping its best time in the thread's
// CPU time, so that a stall of the machine does not make the ratio.
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

enum Timing {
    /// The calling thread's CPU time, in seconds: on a shared machine, time spent waiting for a
    /// CPU is not the work's.
    static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The best of `runs` timings of `body`, in seconds of the thread's CPU time.
    static func best(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let start = cpuSeconds()
            try body()
            best = min(best, cpuSeconds() - start)
        }
        return best
    }

    /// How much longer `long` takes than `short`. The two are timed in turns, each keeping its
    /// best time, until the ratio is below `bound` or five rounds are done: a busy spell of a
    /// shared machine (caches, the other core's work) slows one round, not all five.
    static func ratio(bound: Double, short: () throws -> Void, long: () throws -> Void) rethrows -> (ratio: Double, short: Double, long: Double) {
        var small = Double.infinity, large = Double.infinity, ratio = Double.infinity
        for _ in 0..<5 where ratio >= bound {
            small = min(small, try best(1, short))
            large = min(large, try best(1, long))
            // Below a millisecond both are noise: a floor keeps the ratio meaningful.
            ratio = max(large, 0.001) / max(small, 0.000_25)
        }
        return (ratio, small, large)
    }

    /// `ratio` of `body` on the bytes of `short` and of `long`.
    static func ratio(short: [UInt8], long: [UInt8], bound: Double, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows -> (ratio: Double, short: Double, long: Double) {
        try ratio(bound: bound, short: { try short.withUnsafeBytes(body) }, long: { try long.withUnsafeBytes(body) })
    }
}

@Suite struct CKErrorScanTests {
    /// `<CKError 0x1: "x` repeated: each description's quoted name ran to the line's end and
    /// failed, and failures did not count toward the cap: 256 KB took 1.6 s, 1 MB 27 s.
    @Test(arguments: [#"<CKError 0x1: "x"#, #"<CKError 0x1: "x"; z "#, #"<CKError 0x1: \"x"#, "<CKError 0x1: "])
    func descriptionsAreReadInLinearTime(unit: String) {
        func line(_ bytes: Int) -> [UInt8] { Array(String(repeating: unit, count: bytes / unit.utf8.count).utf8) }
        // Eight times the length: linear work takes about 8 times as long, quadratic 64. Lengths
        // of 128 KB and more, where the work no longer fits a cache: 64 to 256 KB took 8 times
        // as long in a debug build, 256 KB to 1 MB 4.5 times.
        let (ratio, short, long) = Timing.ratio(short: line(128 << 10), long: line(1 << 20), bound: 24) { bytes in
            _ = CloudKitErrors.report(in: bytes)
        }
        expect(ratio < 24, "128 KB: \(short) s, 1 MB: \(long) s")
    }
}
