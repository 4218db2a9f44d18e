// `--last DURATION` for one input: which records lie within the span before the input's end.
//
// The end is known only when the input is read to it. A regular file's end is read first,
// backwards (`InputEnd`), and its records are then judged as they stream. Any other input (a
// pipe, standard input, a FIFO, a gzip file) is read once: the records that may still be inside
// are held, and the ones that fall out of the span behind the latest time read are let go as
// reading goes on (times mostly increase, so what is held is about the span's worth of
// records). At the end the held records are judged against the input's latest time and go
// through the stages. What is held stays within `maxHeldBytes`; past it the input's records
// are passed over and the input is reported as one `--last` could not read, so that no record
// is left out without a word.

final class LastWindow {
    enum Mode {
        /// The input's latest time is known (nil: the input has no time): records are judged now.
        case end(LogTime?)
        /// Records are held until the input's end.
        case holding
    }

    enum Judgement {
        case inside, outside
        /// Held, to be judged at the input's end.
        case held
    }

    let span: LastDuration
    private let maxHeldBytes: Int
    private(set) var mode: Mode
    /// The held records, oldest first from `first`, with the time each is judged by.
    private var held: [(record: Record, time: LogTime)] = []
    private var first = 0
    private var heldBytes = 0
    /// The latest time read so far (holding).
    private var latest: LogTime?
    /// Held records let go because they fell out of the span: outside, counted at the end.
    private(set) var letGo = 0
    /// Set when the held records outgrew `maxHeldBytes`.
    private(set) var overflowed = false
    /// What a held record costs beyond its text (the object, its header's places, the slot).
    static let recordOverhead = 256

    init(span: LastDuration, mode: Mode, maxHeldBytes: Int) {
        self.span = span
        self.mode = mode
        self.maxHeldBytes = maxHeldBytes
    }

    /// Judges `record`, whose time (its own, or that of the record before it) is `time`.
    func judge(_ record: Record, time: LogTime?) -> Judgement {
        switch mode {
        case .end(let end):
            guard let time, let end else { return .outside }  // before the input's first time
            return span.contains(time, end: end) ? .inside : .outside
        case .holding:
            guard let time, !overflowed else { return .outside }
            if latest.map({ LastDuration.microseconds(from: $0, to: time) > 0 }) ?? true {
                latest = time
                letGoWhatFellOut(before: time)
            }
            guard span.contains(time, end: latest ?? time) else { return .outside }
            // The stages lend a record for the call: a held one is a copy of its own.
            let text = record.text.withUnsafeBytes { RecordText($0) }
            let copy = Record(input: record.input, firstLine: record.firstLine, lineCount: record.lineCount, text: text, head: record.head,
                              givenTexts: record.givenTexts, bodyStart: record.bodyStart, isTruncated: record.isTruncated, revision: record.revision)
            held.append((copy, time))
            heldBytes += text.count + LastWindow.recordOverhead
            if heldBytes > maxHeldBytes {
                overflowed = true
                letGo += held.count - first
                held = []
                first = 0
                heldBytes = 0
            }
            return .held
        }
    }

    /// Ends holding: the held records, oldest first, each with the time it is judged by, to be
    /// judged again against the input's latest time (`mode` is now that end).
    func endHolding() -> ArraySlice<(record: Record, time: LogTime)> {
        guard case .holding = mode else { return [] }
        mode = .end(latest)
        let records = held[first...]
        held = []
        first = 0
        heldBytes = 0
        return records
    }

    private func letGoWhatFellOut(before end: LogTime) {
        while first < held.count, !span.contains(held[first].time, end: end) {
            heldBytes -= held[first].record.text.count + LastWindow.recordOverhead
            first += 1
            letGo += 1
        }
        if first > 1024, first * 2 > held.count {
            held.removeFirst(first)
            first = 0
        }
    }
}
