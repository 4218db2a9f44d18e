// Work that grows with a message's length, not with its square (issue #41): each scan is
// timed on a short and a longer input, in turns, each keeping its best time, so that a stall
// of the machine does not make the ratio.
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

enum Timing {
    /// The best of `runs` timings of `body`, in seconds.
    static func best(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let start = ContinuousClock.now
            try body()
            let elapsed = ContinuousClock.now - start
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return best
    }

    /// How much longer `body` takes on `long` than on `short`. The two are timed in turns,
    /// each keeping its best time, until the ratio is below `bound` or five rounds are done:
    /// a busy spell of a shared machine slows one round, not all five.
    static func ratio(short: [UInt8], long: [UInt8], bound: Double, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows -> (ratio: Double, short: Double, long: Double) {
        var small = Double.infinity, large = Double.infinity, ratio = Double.infinity
        for _ in 0..<5 where ratio >= bound {
            small = min(small, try short.withUnsafeBytes { bytes in try best(1) { try body(bytes) } })
            large = min(large, try long.withUnsafeBytes { bytes in try best(1) { try body(bytes) } })
            // Below a millisecond both are noise: a floor keeps the ratio meaningful.
            ratio = max(large, 0.001) / max(small, 0.000_25)
        }
        return (ratio, small, large)
    }
}

@Suite struct CKErrorScanTests {
    /// `<CKError 0x1: "x` repeated: each description's quoted name ran to the line's end and
    /// failed, and failures did not count toward the cap: 256 KB took 1.6 s, 1 MB 27 s.
    @Test(arguments: [#"<CKError 0x1: "x"#, #"<CKError 0x1: "x"; z "#, #"<CKError 0x1: \"x"#, "<CKError 0x1: "])
    func descriptionsAreReadInLinearTime(unit: String) {
        func line(_ bytes: Int) -> [UInt8] { Array(String(repeating: unit, count: bytes / unit.utf8.count).utf8) }
        // Eight times the length: linear work takes about 8 times as long, quadratic 64.
        let (ratio, short, long) = Timing.ratio(short: line(32 << 10), long: line(256 << 10), bound: 24) { bytes in
            _ = CloudKitErrors.report(in: bytes)
        }
        #expect(ratio < 24, "32 KB: \(short) s, 256 KB: \(long) s")
    }
}
