// Each channel's search does work that grows with a message's length (issue #41), timed as
// in LinearScanTests.swift.
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct ChannelSearchScanTests {
    /// Every channel's search, after each kind of prefix, on long runs of blanks, tabs, colons,
    /// brackets and letters: `Title:` and 400,000 blanks took 20 s in the store manager's
    /// (its tag's blanks were given back one by one, rules tried after each).
    @Test func eachShapesSearchIsLinearOnLongRuns() throws {
        let catalog = try Catalog.standard()
        let prefixes = ["", "Title:", "[USM]", "[com.apple.coredata:CloudKit]", "<Obj: 0x1>:", "<Obj: 0x1> -", "a.b-c:"]
        let runs = [" ", "\t", ":", "[", "]", "a", " :", "a ", ": ", "[a] "]
        var shapes: Set<String> = []
        var slow: [String] = []
        for compiled in catalog.channels {
            shapes.insert("\(compiled.channel.shape)")
            let search = ChannelSearch(compiled, limits: .standard, readsFacts: { _ in true })
            for prefix in prefixes {
                for run in runs {
                    func message(_ bytes: Int) -> [UInt8] { Array((prefix + String(repeating: run, count: bytes / run.utf8.count) + "x").utf8) }
                    let (_, short, long) = try Timing.ratio(short: message(25_000), long: message(100_000), bound: 8) { bytes in
                        _ = try search.first(in: bytes)
                    }
                    // Most runs take a millisecond or less, where two cores shared with other
                    // tests alone make a ratio of 11 (a probe of 25 KB to 1.6 MB grew by 4 each
                    // time): a ratio counts from 50 ms on (the quadratic runs took 2 to 3.6 s).
                    if long >= 0.05, long / max(short, 1e-9) >= 8 { slow.append("\(compiled.channel) \(prefix.debugDescription) + \(run.debugDescription): 25 KB \(short) s, 100 KB \(long) s") }
                }
            }
        }
        expectEqual(shapes.count, 4, "\(shapes)")
        expect(slow.isEmpty, "\(slow.joined(separator: "\n"))")
    }
}
