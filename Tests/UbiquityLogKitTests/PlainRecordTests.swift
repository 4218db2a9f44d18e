import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

/// Most lines of a device console are other processes' lines that no rule reads: the reader
/// finds them plain (`RecordEntry.isPlain`), the classifier makes each the app's line without
/// lending its record, and the summary finds their process groups by their bytes
/// (`GroupsByBytes`). What a run makes of them is what the full path makes.
@Suite struct PlainRecordTests {
    static let console = [
        "Mar  2 09:14:00 Joes-iPad CommCenter[80] <Notice>: task_for_pid(905) succeeded",
        "Mar  2 09:14:00 Joes-iPad locationd[71] <Notice>: <SBApplication: 0x65fc096b; com.example.journal> state changed to 3",
        "2014-03-02 09:14:00.001000+0100 0x1782     Default     0x0                  62    0    backboardd: Connection to APNS established, 390 topics",
        "2014-03-02 09:14:00.019 dasd[119:644] Location icon should now be in state 'Inactive'",
        #"Mar  2 09:14:01 Joes-iPad Journal[412] <Error>: Sync failed: <CKError 0x600000c9c060: "Quota Exceeded" (25/2035); server message = "Quota exceeded"; op = 9A1C3E5B7D0F2A4C>"#,
        "2014-03-02 09:14:01.069 Journal[412:60b] -[_PFUbiquityRecordsExporter shouldRespondToSaveNotification:](318): CoreData: Ubiquity:  Exporter: <_PFUbiquityRecordsExporter: 0x15d6a0f0>",
        "Mar  2 09:14:02 Joes-iPad CommCenter[80] <Notice>: AppleBCMWLANCore: powering on, 96 ms",
    ]

    /// Whether each record the assembler closes is plain, in order; `recognises`: with the
    /// classifier that tells it the app's lines, as in a run.
    static func plainness(_ lines: [String], recognises: Bool = true) throws -> [Bool] {
        let catalog = try Catalog.standard()
        let assembler = RecordAssembler(input: "console.log", ownLines: recognises ? Classifier(catalog: catalog) : nil)
        let reader = LineReader()
        var source = MemorySource(Array(lines.joined(separator: "\n").utf8), chunkSize: 1 << 16)
        var plain: [Bool] = []
        try reader.readLines(from: &source) { line in
            if case .entry? = assembler.appendLine(line) { plain.append(assembler.closedEntry.isPlain) }
        }
        if case .entry? = assembler.close() { plain.append(assembler.closedEntry.isPlain) }
        return plain
    }

    /// Lines of no marker whose message no rule may match are plain; a marked record, and an
    /// unmarked one that holds a rule's text (a CKError), are not. Without the classifier's
    /// prefilter, nothing is known to be plain.
    @Test func plainRecordsAreTheUnmarkedOnesNoRuleMayMatch() throws {
        expectEqual(try Self.plainness(Self.console), [true, true, true, true, false, false, true])
        expectEqual(try Self.plainness(Self.console, recognises: false), Array(repeating: false, count: Self.console.count))
    }

