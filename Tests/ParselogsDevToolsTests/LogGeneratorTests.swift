// The benchmark's log generator (scripts/gen-log): its default mix stays the log figures are
// measured on, and its long mix makes records of the length asked for that a run reads as it
// reads the default mix's.
import Testing
import TestSupport
import ParselogsDevTools
import UbiquityLogKit

@Suite struct LogGeneratorTests {
    /// A long-mix generator, made once: making one runs every dump past the catalogue.
    static let longMix: LogGenerator? = try? LogGenerator(seed: 1, recordBytes: 420)

    /// The first `bytes` bytes a generator writes (records cut at that length).
    static func text(_ generator: LogGenerator, bytes: Int) -> (text: String, bases: String, records: Int) {
        var generator = generator
        var text = "", bases = ""
        var records = 0
        while text.utf8.count < bytes {
            let record = generator.next()
            text += record.text
            bases += record.base
            records += record.records
        }
        return (text, bases, records)
    }

    /// FNV-1a, 64 bits.
    static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// The hash is that of the first MiB `parselogs-gen-log 8 1` writes with the catalogue's
    /// samples as they are (computed apart from this code). If this fails, the default mix changed (a new
    /// catalogue sample does it): a log generated now no longer matches the one earlier figures
    /// were measured on. If that is meant, say so in the commit and update the hash.
    @Test func defaultMixIsUnchanged() throws {
        let generator = try LogGenerator(seed: 1)
        let (text, _, _) = Self.text(generator, bytes: 1 << 20)
        expectEqual(Self.fnv1a(text.utf8.prefix(1 << 20)), 0x4214_624E_FFDC_9B06)
    }

    @Test func defaultMixAddsNothingAndDependsOnTheSeed() throws {
        var one = try LogGenerator(seed: 1), again = try LogGenerator(seed: 1), other = try LogGenerator(seed: 2)
        var differs = false
        for _ in 0..<200 {
            let record = one.next()
            expect(record.extra.isEmpty)
            expectEqual(record, again.next())
            if record != other.next() { differs = true }
        }
        expect(differs)
    }

    /// The console mix: a reader counts the records the generator says, about one in twenty
    /// is the synced app's (the default mix's), and the system processes' lines come in the
    /// three header styles.
    @Test func consoleMixIsMostlyOtherProcessesLines() throws {
        let generator = try LogGenerator(seed: 1, console: true)
        let (text, _, records) = Self.text(generator, bytes: 1 << 19)
        let summary = try summarize([(name: "console.log", text: text)])
        expectEqual(summary.records, records)
        let lines = text.split(separator: "\n")
        let system = lines.filter { line in LogGenerator.consoleProcesses.contains { line.contains("\($0.0)[\($0.1)") || line.contains(" \($0.0): ") } }
        // Each system process's line is a record of its own; the rest are the app's.
        let share = 1 - Double(system.count) / Double(records)
        expect(share > 0.03 && share < 0.08, "\(share) of the records not the system processes'")
        expect(system.contains { $0.contains("<Notice>: ") } && system.contains { $0.contains("     Default     ") }
                && system.contains { $0.hasPrefix("2014-") && $0.contains(":") && !$0.contains("Default") })
        expect(summary.syncRecords > 0 && summary.syncRecords < records / 10)
        expectEqual(Self.text(try LogGenerator(seed: 1, console: true), bytes: 1 << 19).text, text)
    }

    @Test func longMixAveragesTheLengthAskedForAsAReaderCountsRecords() throws {
        let generator = try require(Self.longMix)
        let (text, _, records) = Self.text(generator, bytes: 1 << 20)
        let summary = try summarize([(name: "long.log", text: text)])
        // The generator's own count of records is the run's.
        expectEqual(summary.records, records)
        let average = Double(text.utf8.count) / Double(summary.records)
        expect(average >= 420 * 0.9 && average <= 420 * 1.1, "\(average) bytes a record")
        expectEqual(summary.unhandled, 0)
    }

    /// The dumps make records longer and change nothing a run makes of them: the same records,
    /// kinds, sync records and none unhandled.
    @Test func longMixDumpsChangeNoRecordsKind() throws {
        let generator = try require(Self.longMix)
        let (text, bases, _) = Self.text(generator, bytes: 1 << 19)
        expect(text.utf8.count > bases.utf8.count + (1 << 17))
        let withDumps = try summarize([(name: "long.log", text: text)])
        let without = try summarize([(name: "long.log", text: bases)])
        expectEqual(withDumps.records, without.records)
        expectEqual(withDumps.syncRecords, without.syncRecords)
        expect(withDumps.unhandled == 0 && without.unhandled == 0)
        expectEqual(withDumps.countsByKind, without.countsByKind)
    }

    @Test func longMixIsTheSameForTheSameSeed() throws {
        let first = try require(Self.longMix)
        let second = try LogGenerator(seed: 1, recordBytes: 420)
        expectEqual(Self.text(first, bytes: 1 << 16).text, Self.text(second, bytes: 1 << 16).text)
        let other = try LogGenerator(seed: 2, recordBytes: 420)
        expect(Self.text(first, bytes: 1 << 16).text != Self.text(other, bytes: 1 << 16).text)
    }

    @Test(arguments: LogGenerator.longAppLines)
    func longAppLinesAreAppLines(line: String) throws {
        let text = "2014-03-02 09:14:07.318 Journal[412:60b] " + line.replacing("%A", with: "15e53120").replacing("%N", with: "12")
            .replacing("%U", with: "2E4F6A8C-0B1D-4E3F-9A5B-7C9D1E3F5A7B").replacing("%P", with: LogGenerator.peers[0])
            .replacing("%S", with: LogGenerator.stores[0]).replacing("%C", with: "4C1F2E3D-5A6B-4C7D-8E9F-0A1B2C3D4E5F") + "\n"
        let summary = try summarize([(name: "app.log", text: text)])
        expectEqual(summary.records, 1)
        expectEqual(summary.syncRecords, 0)
    }
}
