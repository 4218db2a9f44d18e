// --since and --until with a header's own timestamp (fraction and UTC offset) and with a time
// of day, on the built binary.
import Testing
import TestSupport

@Suite struct TimeBoundEndToEndTests {
    /// fixtures/logshow.log: records at 10:01:02.123456, 10:01:02.130001, 10:01:09.501234,
    /// 10:01:10.000000 and 10:01:10.000100 (+0200), after a line with no time.
    private func outside(_ arguments: [String]) throws -> String {
        let result = try Binary.run(["-q"] + arguments + ["fixtures/logshow.log"])
        expect(result.stderr.isEmpty, "\(arguments): \(result.stderr)")
        return String(result.stdout.split(separator: "\n")[1])
    }

    @Test func aHeadersOwnTimestampIsABound() throws {
        let read = "  read             13 lines, 6 records from 1 input, "
        try expectEqual(outside(["--since", "2016-09-30 10:01:09.501234+0200"]), read + "3 outside --since/--until")
        try expectEqual(outside(["--since", "2016-09-30 08:01:09.501234Z"]), read + "3 outside --since/--until", "the same instant in UTC")
        try expectEqual(outside(["--since", "2016-09-30 10:01:09.501234+02:00"]), read + "3 outside --since/--until")
        try expectEqual(outside(["--until", "2016-09-30 09:01:02.130001+0100"]), read + "3 outside --since/--until")
    }

    @Test func aTimeOfDayIsOnTheLogsDay() throws {
        let read = "  read             13 lines, 6 records from 1 input, "
        try expectEqual(outside(["--since", "10:01:09"]), read + "3 outside --since/--until")
        try expectEqual(outside(["--since", "10:01", "--until", "10:01:09"]), read + "3 outside --since/--until")
        try expectEqual(outside(["--until", "10:00"]), read + "5 outside --since/--until", "the line before any time is kept without a lower bound")
        let swapped = try Binary.run(["--since", "10:02", "--until", "10:01", "fixtures/logshow.log"])
        expectEqual(swapped.status, 2, "an empty window of two times of day is refused")
        try expectEqual(Binary.run(["--since", "25:00", "fixtures/logshow.log"]).status, 2)
    }
}
