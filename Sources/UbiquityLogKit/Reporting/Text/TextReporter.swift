// The human timeline: one line per shown event, object changes under exports and imports
// from -v, routine messages from -vv, raw records from -vvv; a rule across gaps of more than
// two seconds; the summary at the end.

public struct TextOptions: Sendable {
    /// -1 summary only (-q), 0 default, 1 -v, 2 -vv, 3 -vvv.
    public var verbosity: Int
    /// Warn about unhandled records (off with -U).
    public var showUnhandled: Bool
    public var color: Bool
    /// Open each input with a `==> name <==` line (when there are several).
    public var showInputNames: Bool

    public init(verbosity: Int = 0, showUnhandled: Bool = true, color: Bool = false, showInputNames: Bool = false) {
        self.verbosity = verbosity
        self.showUnhandled = showUnhandled
        self.color = color
        self.showInputNames = showInputNames
    }
}

public final class TextReporter: Reporter {
    private let out: OutputWriter
    private let options: TextOptions
    private let style: Style
    // The properties below are read and written for every record, by the one thread that
    // writes: Swift's run-time exclusivity check on each access is left out.
    @exclusivity(unchecked) private var inputCount = 0
    /// The last record's time, when it was not packed (see `lastClock`).
    @exclusivity(unchecked) private var lastTime: LogTime?
    /// The last record's time as its header packed it (`PackedTime`; empty when it was not):
    /// the gap to a next record of the same day is the difference of the two clocks, read from
    /// the bits, with no `LogTime` made for every record.
    @exclusivity(unchecked) private var lastClock = PackedTime()
    @exclusivity(unchecked) private var gapSinceShown: Int64 = 0
    /// Whether this input has shown a line yet (no gap rule above the first one).
    @exclusivity(unchecked) private var shownInInput = false
    @exclusivity(unchecked) private var repeats = TimelineRepeats()
    /// The timeline line being written, reused from line to line.
    @exclusivity(unchecked) private var lineText = ByteBuffer()
    /// The first process the headers named, and whether another has been seen since: from
    /// then on each line names its process (a device console interleaves many).
    @exclusivity(unchecked) private var firstProcess: String?
    /// The bytes of the last process found to be `firstProcess`: most records' process is
    /// compared with these where it lies in the header, and made into a String only when it differs.
    @exclusivity(unchecked) private var firstProcessBytes = KeptText()
    @exclusivity(unchecked) private var namesProcesses = false
    /// The input's name as a warning's place shows it (`safe`), made again only when the
    /// input changes.
    @exclusivity(unchecked) private var shownInput: (name: String, bytes: [UInt8])?
    /// Each severity's tag (`tag`), made once: debug, info, warning, error.
    private let tags: [[UInt8]]
    /// Gaps longer than this (microseconds) get a rule.
    private static let gapThreshold: Int64 = 2_000_000

    public init(output: OutputWriter, options: TextOptions) {
        self.out = output
        self.options = options
        self.style = Style(enabled: options.color)
        let style = self.style
        tags = [Severity.debug, .info, .warning, .error].map { Array(Self.tag($0, style).utf8) }
    }

    public func beginInput(_ name: String) {
        inputCount += 1
        lastTime = nil
        lastClock = PackedTime()
        gapSinceShown = 0
        shownInInput = false
        guard options.verbosity >= 0, options.showInputNames else { return }
        if inputCount > 1 { out.line() }
        out.line(style.bold("==> \(safe(name)) <=="))
    }

    /// `-q` shows no record.
    public var readsRecords: Bool { options.verbosity >= 0 }

