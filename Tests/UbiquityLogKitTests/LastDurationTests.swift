// --last DURATION: the span as written, times compared across New Year and offsets, and the
// same records read whether the input's end is read first (a file) or found by holding
// records (a pipe).
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct LastDurationTests {
    @Test func aSpanIsWholeNumbersWithUnitsLargestFirst() throws {
        for (text, seconds) in [("30m", 1800), ("2h", 7200), ("90s", 90), ("1d", 86_400), ("1h30m", 5400), ("1d2h3m4s", 93_784), ("0h5m", 300)] {
            expectEqual(LastDuration(parsing: text)?.microseconds, Int64(seconds) * 1_000_000, "\(text)")
        }
        for bad in ["30", "0s", "", "m", "30m2h", "1h1h", "1.5h", "-1h", "30 m", "1w", "h30", "99999999999d"] {
            expect(LastDuration(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func timesWithoutAYearAreTheNearestAcrossNewYear() throws {
        let end = LogTime(year: nil, month: 1, day: 1, hour: 0, minute: 10, second: 0)
        let before = LogTime(year: nil, month: 12, day: 31, hour: 23, minute: 50, second: 0)
        expectEqual(LastDuration.microseconds(from: before, to: end), 20 * 60_000_000)
        expectEqual(LastDuration.microseconds(from: end, to: before), -20 * 60_000_000)
        let span = try require(LastDuration(parsing: "30m"))
        expect(span.contains(before, end: end))
        expect(!span.contains(LogTime(year: nil, month: 12, day: 31, hour: 23, minute: 30, second: 0), end: end))
    }

    @Test func timesWithOffsetsAreComparedAsInstants() throws {
        // Summer time begins: 02:00+0100 is followed by 03:00+0200, the same instant.
        let winter = LogTime(year: 2016, month: 3, day: 27, hour: 1, minute: 59, second: 0, utcOffsetMinutes: 60)
        let summer = LogTime(year: 2016, month: 3, day: 27, hour: 3, minute: 1, second: 0, utcOffsetMinutes: 120)
        expectEqual(LastDuration.microseconds(from: winter, to: summer), 2 * 60_000_000)
    }

    private static let storage = "CoreData: Ubiquity:  mobile~6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F11:JournalStore\nUsing local storage: 1"

    /// Records a second or more apart from 09:00:00, some of more lines, a line before any
    /// time, one record without a header, and the last line without a newline.
    static func log(records: Int) -> String {
        var lines = ["a paste before any header"]
        for index in 0..<records {
            let second = index * 7 % 60, minute = index * 7 / 60
            let time = "2014-03-02 09:\(minute < 10 ? "0" : "")\(minute):\(second < 10 ? "0" : "")\(second).250"
            lines.append("\(time) Journal[412:60b] -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): \(storage)")
            if index % 5 == 3 { lines.append("CoreData: Ubiquity: a record without a header of its own") }
        }
        return lines.joined(separator: "\n")
    }

    private struct Outcome: Equatable {
        var shown: [Int]
        var records: Int
        var outside: Int
        var lines: Int
    }

    private func read(_ text: String, last: String, fromFile: Bool, threads: Bool, heldBytes: Int = 64 << 20) throws -> (Outcome, InputError?) {
        var limits = LogRun.Limits()
        limits.lastHeldBytes = heldBytes
        limits.batchRecords = 3
        let spans = SpanCollector()
        let run = LogRun(catalog: try Catalog.standard(), reporters: [spans], limits: limits)
        run.usesThreads = threads
        let span: LastDuration = try require(LastDuration(parsing: last))
        run.last = span
        var failure: InputError?
        let folder = try ScratchFolder("last")
        do {
            if fromFile {
                let path = try folder.write("last.log", Data(text.utf8))
                var source = try FileDescriptorSource(path: path)
                defer { source.close() }
                try run.process(&source, name: "last.log", descriptor: source.descriptor)
            } else {
                var source = MemorySource(text, chunkSize: 97)
                try run.process(&source, name: "last.log")
            }
        } catch let error as InputError {
            failure = error
        }
        let summary = run.finish()
        return (Outcome(shown: spans.spans.map(\.first), records: summary.records, outside: summary.outsideTimeWindow, lines: summary.lines), failure)
    }

    /// A file's end read first and a pipe's records held give the same records.
    @Test func aFileAndAPipeReadTheSameRecords() throws {
        let text = LastDurationTests.log(records: 60)
        for last in ["1s", "7s", "30s", "1m", "5m", "1h"] {
            for threads in [false, true] {
                let (file, fileFailure) = try read(text, last: last, fromFile: true, threads: threads)
                let (pipe, pipeFailure) = try read(text, last: last, fromFile: false, threads: threads)
                expect(fileFailure == nil && pipeFailure == nil)
                expectEqual(file, pipe, "--last \(last), threads \(threads)")
                expectEqual(file.records, 1 + 60 + 12, "every record counted: \(last)")
                expectEqual(file.lines, 1 + 120 + 12)
                expectEqual(file.records - file.outside, file.shown.count, "what is not outside is shown: \(last)")
            }
        }
    }

    /// Each record shown is inside, each record not shown is outside: judged from the text.
    @Test func theShownRecordsAreExactlyThoseInsideTheSpan() throws {
        let text = LastDurationTests.log(records: 40)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // 40 records: the last at 09:04:33.250.
        let end = 4 * 60 + 33
        for (fromFile, last) in [(true, "45s"), (false, "45s"), (true, "2m"), (false, "2m")] {
            let span = try require(LastDuration(parsing: last)).microseconds / 1_000_000
            let (outcome, _) = try read(text, last: last, fromFile: fromFile, threads: true)
            var lastSecond: Int?
            var inside: [Int] = []
            for (index, line) in lines.enumerated() {
                if line.hasPrefix("2014") {
                    let clock = line.split(separator: " ")[1].split(separator: ":")
                    lastSecond = Int(clock[1])! * 60 + Int(Double(clock[2])!)
                }
                let startsRecord = index == 0 || line.hasPrefix("2014") || line.hasPrefix("CoreData")
                if startsRecord, let second = lastSecond, end - second <= span { inside.append(index + 1) }
            }
            expectEqual(outcome.shown, inside, "--last \(last), from a file: \(fromFile)")
        }
    }

    /// A pipe whose span holds more than the run holds: the input is reported, and each of its
    /// records is counted as passed over.
    @Test func aPipeBeyondTheHeldBytesIsReportedNotCut() throws {
        let text = LastDurationTests.log(records: 60)
        let (outcome, failure) = try read(text, last: "1h", fromFile: false, threads: true, heldBytes: 4000)
        let error = try require(failure)
        expect(error.reason.contains("--last 1h"), "\(error)")
        expect(error.reason.contains("4000 bytes"))
        expect(outcome.shown.isEmpty)
        expect(outcome.records == 73 && outcome.outside == 73)
        // The same log from a file holds nothing: its end is read first.
        let (file, fileFailure) = try read(text, last: "1h", fromFile: true, threads: true, heldBytes: 4000)
        expect(fileFailure == nil && file.outside == 1)
    }

    /// A file's end read in blocks of any size finds the same time, also when its last line is
    /// longer than the reader keeps: a text header at its start, an NDJSON event's timestamp in
    /// its tail.
    @Test func aFilesEndIsFoundWhateverTheBlocksAndLines() throws {
        let long = String(repeating: "x", count: 300)
        let header = "2014-03-02 09:14:07.318 Journal[412:60b] UbiquityStoreManager: "
        let event = { (time: String, message: String) in
            "{\"eventMessage\":\"UbiquityStoreManager: \(message)\",\"timestamp\":\"2016-09-30 10:01:\(time)+0200\"}"
        }
        let cases: [(text: String, format: InputFormat, second: Int?)] = [
            ("\(header)one\n\(header.replacing("07.318", with: "09.000"))two\nmore\r\n", .auto, 9),
            ("\(header)\(long)", .auto, 7),
            ("no time\nat all\n", .auto, nil),
            ("", .auto, nil),
            ([event("02.500000", "a"), event("03.500000", long), ""].joined(separator: "\n"), .auto, 3),
            // The latest of the last block (of 64 KiB) that has a time, not the last line's.
            ([event("02.500000", "a"), event("01.500000", "b")].joined(separator: "\n"), .ndjson, 2),
        ]
        let folder = try ScratchFolder("last-end")
        let parser = HeaderParser()
        for (index, test) in cases.enumerated() {
            let path = try folder.write("\(index).log", Data(test.text.utf8))
            let file = try FileDescriptorSource(path: path)
            defer { file.close() }
            for block in test.second == 2 ? [1 << 16] : [1, 2, 7, 64, 1 << 16] {
                let found = InputEnd.latestTime(descriptor: file.descriptor, format: test.format, parser: parser,
                                                limits: LineReader.Limits(maxLineLength: 100, tailLength: 120), blockSize: block)
                let time = try require(found, "a regular file")
                expectEqual(time?.second, test.second, "case \(index), blocks of \(block)")
            }
        }
    }

    /// Syslog headers have no year: a log across New Year keeps its last minutes of December.
    @Test func aSyslogLogAcrossNewYear() throws {
        let text = ["Dec 31 23:45:00", "Dec 31 23:55:00", "Jan  1 00:05:00"].map {
            "\($0) Joes-iPad Journal[412] <Warning>: -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): \(LastDurationTests.storage)"
        }.joined(separator: "\n")
        for fromFile in [true, false] {
            let (outcome, _) = try read(text, last: "10m", fromFile: fromFile, threads: false)
            expectEqual(outcome.shown, [3, 5], "from a file: \(fromFile)")
            expectEqual(outcome.outside, 1)
        }
    }
}
