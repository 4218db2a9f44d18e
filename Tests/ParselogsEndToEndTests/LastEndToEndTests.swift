// --last DURATION on the built binary: a file (its end read first) and the same bytes on
// standard input (records held) give the same output, in every header style with times.
import Foundation
import Testing
import TestSupport

@Suite struct LastEndToEndTests {
    /// Every header style with times: log show's default and ndjson styles (with offsets),
    /// Xcode's console (a year, no offset), a device console (syslog: no year), gzip.
    static let fixtures = ["logshow.log", "logshow.ndjson", "example.log", "device-console.log", "example.log.gz"]

    @Test(arguments: fixtures)
    func aFileAndAPipeGiveTheSameOutput(_ fixture: String) throws {
        let path = "fixtures/" + fixture
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Binary.fixture(fixture)))
        for last in ["1s", "1m", "1h30m"] {
            for format in ["text", "jsonl"] {
                let file = try Binary.run(["--last", last, "--format", format, "-v", path])
                let pipe = try Binary.run(["--last", last, "--format", format, "-v"], stdin: bytes)
                expect(file.stderr.isEmpty && pipe.stderr.isEmpty, "\(fixture) --last \(last): \(file.stderr) \(pipe.stderr)")
                expectEqual(file.status, pipe.status)
                expectEqual(file.stdout.replacing(path, with: "<stdin>"), pipe.stdout, "\(fixture) --last \(last) --format \(format)")
            }
        }
    }

    private func readRow(_ arguments: [String]) throws -> String {
        let result = try Binary.run(["-q"] + arguments)
        expect(result.stderr.isEmpty, "\(arguments): \(result.stderr)")
        return String(result.stdout.split(separator: "\n")[1])
    }

    /// fixtures/logshow.log ends at 10:01:10.000100+0200; 10:01:09.501234 is within a second of
    /// it, 10:01:02.130001 is not, nor the line before any time.
    @Test func theSpanEndsAtTheInputsLastTime() throws {
        let read = "  read             13 lines, 6 records from 1 input, "
        try expectEqual(readRow(["--last", "1s", "fixtures/logshow.log"]), read + "3 outside --last 1s")
        try expectEqual(readRow(["--last", "7s", "fixtures/logshow.log"]), read + "3 outside --last 7s")
        try expectEqual(readRow(["--last", "8s", "fixtures/logshow.log"]), read + "1 outside --last 8s")
        try expectEqual(readRow(["--last", "1d", "fixtures/logshow.log"]), read + "1 outside --last 1d", "the line before any time")
    }

    /// Each input is counted back from its own end: the two together pass over what each does alone.
    @Test func eachInputHasItsOwnEnd() throws {
        func outside(_ inputs: [String]) throws -> Int {
            let row = try readRow(["--last", "1s"] + inputs)
            return Int(row.split(separator: ",").last!.split(separator: " ")[0])!
        }
        let both = try outside(["fixtures/logshow.log", "fixtures/example.log"])
        expectEqual(both, (try outside(["fixtures/logshow.log"])) + (try outside(["fixtures/example.log"])))
        try expectEqual(outside(["fixtures/example.log"]), 23)
    }

    /// A live pipe: the records are held until its end (the span's end is not known before),
    /// then shown once each, whole, not as previews.
    @Test func aLivePipeShowsItsRecordsAtItsEnd() throws {
        let live = try LiveBinary(["--format", "jsonl", "--last", "1m"])
        live.write("2014-03-02 09:14:05.121 Journal[412:60b] UbiquityStoreManager: Will load cloud store.\n")
        live.write("2014-03-02 09:16:05.121 Journal[412:60b] UbiquityStoreManager: Successfully loaded cloud store.\n")
        expect(live.waitForInputToBeRead(timeout: 10))
        Thread.sleep(forTimeInterval: 0.6)  // three times the idle time after which a record is shown
        expect(!live.collected.text.contains("\"type\":\"record\""), "shown before the end: \(live.collected.text)")
        live.finish()
        let records = live.collected.text.split(separator: "\n").filter { $0.contains("\"type\":\"record\"") }
        expect(records.count == 1 && records[0].contains("\"line\":2") && !records[0].contains("amended"), "\(records)")
        expect(live.collected.text.contains("\"outsideTimeWindow\":1"))
    }

    @Test func aSpanThatIsNoDurationOrWithABoundIsAUsageError() throws {
        for bad in ["30", "0m", "1.5h", "30m1h", "yesterday"] {
            let result = try Binary.run(["--last", bad, "fixtures/logshow.log"])
            expectEqual(result.status, 2, "\(bad)")
            expect(result.stderr.contains("--last: '\(bad)' is not a duration like 30m"), "\(bad): \(result.stderr)")
        }
        for bound in [["--since", "10:00"], ["--until", "2016-09-30"]] {
            let result = try Binary.run(["--last", "30m"] + bound + ["fixtures/logshow.log"])
            expectEqual(result.status, 2)
            expect(result.stderr.contains("cannot be combined with --since or --until"), "\(result.stderr)")
        }
        let help = try Binary.run(["--help"]).stdout
        expect(help.contains("--last <duration>"))
    }
}
