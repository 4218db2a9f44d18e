// Properties that hold for any input, checked on seeded random logs: every line is counted
// once, records tile the input, nothing traps, and the output depends only on the input.
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit
#if canImport(Glibc)
import Glibc
#endif

/// SplitMix64: small, seedable, the same sequence on every machine.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random logs: real sample records and fixture lines, cut, spliced, mixed with random bytes.
enum RandomLog {
    static let pieces: [[UInt8]] = {
        var pieces = Catalog.standardRules.flatMap(\.samples).map { Array($0.utf8) }
        pieces += ["", "\r", "\t\tlocalPeerID: x", "})", "CoreData: Ubiquity:", "2014-03-02 09:14:07.318 J[1:2] ",
                   "Mar  2 09:14:07 pad J[1] <Notice>: ", "UbiquityStoreManager: Will load cloud store."].map { Array($0.utf8) }
        return pieces
    }()

    static func make(_ generator: inout SeededGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 0...40, using: &generator) {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<6:
                var piece = pieces.randomElement(using: &generator) ?? []
                if Bool.random(using: &generator), !piece.isEmpty {
                    piece = Array(piece.prefix(Int.random(in: 0...piece.count, using: &generator)))
                }
                bytes += piece
            case 6..<8:
                bytes += (0..<Int.random(in: 0...30, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            default:
                bytes += [0x0A, 0x0D, 0x00, 0xFF, 0xC0].randomElement(using: &generator).map { [$0] } ?? []
            }
            if Int.random(in: 0..<3, using: &generator) > 0 { bytes.append(0x0A) }
        }
        return bytes
    }
}

/// Collects the spans of the records a run reports.
final class SpanCollector: Reporter {
    var spans: [(first: Int, count: Int, kind: String)] = []
    func report(_ item: ClassifiedRecord) { spans.append((item.record.firstLine, item.record.lineCount, item.event.kind.id)) }
    func finish(_ summary: RunSummary) {}
}

/// What a record holds: its bytes as they are (no decoding that could make two texts one),
/// its place and its header, compared field by field (`Header.==`).
struct RecordSnapshot: Equatable {
    var text: [UInt8]
    var firstLine: Int
    var lineCount: Int
    var bodyStart: Int
    var isTruncated: Bool
    var revision: Revision
    var header: Header?
}

/// Keeps every third record it is shown, with what the record held when it was shown.
final class RecordKeeper: Reporter {
    var kept: [(record: Record, seen: RecordSnapshot)] = []
    private var shown = 0
    static func snapshot(_ record: Record) -> RecordSnapshot {
        RecordSnapshot(text: record.text.withUnsafeBytes { Array($0) }, firstLine: record.firstLine, lineCount: record.lineCount,
                       bodyStart: record.bodyStart, isTruncated: record.isTruncated, revision: record.revision, header: record.header)
    }
    func report(_ item: ClassifiedRecord) {
        shown += 1
        if shown % 3 == 1 { kept.append((item.record, Self.snapshot(item.record))) }
    }
    func finish(_ summary: RunSummary) {}
}

@Suite struct PropertyTests {
    static let seeds: [UInt64] = Array(1...300)

    private func run(_ bytes: [UInt8], chunkSize: Int, output: Int32? = nil, threads: Bool = true, batchRecords: Int = 512)
        throws -> (RunSummary, [(first: Int, count: Int, kind: String)]) {
        var limits = LogRun.Limits()
        limits.batchRecords = batchRecords
        limits.lines = LineReader.Limits(chunkSize: chunkSize, maxLineLength: Self.maxLineLength)
        limits.records = RecordAssembler.Limits(maxLines: 9, maxBytes: 600)
        let collector = SpanCollector()
        var reporters: [Reporter] = [collector]
        if let output {
            reporters.append(TextReporter(output: OutputWriter(descriptor: output), options: TextOptions(verbosity: 3, color: true)))
            reporters.append(JSONLinesReporter(output: OutputWriter(descriptor: output)))
        }
        let logRun = LogRun(catalog: try Catalog.standard(), reporters: reporters, limits: limits)
        logRun.usesThreads = threads
        var source = MemorySource(bytes, chunkSize: chunkSize)
        try logRun.process(&source, name: "random.log")
        return (logRun.finish(), collector.spans)
    }