    public func report(_ item: ClassifiedRecord) {
        guard options.verbosity >= 0 else { return }
        let record = item.record
        trackGap(clock: record.head?.clock) { record.time }
        if !namesProcesses { record.withBytes(of: .process) { noteProcess($0) } }
        guard isShown(item.event) else { return }
        // An incident told again is told once by default, and from `-v` as a line that points
        // to the first telling.
        let repeated = repeats.earlierLine(repeatedBy: item)
        if repeated != nil, options.verbosity < 1 { return }

        if shownInInput, gapSinceShown > TextReporter.gapThreshold { gapRule(gapSinceShown) }
        gapSinceShown = 0
        shownInInput = true

        if options.verbosity >= 3 {
            for line in record.text.split(separator: 0x0A, omittingEmptySubsequences: false) {
                out.line(style.dim("    | " + safe(ByteText.string(line))))
            }
        }

        // The line is written as bytes, with no String per part or per concatenation: time,
        // tag, the headline in its colour, the place.
        let severity = repeated == nil ? item.event.severity : .info
        lineText.removeAll()
        // The clock from the bits its header packed (nearly every record), written with its
        // padding through one pointer; else from the record's time.
        let clock = record.head?.clock ?? PackedTime()
        var packed = false
        lineText.write(atMost: 12) { base in
            var out = ByteCursor(base)
            guard out.clock(clock, maxFractionDigits: 3) else { return 0 }
            packed = true
            while out.count < 12 { out.byte(UInt8(ascii: " ")) }
            return out.count
        }
        if !packed {
            var width = 0
            record.time?.withClock(maxFractionDigits: 3) { clock in
                lineText.append(clock)
                width = clock.count  // ASCII: bytes are characters
            }
            for _ in width..<max(width, 12) { lineText.append(UInt8(ascii: " ")) }
        }
        lineText.append(UInt8(ascii: " "))
        switch severity {
        case .debug: lineText.append(tags[0])
        case .info: lineText.append(tags[1])
        case .warning: lineText.append(tags[2])
        case .error: lineText.append(tags[3])
        }
        lineText.append(UInt8(ascii: " "))
        // The process, pid and place are written as bytes too, not made as Strings (`safe` of
        // the process and the input, interpolated numbers) for every record of the timeline,
        // where processes interleave.
        if namesProcesses, appendProcess(record) {
            if let pid = record.pid {
                lineText.append(UInt8(ascii: "["))
                Self.appendDecimal(pid, to: &lineText)
                lineText.append(UInt8(ascii: "]"))
            }
            lineText.append(": ")
        }
        let colour = style.code(for: severity)
        if let colour { lineText.append(string: style.opening(colour)) }
        if let repeated {
            lineText.append("printed again: the same incident as ")
            appendInput(record.input)
            lineText.append(UInt8(ascii: ":"))
            Self.appendDecimal(repeated, to: &lineText)
        } else {
            Headline.withUTF8(item) { ByteText.appendTerminalSafe($0, to: &lineText) }
        }
        if colour != nil { lineText.append(string: style.closing) }
        if severity >= .warning || repeated != nil { appendPlace(record) }
        lineText.withBytes { out.line(bytes: $0) }
        if severity == .error, let hint = Explanation.hint(for: item.event) { hintLine(hint) }

        if options.verbosity >= 1 {
            for change in item.event.objectChanges {
                let text = "    \(change.operation.symbol) " + safe(change.oneLine)
                switch change.operation {
                case .inserted: out.line(style.green(text))
                case .updated: out.line(style.blue(text))
                case .deleted: out.line(style.red(text))
                }
            }
        }
        if options.verbosity >= 2, case .unhandled = item.event {
            for line in record.body.split(separator: 0x0A, omittingEmptySubsequences: false).dropFirst() {
                out.line(style.dim("      " + safe(ByteText.string(line))))
            }
        }
    }

    /// `safe` of the record's process, appended to the line; false when it names none. Valid
    /// UTF-8 (any process a header names, nearly) is made safe as bytes.
    private func appendProcess(_ record: Record) -> Bool {
        record.withBytes(of: .process) { bytes in
            guard let bytes else { return false }
            let process = bytes.assumingMemoryBound(to: UInt8.self)
            if ByteText.isValidUTF8(bytes) {
                ByteText.appendTerminalSafe(process, to: &lineText)
            } else {
                lineText.append(string: safe(ByteText.string(process)))
            }
            return true
        }
    }

