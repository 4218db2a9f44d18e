// Minor faults of issue #41 at the edges of input: a bound's precision, a syslog window across
// New Year, a byte order mark, UTF-16 input.
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct InputEdgeTests {
    private func run(_ bytes: [UInt8], since: LogTime? = nil, until: LogTime? = nil) throws -> RunSummary {
        let run = LogRun(catalog: try Catalog.standard(), reporters: [])
        run.since = since
        run.until = until
        var source = MemorySource(bytes, chunkSize: 7)
        try run.process(&source, name: "edge.log")
        return run.finish()
    }

    private let storage = "CoreData: Ubiquity:  mobile~6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F11:JournalStore\nUsing local storage: 1"

    /// `--until …:03.123` passed over a record at `…:03.123456`: a bound given to a lower
    /// precision covers the whole of its unit.
    @Test func aBoundCoversTheWholeOfItsLastDigit() throws {
        let end = try require(LogTime(parsingEndOf: "2014-03-02 09:14:03.123"))
        expectEqual(end.microsecond, 123_999)
        expectEqual(LogTime(parsingEndOf: "2014-03-02 09:14:03.123456")?.microsecond, 123_456)
        expectEqual(LogTime(parsingEndOf: "2014-03-02 09:14:03.1")?.microsecond, 199_999)
        let log = ["09:14:03.123456", "09:14:03.123999", "09:14:03.124000"].map {
            "2014-03-02 \($0)+0100 Journal[412:60b] -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): \(storage)"
        }.joined(separator: "\n")
        let summary = try run(Array(log.utf8), until: end)
        expectEqual(summary.outsideTimeWindow, 1)
        expectEqual(summary.records, 3)
    }

    /// Syslog headers have no year: a window across New Year passed over every one.
    @Test func aSyslogWindowAcrossNewYearHoldsBothSides() throws {
        let log = ["Dec 30 23:59:59", "Dec 31 23:55:01", "Jan  1 00:05:00", "Jan  1 00:15:00"].map {
            "\($0) Joes-iPad Journal[412] <Warning>: -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): \(storage)"
        }.joined(separator: "\n")
        let summary = try run(Array(log.utf8), since: LogTime(parsing: "2014-12-31 23:50"), until: LogTime(parsingEndOf: "2015-01-01 00:10"))
        expectEqual(summary.records, 4)
        expectEqual(summary.outsideTimeWindow, 2, "Dec 30 and 00:15 lie outside; Dec 31 23:55 and Jan 1 00:05 inside")
        // A window of one year reads a yearless 29 February in no year that lacks it.
        let leap = "Feb 29 10:00:00 Joes-iPad Journal[412] <Warning>: hello"
        try expectEqual(run(Array(leap.utf8), since: LogTime(parsing: "2015-01-01"), until: LogTime(parsingEndOf: "2015-12-31")).outsideTimeWindow, 1)
        try expectEqual(run(Array(leap.utf8), since: LogTime(parsing: "2015-01-01"), until: LogTime(parsingEndOf: "2016-12-31")).outsideTimeWindow, 0)
    }

    /// A UTF-8 byte order mark hid the first line's header: its record had no process.
    @Test func aByteOrderMarkIsNoPartOfTheFirstLine() throws {
        let log = "\u{FEFF}2014-03-02 09:14:07.318 Journal[412:60b] -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): \(storage)\n"
        let summary = try run(Array(log.utf8))
        expectEqual(summary.lines, 2)
        expectEqual(summary.syncRecords, 1)
        expectEqual(summary.processes.map(\.process), ["Journal"])
        // In the middle of a log it is a character of its line, as before.
        let middle = try run(Array(("hello\n" + log).utf8))
        expectEqual(middle.lines, 3)
    }

    /// A UTF-16 log read as `no Core Data sync records` without a word about its encoding.
    @Test(arguments: [(true, true), (true, false), (false, true), (false, false)])
    func utf16InputIsNamedWithItsEncoding(marked: Bool, littleEndian: Bool) throws {
        let text = "2014-03-02 09:14:07.318 Journal[412:60b] -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): \(storage)\n"
        var bytes: [UInt8] = marked ? (littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]) : []
        for unit in text.utf16 { bytes += littleEndian ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let run = LogRun(catalog: try Catalog.standard(), reporters: [])
        var source = MemorySource(bytes, chunkSize: 5)
        let error = try #require(throws: InputError.self) { try run.process(&source, name: "phone-utf16.log") }
        expectEqual(error.input, "phone-utf16.log")
        expect(error.reason.hasPrefix("it is UTF-16 (\(littleEndian ? "little" : "big")-endian) text"), "\(error.reason)")
        expect(error.reason.contains("iconv -f UTF-16 -t UTF-8"))
        let summary = run.finish()
        expectEqual(summary.lines, bytes.filter { $0 == 0x0A }.count + (bytes.last == 0x0A ? 0 : 1), "every line is still counted")
        expectEqual(summary.verdict, .noEvidence)
        // ASCII with a few NULs is not UTF-16.
        let binary: [UInt8] = Array("2014-03-02 09:14:07.318 Journal[412:60b] x\0y\0 hello world".utf8)
        expectEqual(binary.withUnsafeBytes { TextEncoding(firstLine: $0) }, .utf8)
    }
}