    /// The longest line these tests keep whole: short, so that overlong lines are cut often.
    static let maxLineLength = 200

    /// The lines `run` reads in `bytes`: each ends at an LF, and at a CR too where the first
    /// 64 KiB (or `maxLineLength` bytes, when fewer) and a byte hold no LF and a CR before
    /// another byte (the classic Mac OS's line ends).
    static func expectedLines(_ bytes: [UInt8]) -> Int {
        let window = bytes.prefix(min(LineReader.LineEnds.window, maxLineLength) + 1)
        let crEnds = !window.contains(0x0A) && window.firstIndex(of: 0x0D).map { $0 + 1 < window.count } == true
        let ends = bytes.filter { $0 == 0x0A || (crEnds && $0 == 0x0D) }.count
        return ends + (bytes.isEmpty || bytes.last == 0x0A || (crEnds && bytes.last == 0x0D) ? 0 : 1)
    }

    @Test(arguments: seeds)
    func linesAreCountedOnceAndRecordsTileTheInput(seed: UInt64) throws {
        var generator = SeededGenerator(state: seed)
        let bytes = RandomLog.make(&generator)
        let chunkSize = Int.random(in: 1...64, using: &generator)
        let (summary, spans) = try run(bytes, chunkSize: chunkSize)

        expectEqual(summary.lines, Self.expectedLines(bytes))
        expectEqual(summary.records, spans.count)
        var next = 1
        for span in spans {
            expectEqual(span.first, next, "seed \(seed)")
            expect(span.count >= 1)
            next += span.count
        }
        expectEqual(next - 1, summary.lines, "seed \(seed)")
        // The same input read in other chunk sizes gives the same records and events.
        let (_, again) = try run(bytes, chunkSize: 4096)
        expectEqual(again.map(\.kind), spans.map(\.kind), "seed \(seed)")
        expectEqual(again.map(\.first), spans.map(\.first), "seed \(seed)")
    }

    @Test(arguments: seeds.prefix(40))
    func outputIsTheSameEveryTime(seed: UInt64) throws {
        var generator = SeededGenerator(state: seed)
        let bytes = RandomLog.make(&generator)
        let first = try render(bytes)
        expect(!first.isEmpty)
        try expectEqual(render(bytes), first, "seed \(seed)")
    }

    /// Reading, classifying and summarising on three threads, with batches of any size, gives
    /// byte for byte what one thread gives.
    @Test(arguments: seeds.prefix(60))
    func threadsChangeNothing(seed: UInt64) throws {
        var generator = SeededGenerator(state: seed)
        let bytes = RandomLog.make(&generator)
        let batch = Int.random(in: 1...9, using: &generator)
        let alone = try render(bytes, threads: false)
        try expectEqual(render(bytes, threads: true, batchRecords: batch), alone, "seed \(seed), batches of \(batch)")
        let (summary, spans) = try run(bytes, chunkSize: 5, threads: true, batchRecords: batch)
        let (expected, expectedSpans) = try run(bytes, chunkSize: 5, threads: false)
        expectEqual(spans.map(\.first), expectedSpans.map(\.first), "seed \(seed)")
        expectEqual(spans.map(\.kind), expectedSpans.map(\.kind), "seed \(seed)")
        expect(summary.records == expected.records && summary.lines == expected.lines)
    }

    /// A record a reporter keeps is its own: the stages lend one `Record` object, loaded with
    /// each record in turn (`RecordLender`), and must make another once a call kept it. Every
    /// third record is kept and read again after the run, on one thread and on three.
    @Test(arguments: seeds.prefix(40))
    func keptRecordsStayAsTheyWere(seed: UInt64) throws {
        var generator = SeededGenerator(state: seed)
        let bytes = RandomLog.make(&generator)
        for threads in [false, true] {
            var limits = LogRun.Limits()
            limits.batchRecords = Int.random(in: 1...9, using: &generator)
            let keeper = RecordKeeper()
            let logRun = LogRun(catalog: try Catalog.standard(), reporters: [keeper], limits: limits)
            logRun.usesThreads = threads
            var source = MemorySource(bytes, chunkSize: 5)
            try logRun.process(&source, name: "random.log")
            _ = logRun.finish()
            expect(!keeper.kept.isEmpty || bytes.isEmpty, "seed \(seed)")
            for (record, seen) in keeper.kept {
                expectEqual(RecordKeeper.snapshot(record), seen, "seed \(seed), threads \(threads)")
            }
        }
    }

