// The plain lines of a device console are read in C (`cbytescan_plain_run`), in runs, and go
// to the batch as the entries the assembler would make of them. What the run takes must be
// what the reader, the header parser and the assembler make: a record of one line, plain, with
// the same header (style, time, process, pid, thread, device, level), text and body. Held over
// the fixtures and the benchmark's generated logs, the device console's included; and a run
// that takes them gives the summary and the records the full path gives.
import CByteScan
import Foundation
import Testing
import TestSupport
import ParselogsDevTools
@testable import UbiquityLogKit

@Suite struct PlainRunTests {
    /// A record as the assembler closed it, or as the run made it.
    struct Made: Equatable {
        var lineCount: Int
        var text: [UInt8]
        var bodyStart: Int
        var isPlain: Bool
        var head: String
    }

    /// Holds `cbytescan_plain_run` to the reader and assembler on `text`; returns the lines it
    /// took and the lines in all.
    static func check(_ text: [UInt8], name: String) throws -> (taken: Int, lines: Int) {
        let catalog = try Catalog.standard()
        let ownLines = Classifier(catalog: catalog, readsFacts: { _ in false }, readsDetails: { _ in false })
        let parser = HeaderParser()
        let limits = LogRun.Limits()
        let reader = LineReader(limits: limits.lines)
        let assembler = RecordAssembler(input: name, parser: parser, limits: limits.records, ownLines: ownLines)
        var made: [Int: Made] = [:]
        func keep() {
            let entry = assembler.closedEntry
            made[entry.firstLine] = Made(lineCount: entry.lineCount, text: Array(UnsafeBufferPointer(start: entry.origin, count: entry.count)),
                                         bodyStart: entry.bodyStart, isPlain: entry.isPlain, head: "\(String(describing: entry.head))")
        }
        var source = MemorySource(text)
        try reader.readLines(from: &source) { line in
            if case .entry? = assembler.appendLine(line) { keep() }
        }
        if case .entry? = assembler.close() { keep() }

        var rules = cbytescan_plain_rules(prefilter: ownLines.prefilterTables, allowed_styles: parser.allowedStyleBits,
                                          max_line: min(limits.lines.maxLineLength, limits.records.maxBytes),
                                          marker_window: LooseMarkers.window)
        expect(rules.prefilter != nil)
        var taken = 0
        var lines = 0
        text.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            let out = UnsafeMutablePointer<cbytescan_plain_line>.allocate(capacity: 512)
            defer { out.deallocate() }
            var at = 0
            var number = 1
            while at < bytes.count {
                var next = 0
                let count = cbytescan_plain_run(base + at, bytes.count - at, &rules, out, 512, &next)
                for index in 0..<count {
                    let line = out + index
                    let start = at + Int(line.pointee.start)
                    let run = Made(lineCount: 1, text: Array(bytes[start..<start + Int(line.pointee.count)]),
                                   bodyStart: Int(line.pointee.body_start), isPlain: true,
                                   head: "\(String(describing: RecordHead?(RecordHead(plain: line))))")
                    expectEqual(made[number + index], run, "\(name) line \(number + index): \(String(decoding: run.text, as: UTF8.self))")
                }
                if count > 0 {
                    taken += count
                    lines += count
                    number += count
                    at += next
                } else {
                    let end = (at..<bytes.count).first { bytes[$0] == 0x0A } ?? bytes.count
                    at = end + 1
                    number += 1
                    lines += 1
                }
            }
        }
        return (taken, lines)
    }

    @Test func takesWhatTheAssemblerMakesPlain() throws {
        let fixtures = URL(fileURLWithPath: Binary.fixture(""))
        let logs = FileManager.default.enumerator(at: fixtures, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "log" } ?? []
        expect(logs.count >= 20, "\(logs.count) fixtures")
        var fixtureTaken = 0
        for log in logs { fixtureTaken += try Self.check([UInt8](Data(contentsOf: log)), name: log.lastPathComponent).taken }
        expect(fixtureTaken > 0)
        for generator in [try LogGenerator(seed: 1), try LogGenerator(seed: 2, recordBytes: 420)] {
            _ = try Self.check(Array(LogGeneratorTests.text(generator, bytes: 1 << 18).text.utf8), name: "generated")
        }
        let console = try Self.check(Array(LogGeneratorTests.text(try LogGenerator(seed: 3, console: true), bytes: 1 << 19).text.utf8),
                                     name: "console")
        // The point of it: most of a console's lines are taken.
        expect(console.taken * 10 >= console.lines * 8, "\(console.taken) of \(console.lines) lines taken")
    }

    /// Runs that read plain lines in C (on the stage threads and on one) and one that does
    /// not give the same summary and show the same records.
    @Test func runsChangeNothing() throws {
        let text = Array(LogGeneratorTests.text(try LogGenerator(seed: 4, console: true), bytes: 1 << 19).text.utf8)
        func run(threads: Bool, shortcut: Bool = true, quiet: Bool) throws -> (RunSummary, [String]) {
            let keeper = LineRecorder()
            let logRun = LogRun(catalog: try Catalog.standard(), reporters: quiet ? [] : [keeper])
            logRun.usesThreads = threads
            logRun.takesPlainShortcuts = shortcut
            var source = MemorySource(text, chunkSize: 1 << 16)
            try logRun.process(&source, name: "console.log")
            return (logRun.finish(), keeper.lines)
        }
        let (alone, aloneLines) = try run(threads: false, shortcut: false, quiet: false)
        expect(aloneLines.count > 1000)
        for (threads, quiet) in [(true, false), (true, true), (false, false), (false, true)] {
            let (threaded, threadedLines) = try run(threads: threads, quiet: quiet)
            if !quiet { expectEqual(threadedLines, aloneLines) }
            expectEqual(threaded.lines, alone.lines)
            expectEqual(threaded.records, alone.records)
            expectEqual(threaded.syncRecords, alone.syncRecords)
            expectEqual(threaded.processCount, alone.processCount)
            expectEqual(threaded.countsByKind, alone.countsByKind)
            expectEqual(threaded.verdict, alone.verdict)
            expectEqual("\(threaded.processes)", "\(alone.processes)")
            expectEqual("\(threaded.findings)", "\(alone.findings)")
        }
    }
}

/// Every record a run shows: its first line, line count, kind, process, pid and time.
private final class LineRecorder: Reporter {
    var lines: [String] = []
    func report(_ item: ClassifiedRecord) {
        let record = item.record
        lines.append("\(record.firstLine) \(record.lineCount) \(item.classification.event.kind.id) \(record.string(.process) ?? "-") "
                     + "\(record.pid ?? -1) \(String(describing: record.time)) \(record.bodyStart) \(record.text.count)")
    }
    func finish(_ summary: RunSummary) {}
}
