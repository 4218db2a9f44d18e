// --since, --until and --last: checked before the run, then set on it.
import ArgumentParser
import UbiquityLogKit

extension FilterChoices {
    func validateTimes() throws {
        for (flag, value) in [("--since", since), ("--until", until)] {
            if let value, TimeBound(parsing: value, end: false) == nil {
                throw ValidationError("\(flag): '\(value)' is not a time like 2014-03-02, 2014-03-02 09:14, 2014-03-02 09:14:07.318, 2016-09-30 10:01:02.123456+0200 or 09:14 (a day that exists, hours 00-23, minutes 00-59)")
            }
        }
        // Bounds of one kind (two dates, two times of day, the same offset) are compared as written.
        if let start = since.flatMap({ TimeBound(parsing: $0, end: false) }), let end = until.flatMap({ TimeBound(parsing: $0, end: true) }),
           start.isTimeOfDay == end.isTimeOfDay, start.time.utcOffsetMinutes == end.time.utcOffsetMinutes, start.time > end.time {
            // The window would hold nothing: every record would be passed over without a word.
            throw ValidationError("--since \(since ?? "") is after --until \(until ?? ""): the window is empty; swap them")
        }
        if let last {
            guard LastDuration(parsing: last) != nil else {
                throw ValidationError("--last: '\(last)' is not a duration like 30m, 2h, 90s, 1d or 1h30m (whole numbers, each with its unit d, h, m or s, largest first)")
            }
            // --last sets both ends of the window: another bound would leave which one counts to a guess.
            if since != nil || until != nil {
                throw ValidationError("--last counts back from each input's last time and cannot be combined with --since or --until; give --last alone, or --since and --until")
            }
        }
    }

    /// The window on `run`. A bound that needs a record to be whole (a time of day, an offset)
    /// is resolved at each input's first record with a time; `--last` at each input's end.
    func setTimes(of run: LogRun) {
        let start = since.flatMap { TimeBound(parsing: $0, end: false) }
        let end = until.flatMap { TimeBound(parsing: $0, end: true) }
        if start?.needsRecord == true || end?.needsRecord == true {
            run.bounds = (start, end)
        } else {
            (run.since, run.until) = (start?.time, end?.time)
        }
        run.last = last.flatMap(LastDuration.init(parsing:))
    }
}