    /// A record is a range of the chunk its lines were read into when they lie one after
    /// another there, and a copy otherwise (`RecordAssembler`): both give the same records. The
    /// same lines, copied before they reach the assembler, take the copying path alone. CR LF
    /// line ends (moved together by the reader), overlong lines, the caps, and (with the large
    /// input) lines cut by a chunk's end.
    @Test(arguments: seeds.prefix(120))
    func recordsAreTheSameAsRangesAndAsCopies(seed: UInt64) throws {
        var generator = SeededGenerator(state: seed)
        var bytes = RandomLog.make(&generator)
        if seed % 2 == 0 { bytes = bytes.flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] } }
        if seed % 10 == 0 {
            // Over two of the reader's chunks (1 MiB each).
            while bytes.count < 2_300_000 { bytes += RandomLog.make(&generator) + [0x0A] }
        }
        let chunkSize = seed % 10 == 0 ? Int.random(in: 1000...70_000, using: &generator) : Int.random(in: 1...64, using: &generator)
        let lineLimits = LineReader.Limits(chunkSize: chunkSize, maxLineLength: Self.maxLineLength)
        let recordLimits = RecordAssembler.Limits(maxLines: 9, maxBytes: 600)

        func assemble(copyingLines: Bool) throws -> [RecordSnapshot] {
            let reader = LineReader(limits: lineLimits)
            let assembler = RecordAssembler(input: "random.log", limits: recordLimits)
            var source = MemorySource(bytes, chunkSize: chunkSize)
            var records: [RecordSnapshot] = []
            try reader.readLines(from: &source) { line in
                let closed = copyingLines
                    ? Array(line.bytes).withUnsafeBytes { assembler.append(Line(bytes: $0, number: line.number, isTruncated: line.isTruncated)) }
                    : assembler.append(line)
                if let closed { records.append(RecordKeeper.snapshot(closed)) }
            }
            if let last = assembler.finish() { records.append(RecordKeeper.snapshot(last)) }
            return records
        }
        let ranges = try assemble(copyingLines: false)
        expect(!ranges.isEmpty || bytes.isEmpty)
        expectEqual(ranges, (try assemble(copyingLines: true)), "seed \(seed), chunks of \(chunkSize)")
    }

    /// What the text and JSON Lines reporters write for `bytes`.
    private func render(_ bytes: [UInt8], threads: Bool = true, batchRecords: Int = 512) throws -> [UInt8] {
        let file = tmpfile()
        defer { fclose(file) }
        let descriptor = fileno(file)
        _ = try run(bytes, chunkSize: 7, output: descriptor, threads: threads, batchRecords: batchRecords)
        var output: [UInt8] = []
        lseek(descriptor, 0, SEEK_SET)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            output += buffer[0..<count]
        }
        return output
    }

    /// Hostile inputs kept in fixtures/fuzz/ (and any crash the fuzzer finds, once added).
    static let fuzzFixtures: [String] = {
        let folder = Binary.packageRoot.appendingPathComponent("fixtures/fuzz").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }()

    @Test func fuzzFixturesExist() { expect(Self.fuzzFixtures.count >= 5) }

    @Test(arguments: fuzzFixtures)
    func fuzzFixturesKeepTheInvariants(name: String) throws {
        let path = Binary.packageRoot.appendingPathComponent("fixtures/fuzz/\(name)").path
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        for chunkSize in [1, 2, 3, 5, 8, 4096] {
            let (summary, spans) = try run(bytes, chunkSize: chunkSize)
            expectEqual(summary.lines, Self.expectedLines(bytes), "\(name)")
            expectEqual(spans.reduce(0) { $0 + $1.count }, summary.lines, "\(name)")
        }
    }
}
