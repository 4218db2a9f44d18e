// The HTML report's timeline as it is gathered, record by record: one lane per process of each
// input, with its bars, ticks, waits, incidents and a mark per error and warning. Memory stays
// bounded whatever the log's size: past a budget of detailed marks (per lane and in all), marks
// are gathered into runs of consecutive ones with their counts by class, and the number of
// runs a lane keeps is bounded by merging neighbours. Counts stay exact.

/// What a mark on the timeline is; the classes the report's filters show and hide.
enum MarkClass: String, CaseIterable, Sendable {
    case incident, load, request, wait, transfer, error, warning, unhandled

    /// The filter's label.
    var label: String {
        switch self {
        case .incident: "incidents"
        case .load: "store loads"
        case .request: "requests"
        case .wait: "waits"
        case .transfer: "exports and imports"
        case .error: "errors"
        case .warning: "warnings"
        case .unhandled: "unhandled"
        }
    }
}

/// Where a record lies: its log time (microseconds, for the time axis), or the time of the
/// lane's record before it when its header gives none, and its line (for logs with no times).
struct MarkPlace: Sendable {
    /// Kept as the log gave it: a time without a year is placed at the end, in the year the
    /// run's dated records give (syslog's headers name none, `log show`'s do).
    var time: LogTime?
    /// Microseconds after `time` (the end of a throttle's retry-after).
    var shift: Int64 = 0
    var line: Int
    /// The time as the log gave it, for the tooltip: `09:14:07.318`.
    var clock: String
}

/// One mark kept with what the tooltip shows.
struct TimelineMark: Sendable {
    var markClass: MarkClass
    var start: MarkPlace
    /// The end of a bar or a span; nil for a point.
    var end: MarkPlace?
    var kind: String
    var message: String
    var hint: String?
    /// A bar's or span's outcome (`succeeded`, `failed`, `recovered`, ...) or a tick's direction.
    var detail: String?
    var count: Int?
}

/// Marks past the budget, gathered: consecutive ones in one run, with counts by class.
struct MarkRun: Sendable {
    var first: MarkPlace
    var last: MarkPlace
    var counts: [Int]

    init(_ place: MarkPlace) {
        first = place
        last = place
        counts = Array(repeating: 0, count: MarkClass.allCases.count)
    }

    var total: Int { counts.reduce(0, +) }

    mutating func absorb(_ other: MarkRun) {
        last = other.last
        for index in counts.indices { counts[index] += other.counts[index] }
    }
}

final class TimelineLane {
    /// Its place among the lanes, which names its marks' elements (`m-LANE-MARK`).
    let index: Int
    let input: String
    let process: String?
    var marks: [TimelineMark] = []
    var runs: [MarkRun] = []
    /// Marks gathered into the last run before a new one starts; doubles as runs are merged.
    var runSize = 1
    private var inLastRun = 0
    /// Every mark of the lane by class, detailed or gathered.
    var counts = Array(repeating: 0, count: MarkClass.allCases.count)
    var lastTime: LogTime?
    var lastPlace: MarkPlace?
    /// Whether a load bar has been drawn: an end with no load open after one (a failure told
    /// twice) draws nothing more.
    var hadLoad = false

    // Bars and spans still open.
    var openLoad: (place: MarkPlace, message: String, kind: String)?
    var openRequests: [(id: String?, place: MarkPlace, message: String, kind: String)] = []
    var openWait: (place: MarkPlace, message: String, kind: String, hint: String?)?
    var openIncident: (place: MarkPlace, message: String, kind: String)?
    /// The object count an event gave before the export or import it belongs to.
    var pendingCount: Int?

    init(index: Int, input: String, process: String?) {
        self.index = index
        self.input = input
        self.process = process
    }

    static let maxRuns = 512
    static let maxOpenRequests = 64

    func gather(_ markClass: MarkClass, at place: MarkPlace) {
        if runs.isEmpty || inLastRun >= runSize {
            runs.append(MarkRun(place))
            inLastRun = 0
            if runs.count > Self.maxRuns { mergeRuns() }
        }
        runs[runs.count - 1].last = place
        runs[runs.count - 1].counts[markClass.index] += 1
        inLastRun += 1
    }

    /// Halves the runs by merging neighbours: memory stays bounded, counts exact.
    private func mergeRuns() {
        var merged: [MarkRun] = []
        merged.reserveCapacity(runs.count / 2 + 1)
        var index = 0
        while index < runs.count {
            var run = runs[index]
            if index + 1 < runs.count { run.absorb(runs[index + 1]) }
            merged.append(run)
            index += 2
        }
        runs = merged
        runSize *= 2
        inLastRun = runSize  // the next mark starts a run of the new size
    }
}

extension MarkClass {
    var index: Int { MarkClass.allCases.firstIndex(of: self) ?? 0 }
}
