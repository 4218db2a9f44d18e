// --since and --until as users write them: a header's own timestamp with its UTC offset, and
// a time of day on the input's day.
import Testing
@testable import UbiquityLogKit
import TestSupport

@Suite struct TimeBoundParsingTests {
    @Test func aHeadersTimestampWithItsOffsetIsABound() throws {
        for (text, offset) in [("2016-09-30 10:01:02.123456+0200", 120), ("2016-09-30 10:01:02.123456+02:00", 120),
                               ("2016-09-30 08:01:02.123456Z", 0), ("2016-09-30 05:31:02-0430", -270)] {
            let bound = try require(TimeBound(parsing: text, end: false), "\(text)")
            expectEqual(bound.time.utcOffsetMinutes, offset, "\(text)")
            expect(!bound.isTimeOfDay)
            expect(bound.needsRecord)
        }
        let plain = try require(TimeBound(parsing: "2014-03-02", end: false))
        expect(plain.time.utcOffsetMinutes == nil, "a date's own dashes are no offset")
        expect(!plain.needsRecord)
        for bad in ["2016-09-30 10:01:02+2500", "2016-09-30 10:01:02+02", "10:61", "9:14", "", "Z"] {
            expect(TimeBound(parsing: bad, end: false) == nil, "\(bad)")
        }
    }

    @Test func anOffsetIsMovedIntoTheRecordsOffset() throws {
        let record = LogTime(year: 2016, month: 9, day: 30, hour: 10, minute: 1, second: 2, microsecond: 0, fractionDigits: 0, utcOffsetMinutes: 120)
        let utc = try require(TimeBound(parsing: "2016-09-30 08:01:02Z", end: false)).resolved(at: record)
        expect((utc.hour, utc.minute, utc.second) == (10, 1, 2))
        // Across midnight and a year's end, back and forth.
        let late = try require(TimeBound(parsing: "2016-12-31 23:30:00-0100", end: false)).resolved(at: record)
        expect((late.year, late.month, late.day, late.hour, late.minute) == (2017, 1, 1, 2, 30))
        let early = try require(TimeBound(parsing: "2017-01-01 00:30:00+0500", end: false)).resolved(at: record)
        expect((early.year, early.month, early.day, early.hour, early.minute) == (2016, 12, 31, 21, 30))
        // A record without an offset: the bound is read as its wall clock.
        let local = LogTime(year: 2016, month: 9, day: 30, hour: 10, minute: 1, second: 2, microsecond: 0, fractionDigits: 0)
        let asWritten = try require(TimeBound(parsing: "2016-09-30 08:01:02Z", end: false)).resolved(at: local)
        expect((asWritten.hour, asWritten.minute) == (8, 1))
    }

    @Test func aTimeOfDayTakesTheRecordsDay() throws {
        let record = LogTime(year: nil, month: 3, day: 2, hour: 9, minute: 14, second: 5, microsecond: 1000, fractionDigits: 3)
        let since = try require(TimeBound(parsing: "09:14", end: false))
        expect(since.isTimeOfDay && since.needsRecord)
        let start = since.resolved(at: record)
        expect((start.year, start.month, start.day, start.hour, start.minute, start.second) == (nil, 3, 2, 9, 14, 0))
        let end = try require(TimeBound(parsing: "09:14:07", end: true)).resolved(at: record)
        expect((end.month, end.day, end.hour, end.minute, end.second, end.microsecond) == (3, 2, 9, 14, 7, 999_999))
    }

    @Test func civilDatesRoundTrip() {
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            let civil = LogTime.civil(fromDays: days)
            expectEqual(LogTime.daysFromCivil(year: civil.year, month: civil.month, day: civil.day), days)
        }
    }
}
