// Times that cannot exist are not times: a time bound is refused, a header's time is left out
// (the header still starts its record), and a clock going backwards gives no duration.
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct TimeValidityTests {
    @Test func boundsMustBeDaysThatExist() {
        for bad in ["2014-02-31", "2014-02-29", "2014-13-01", "2014-00-10", "2014-04-31", "2014-03-02 24:00", "2014-03-02 09:60"] {
            expect(LogTime(parsing: bad) == nil, "\(bad)")
        }
        for good in ["2016-02-29", "2000-02-29", "2014-12-31 23:59:60", "2014-04-30"] {
            expect(LogTime(parsing: good) != nil, "\(good)")
        }
        expect(LogTime(parsing: "1900-02-29") == nil, "1900 was no leap year")
    }

    @Test func aHeaderWithAnImpossibleTimeStartsARecordWithoutATime() throws {
        let records = try assemble("""
            2014-13-45 99:99:99.999 Journal[412:60b] UbiquityStoreManager: Will load cloud store.
            2014-03-02 09:14:05.121 Journal[412:60b] UbiquityStoreManager: Will load cloud store.
            """)
        expectEqual(records.count, 2)
        expect(records[0].header != nil && records[0].header?.time == nil)
        expectEqual(records[1].header?.time?.iso8601, "2014-03-02T09:14:05.121")
    }

    @Test func anOffsetOutOfRangeIsNoTime() throws {
        let line = "0x2f1c     Default     0x0                  412    0    Journal: UbiquityStoreManager: Successfully loaded cloud store."
        for (offset, expected) in [("+0200", "2016-09-30T10:01:02.130001+02:00"), ("-0930", "2016-09-30T10:01:02.130001-09:30"),
                                   ("+9999", nil), ("+0060", nil), ("+1500", nil)] {
            let records = try assemble("2016-09-30 10:01:02.130001\(offset) \(line)")
            expectEqual(records.first?.header?.time?.iso8601, expected, "\(offset)")
        }
    }

    @Test func aClockGoingBackwardsGivesNoDuration() throws {
        let summary = try summarize([(name: "back.log", text: """
            2014-03-02 09:14:10.000 Journal[412:60b] UbiquityStoreManager: Will load cloud store.
            2014-03-02 09:14:04.700 Journal[412:60b] UbiquityStoreManager: Successfully loaded cloud store.
            2014-03-02 09:14:20.000 Journal[412:60b] UbiquityStoreManager: Will load cloud store.
            2014-03-02 09:14:20.500 Journal[412:60b] UbiquityStoreManager: Successfully loaded cloud store.
            """)])
        expectEqual(summary.ubiquity.storeLoadAttempts.map(\.durationMilliseconds), [nil, 500])
    }
}