    /// `  (input:line)` dimmed, after a warning's or an error's headline and a print said again.
    private func appendPlace(_ record: Record) {
        if style.enabled { lineText.append("\u{1B}[2m") }
        lineText.append("  (")
        appendInput(record.input)
        lineText.append(UInt8(ascii: ":"))
        Self.appendDecimal(record.firstLine, to: &lineText)
        lineText.append(UInt8(ascii: ")"))
        if style.enabled { lineText.append(string: style.closing) }
    }

    /// The input's name, made terminal-safe once for its records.
    private func appendInput(_ input: String) {
        if shownInput?.name != input { shownInput = (input, Array(safe(input).utf8)) }
        if let shownInput { lineText.append(shownInput.bytes) }
    }

    /// `-- 2.5 s later ---…`, dimmed: the rule across a gap.
    private func gapRule(_ microseconds: Int64) {
        lineText.removeAll()
        if style.enabled { lineText.append("\u{1B}[2m") }
        lineText.append("-- ")
        let tenths = (microseconds + 50_000) / 100_000
        Self.appendDecimal(Int(tenths / 10), to: &lineText)
        lineText.append(UInt8(ascii: "."))
        Self.appendDecimal(Int(tenths % 10), to: &lineText)
        lineText.append(" s later ----------------------------------------")
        if style.enabled { lineText.append(string: style.closing) }
        lineText.withBytes { out.line(bytes: $0) }
    }

    /// `      hint: TEXT (parselogs explain TOPIC)`, dimmed, under an error's line: written as
    /// bytes, as the line above it is.
    private func hintLine(_ hint: (text: String, topic: String)) {
        lineText.removeAll()
        if style.enabled { lineText.append("\u{1B}[2m") }
        lineText.append("      hint: ")
        lineText.append(string: hint.text)
        lineText.append(" (parselogs explain ")
        lineText.append(string: hint.topic)
        lineText.append(UInt8(ascii: ")"))
        if style.enabled { lineText.append(string: style.closing) }
        lineText.withBytes { out.line(bytes: $0) }
    }