    /// The console with the plain records' shortcut (each made the app's line with no look at
    /// its record), on three threads and on one, gives the records, kinds and summary it gives
    /// without (every record classified); with a time window, which reads each record's time,
    /// the shortcut is not taken and the same holds.
    @Test func theShortcutChangesNothing() throws {
        let text = (0..<40).map { Self.console[$0 % Self.console.count] }.joined(separator: "\n")
        func run(threads: Bool, shortcut: Bool = true, since: LogTime? = nil) throws -> (RunSummary, [String]) {
            var limits = LogRun.Limits()
            limits.batchRecords = 3
            let keeper = KindRecorder()
            let logRun = LogRun(catalog: try Catalog.standard(), reporters: [keeper], limits: limits)
            logRun.usesThreads = threads
            logRun.takesPlainShortcuts = shortcut
            logRun.since = since
            var source = MemorySource(Array(text.utf8), chunkSize: 64)
            try logRun.process(&source, name: "console.log")
            return (logRun.finish(), keeper.kinds)
        }
        let (full, fullKinds) = try run(threads: false, shortcut: false)
        for threads in [false, true] {
            let (shortcut, shortcutKinds) = try run(threads: threads)
            expectEqual(shortcutKinds, fullKinds)
            expectEqual(shortcut.records, full.records)
            expectEqual(shortcut.syncRecords, full.syncRecords)
            expectEqual(shortcut.processCount, full.processCount)
            expectEqual(shortcut.countsByKind, full.countsByKind)
            expectEqual(shortcut.verdict, full.verdict)
            expectEqual(shortcut.processes.map(\.pids), full.processes.map(\.pids))
        }
        let since = LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 1)
        let (windowed, windowedKinds) = try run(threads: true, since: since)
        let (windowedFull, windowedFullKinds) = try run(threads: false, shortcut: false, since: since)
        expectEqual(windowedKinds, windowedFullKinds)
        expectEqual(windowed.outsideTimeWindow, windowedFull.outsideTimeWindow)
    }

    /// The text timeline is shown runs of plain records where their entries lie
    /// (`PlainRunReader`), on three threads and on one, where without the shortcuts it reads
    /// each record: it writes the same bytes, at each verbosity, in colour or not, under a filter of kinds, and with gaps
    /// between plain records only (the rule above the next line shown says how long).
    @Test func theTimelineReadsPlainRunsAsItReadsRecords() throws {
        let seconds = [0, 0, 1, 4, 4, 9, 9, 9, 30, 31]
        var lines: [String] = []
        for index in 0..<60 {
            // Each line of the console again, in its header style, at a time of its own.
            var line = Self.console[index % Self.console.count]
            let second = seconds[index % seconds.count] + index / seconds.count * 40
            if let clock = line.range(of: #"09:14:0\d"#, options: .regularExpression) {
                line.replaceSubrange(clock, with: String(format: "09:%02d:%02d", 14 + second / 60, second % 60))
            }
            lines.append(line)
        }
        let text = lines.joined(separator: "\n")
        func render(_ options: TextOptions, threads: Bool, shortcut: Bool = true, kinds: Set<String>? = nil) throws -> String {
            var limits = LogRun.Limits()
            limits.batchRecords = 4
            let file = tmpfile()
            defer { fclose(file) }
            let output = OutputWriter(descriptor: fileno(file))
            let logRun = LogRun(catalog: try Catalog.standard(), reporters: [TextReporter(output: output, options: options)], limits: limits)
            logRun.usesThreads = threads
            logRun.threadsAlways = threads
            logRun.takesPlainShortcuts = shortcut
            if let kinds { logRun.filter = try DisplayFilter(kinds: kinds) }
            // Below `-v`, or where the filter shows no app's line, the runs are not lent.
            expectEqual(logRun.countsPlainAlone, shortcut && (options.verbosity < 1 || kinds?.contains("app") == false))
            var source = MemorySource(Array(text.utf8), chunkSize: 256)
            try logRun.process(&source, name: "console.log")
            _ = logRun.finish()
            output.flush()
            rewind(file)
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while case let count = fread(&buffer, 1, buffer.count, file), count > 0 { bytes += buffer[0..<count] }
            return String(decoding: bytes, as: UTF8.self)
        }
        for options in [TextOptions(), TextOptions(color: true), TextOptions(verbosity: 1), TextOptions(verbosity: 2, showUnhandled: false)] {
            for kinds: Set<String>? in [nil, ["app"], ["cloudkit-quota-exceeded"]] {
                let full = try render(options, threads: false, shortcut: false, kinds: kinds)
                for threads in [false, true] {
                    expectEqual(try render(options, threads: threads, kinds: kinds), full, "verbosity \(options.verbosity), kinds \(kinds ?? []), threads \(threads)")
                }
                if options.verbosity == 0, kinds == nil { expect(full.contains("s later ---"), full) }
            }
        }
    }

    /// Groups found by their bytes: every name held is found again with its group and process,
    /// through the table's growth; an emptied table finds none.
    @Test func groupsAreFoundByTheirBytes() {
        var table = GroupsByBytes()
        let names = (0..<300).map { "process\($0)" } + ["a", "ab", "abc", "abcd", "abcdefgh", "abcdefghijklmnop"]
        func key(_ name: String) -> KeptText.Key? {
            Array(name.utf8).withUnsafeBytes { KeptText($0).key }
        }
        for (group, name) in names.enumerated() {
            let key = key(name)!
            expect(table.find(key) == nil, name)
            table.insert(key, group: group, process: name)
        }
        expectEqual(table.count, names.count)
        for (group, name) in names.enumerated() {
            let found = table.find(key(name)!)
            expectEqual(found?.group, group, name)
            expectEqual(found?.process, name, name)
        }
        table.removeAll()
        expectEqual(table.count, 0)
        expect(names.allSatisfy { table.find(key($0)!) == nil })
    }
}

/// The kind of every record a run reports, in order.
private final class KindRecorder: Reporter {
    var kinds: [String] = []
    func report(_ item: ClassifiedRecord) { kinds.append("\(item.record.firstLine) \(item.classification.event.kind.id)") }
    func finish(_ summary: RunSummary) {}
}
