// A record without a marker is searched by the channels that read such records only where the
// prefilter (`UnmarkedPrefilter`) says one of their rules may match: it must say so of every
// message the full search recognises. Held over every rule's samples (whole and cut), the
// fixtures, and the benchmark's generated logs, the device console's included.
import Foundation
import Testing
import TestSupport
import ParselogsDevTools
@testable import UbiquityLogKit

@Suite struct UnmarkedPrefilterTests {
    /// The unmarked channels' searches, without the prefilter, and the prefilter.
    final class Searches {
        let searches: [ChannelSearch]
        let prefilter: UnmarkedPrefilter
        var checked = 0, recognised = 0, passed = 0

        init() throws {
            let catalog = try Catalog.standard()
            let compiled = catalog.allChannels.filter(\.readsUnmarked).compactMap { catalog.compiled($0) }
            searches = compiled.map { ChannelSearch($0, limits: .standard, readsFacts: { _ in true }) }
            prefilter = UnmarkedPrefilter(compiled.flatMap(\.rules))
        }

        /// Holds the prefilter to the full search on `message` (logged by `method`).
        func check(_ message: UnsafeRawBufferPointer, method: String? = nil) {
            let full = searches.contains { (try? $0.rule(in: message, method: method)) != nil }
            let wide = UnmarkedPrefilter.mayMatch(message, prefilter.tables)
            let narrow = UnmarkedPrefilter.mayMatch(message, prefilter.tables, narrow: true)
            expect(wide == narrow, "the two scans disagree: \(String(decoding: message, as: UTF8.self).prefix(300))")
            if full {
                expect(wide, "recognised, but the prefilter skips it: \(String(decoding: message, as: UTF8.self).prefix(300))")
            }
            checked += 1
            if full { recognised += 1 }
            if wide { passed += 1 }
        }

        func check(_ text: [UInt8]) { text.withUnsafeBytes { check($0) } }

        /// Every record of `text` as the reader and assembler make it: its message (marked or not).
        func checkRecords(of text: [UInt8]) throws {
            let reader = LineReader(limits: LogRun.Limits().lines)
            let assembler = RecordAssembler(input: "test.log", limits: LogRun.Limits().records)
            func check(_ record: Record?) {
                guard let record else { return }
                let bodyStart = min(record.bodyStart, record.text.count)
                record.text.withUnsafeBytes { self.check(UnsafeRawBufferPointer(rebasing: $0[bodyStart...]), method: record.string(.method)) }
            }
            var source = MemorySource(text)
            try reader.readLines(from: &source) { check(assembler.append($0)) }
            check(assembler.finish())
        }
    }

    @Test func skipsNoMessageTheSearchRecognises() throws {
        let searches = try Searches()
        expect(searches.prefilter.tables != nil, "the prefilter tells nothing")
        // Every sample as a message without its header, whole and cut at either end (texts at a
        // message's first and last bytes, and cut short there), and as a record.
        let samples = try Catalog.standard().rules.flatMap(\.samples)
        for sample in samples {
            let bytes = Array(sample.utf8)
            searches.check(bytes)
            for cut in Set([1, 7, bytes.count / 3]) where cut < bytes.count {
                searches.check(Array(bytes.dropFirst(cut)))
                searches.check(Array(bytes.dropLast(cut)))
            }
        }
        try searches.checkRecords(of: Array(samples.joined(separator: "\n").utf8))
        let fixtures = URL(fileURLWithPath: Binary.fixture(""))
        let logs = FileManager.default.enumerator(at: fixtures, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "log" } ?? []
        expect(logs.count >= 20, "\(logs.count) fixtures")
        for log in logs { try searches.checkRecords(of: [UInt8](Data(contentsOf: log))) }
        for generator in [try LogGenerator(seed: 1), try LogGenerator(seed: 2, recordBytes: 420), try LogGenerator(seed: 3, console: true)] {
            try searches.checkRecords(of: Array(LogGeneratorTests.text(generator, bytes: 1 << 19).text.utf8))
        }
        expect(searches.recognised > 500, "\(searches.recognised) of \(searches.checked) messages recognised")
    }

    /// The point of it: a device console's lines of other processes are not searched.
    @Test func passesFewOfAConsolesOtherLines() throws {
        let searches = try Searches()
        let lines = LogGenerator.consoleLines.map { $0.replacingOccurrences(of: "%N", with: "42").replacingOccurrences(of: "%A", with: "7fe3a1c0") }
        for line in lines { searches.check(Array(line.utf8)) }
        expectEqual(searches.recognised, 0)
        expect(searches.passed * 8 <= lines.count, "\(searches.passed) of \(lines.count) lines searched")
    }
}
