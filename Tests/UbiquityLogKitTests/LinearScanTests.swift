// Work that grows with a message's length, not with its square (issue #41): each scan is
// timed on a short and a four-times-longer input; linear work takes about four times as long,
// quadratic sixteen. The short input is timed several times and its best time kept, so that a
// stall of the machine does not make the ratio.
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

    /// How much longer `body` takes on `long` than on `short` (a quarter of its length).
    static func ratio(short: [UInt8], long: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows -> (ratio: Double, short: Double, long: Double) {
        let small = try short.withUnsafeBytes { bytes in try best(4) { try body(bytes) } }
        let large = try long.withUnsafeBytes { bytes in try best(2) { try body(bytes) } }
        // Below a millisecond both are noise: a floor keeps the ratio meaningful.
        return (max(large, 0.001) / max(small, 0.000_25), small, large)
    }
}

@Suite struct CKErrorScanTests {
    /// `<CKError 0x1: "x` repeated: each description's quoted name ran to the line's end and
    /// failed, and failures did not count toward the cap: 256 KB took 1.6 s, 1 MB 27 s.
    @Test(arguments: [#"<CKError 0x1: "x"#, #"<CKError 0x1: "x"; z "#, #"<CKError 0x1: \"x"#, "<CKError 0x1: "])
    func descriptionsAreReadInLinearTime(unit: String) {
        func line(_ bytes: Int) -> [UInt8] { Array(String(repeating: unit, count: bytes / unit.utf8.count).utf8) }
        let (ratio, short, long) = Timing.ratio(short: line(64 << 10), long: line(256 << 10)) { bytes in
            _ = CloudKitErrors.report(in: bytes)
        }
        #expect(ratio < 8, "64 KB: \(short) s, 256 KB: \(long) s")
    }
}