    /// `number` in decimal, as `"\(number)"` writes it.
    static func appendDecimal(_ number: Int, to out: inout ByteBuffer) {
        if number < 0 { out.append(UInt8(ascii: "-")) }
        let magnitude = number.magnitude
        var unit: UInt = 1
        while unit <= magnitude / 10 { unit *= 10 }
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude / unit % 10))
            unit /= 10
        } while unit > 0
    }

    /// Whether a record whose process's bytes are `bytes` (nil: it names none) names a process
    /// other than the first one named.
    private func noteProcess(_ bytes: UnsafeRawBufferPointer?) {
        guard let bytes, !firstProcessBytes.matches(bytes) else { return }
        let process = ByteText.string(bytes)
        if firstProcess == nil {
            firstProcess = process
        } else if process != firstProcess {
            namesProcesses = true
            return
        }
        firstProcessBytes = KeptText(bytes)
    }

    public func flush() { out.flush() }
    /// A live reader sees a record when its writer pauses, and again if lines came after that.
    public var showsPreviews: Bool { true }

    public func finish(_ summary: RunSummary) {
        if options.verbosity >= 0 { out.line() }
        for var line in SummaryText.lines(summary) {
            guard !style.enabled else {
                out.line(style.colorSummaryLine(safe(line)))
                continue
            }
            // Made safe where the output keeps it, as the timeline's lines are: a summary of
            // many inputs has lines by the thousand. (Left uncoloured, `colorSummaryLine`
            // changes nothing.)
            line.withUTF8 { bytes in
                out.line { buffer in
                    ByteText.appendTerminalSafe(bytes, to: &buffer)
                    return true
                }
            }
        }
        out.flush()
    }

    /// Those of warnings and errors: the timeline shows a message event by the line its rule
    /// matched (`Headline`) and, when it carries one, its error; the typed events whose
    /// payload it shows are always made whole.
    public func readsFacts(of kind: EventKind) -> Bool { kind.severity >= .warning }

    /// From `-v`, those of the kinds the timeline shows (`isShown`): it prints the objects an
    /// event dumped and the headlines of detail kinds (a relationship's value). By default it
    /// shows notable kinds alone, whose headlines name no detail (an import's is its count
    /// and tally). Warnings and errors are read at every verbosity, as their facts are.
    public func readsDetails(of kind: EventKind) -> Bool {
        kind.severity >= .warning || (options.verbosity >= 1 && kind.tier.rawValue <= options.verbosity)
    }

    private func isShown(_ event: Event) -> Bool {
        if case .unhandled = event { return options.showUnhandled || options.verbosity >= 2 }
        return event.kind.tier.rawValue <= options.verbosity
    }

    /// The gap since the last record, from a record's packed clock (nil: it has no header) or,
    /// when it has none, its `time()`.
    @inline(__always)
    private func trackGap(clock: PackedTime?, time: () -> LogTime?) {
        guard let clock, !clock.isEmpty else {
            guard let time = time() else { return }
            addGap(to: time)
            lastTime = time
            lastClock = PackedTime()
            return
        }
        if let delta = clock.microseconds(sinceSameDay: lastClock) ?? clock.microseconds(sinceSameDayOrNoYear: lastClock) {
            if delta > 0 { gapSinceShown += delta }
        } else if let time = clock.time {
            addGap(to: time)
        }
        lastClock = clock
        lastTime = nil
    }

    /// The gap from the last record's time to `time`, added when it is one forward.
    private func addGap(to time: LogTime) {
        guard let last = lastClock.isEmpty ? lastTime : lastClock.time else { return }
        let delta = time.microseconds(since: last)
        if delta > 0 { gapSinceShown += delta }
    }

    private static func tag(_ severity: Severity, _ style: Style) -> String {
        switch severity {
        case .error: style.red(style.bold("ERROR"))
        case .warning: style.yellow("WARN ")
        case .info: "info "
        case .debug: style.dim("debug")
        }
    }

    private func safe(_ text: String) -> String { ByteText.terminalSafe(text) }
}

extension TextReporter: PlainRunReader {
    /// Where the timeline does not show the app's lines (below `-v`): of those it reads their
    /// times, for the gap rule, and their processes, to tell whether lines name theirs.
    var readsPlainRuns: Bool { !isShown(.app) }

    func reportPlain(_ entries: UnsafePointer<RecordEntry>, count: Int) {
        for index in 0..<count {
            let entry = entries + index
            guard entry.pointee.revision.isShown(showingPreviews: showsPreviews) else { continue }
            // An entry's record has no given texts: without a packed clock, it has no time.
            trackGap(clock: entry.pointee.head?.clock) { nil }
            if !namesProcesses { noteProcess(entry.pointee.processBytes) }
        }
    }
}

/// ANSI colours, or nothing when colour is off.
struct Style {
    let enabled: Bool

    func red(_ text: String) -> String { wrap(text, "31") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func blue(_ text: String) -> String { wrap(text, "34") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func bold(_ text: String) -> String { wrap(text, "1") }

    func colorSummaryLine(_ line: String) -> String {
        if line.hasPrefix("Verdict: broken") || line.hasPrefix("Outcome: fail") { return red(bold(line)) }
        if line.hasPrefix("Summary") { return bold(line) }
        return line
    }

    /// The colour of a timeline headline of `severity`, nil for none.
    func code(for severity: Severity) -> String? {
        guard enabled else { return nil }
        switch severity {
        case .error: return "31"
        case .warning: return "33"
        case .debug: return "2"
        case .info: return nil
        }
    }

    func opening(_ code: String) -> String { "\u{1B}[\(code)m" }
    var closing: String { "\u{1B}[0m" }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? opening(code) + text + closing : text
    }
}
