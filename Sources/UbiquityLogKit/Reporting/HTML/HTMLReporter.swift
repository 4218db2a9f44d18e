// `--format html`: one self-contained page (inline CSS, SVG and script, nothing fetched) with
// the verdict and its evidence first, the findings with their hints and explanations, a
// timeline with a lane per process of each input, the summary's tables and the unhandled
// templates. The timeline is gathered as records arrive (`TimelineLanes`, bounded memory);
// the page is written at the end (`HTMLPage`), a piece at a time.

public final class HTMLReporter: Reporter {
    /// What the page keeps, so that it stays within a few MB and memory stays bounded.
    public struct Limits: Sendable {
        /// Marks kept with their text, per lane and in all; the others are counted in runs.
        public var marksPerLane: Int
        public var marks: Int
        /// Lanes drawn; the processes of an input past them share one lane.
        public var lanes: Int
        /// Characters of a message kept for the page.
        public var messageCharacters: Int

        public init(marksPerLane: Int = 2_000, marks: Int = 6_000, lanes: Int = 64, messageCharacters: Int = 240) {
            self.marksPerLane = max(1, marksPerLane)
            self.marks = max(1, marks)
            self.lanes = max(1, lanes)
            self.messageCharacters = max(1, messageCharacters)
        }
    }

    private let out: OutputWriter
    private let limits: Limits
    private let tool: String
    var lanes: [TimelineLane] = []
    private var laneByKey: [String: Int] = [:]
    private var laneCountByInput: [String: Int] = [:]
    private var detailedMarks = 0
    /// Whether any record had a time: the axis is time, else line numbers.
    var sawTime = false
    /// The year of the run's first dated record: the year of the times that name none.
    var year: Int?
    /// The detailed mark of each error and warning by `input` NUL `line`: a finding links to it.
    var markByPlace: [String: String] = [:]
    /// The explanation of each error code a hint names, by its topic.
    var codeExplanations: [String: String] = [:]
    var templates = UnhandledTemplates(limits: .init(templates: 500, messageBytes: 300))
    var repeats = TimelineRepeats()

    public init(output: OutputWriter, tool: String = "parselogs", limits: Limits = Limits()) {
        self.out = output
        self.tool = tool
        self.limits = limits
    }

    public func report(_ item: ClassifiedRecord) {
        let event = item.event
        if case .app = event { return }
        let record = item.record
        let lane = lane(for: record)
        let logTime = record.time
        if let logTime {
            lane.lastTime = logTime
            sawTime = true
            if year == nil, let dated = logTime.year { year = dated }
        }
        let place = MarkPlace(time: logTime ?? lane.lastTime, line: record.firstLine, clock: logTime?.clock(maxFractionDigits: 3) ?? "")
        lane.lastPlace = place
        if case .unhandled = event {
            templates.add(item)
            add(TimelineMark(markClass: .unhandled, start: place, kind: event.kind.id, message: message(item)), to: lane, place: place)
            return
        }
        // An incident told again is one mark, the first.
        if repeats.earlierLine(repeatedBy: item) != nil { return }
        let severity = event.severity
        let role = TimelineRole.of(event)
        guard role != nil || severity >= .warning || event.fields.contains(where: { $0.name == "objects" }) else { return }
        let fields = event.fields
        if let objects = Self.fact(fields, "objects").flatMap({ Int($0) }) { lane.pendingCount = objects }
        let kind = event.kind.id
        let text = message(item)
        let requestID = Self.fact(fields, "requestID")

        switch role {
        case .loadStart?:
            if let open = lane.openLoad { closeLoad(lane, open, at: place, outcome: .unfinished) }
            lane.openLoad = (place, text, kind)
        case .loadEnd(let outcome)?:
            if let open = lane.openLoad {
                closeLoad(lane, open, at: place, outcome: outcome, ending: text)
                lane.openLoad = nil
            } else if !lane.hadLoad || outcome == .unavailable {
                lane.hadLoad = true
                add(TimelineMark(markClass: .load, start: place, end: place, kind: kind, message: text, detail: outcome.rawValue), to: lane, place: place)
            }
        case .requestStart?:
            endWait(lane, at: place)
            if lane.openRequests.count >= TimelineLane.maxOpenRequests {
                let oldest = lane.openRequests.removeFirst()
                closeRequest(lane, oldest, at: place, outcome: .unfinished)
            }
            lane.openRequests.append((requestID, place, text, kind))
        case .requestEnd(let outcome)?:
            endRequest(lane, id: requestID, at: place, outcome: outcome, message: text)
        case .transfer(let direction)?:
            endWait(lane, at: place)
            let count = event.objectChanges.isEmpty ? lane.pendingCount : event.objectChanges.count
            lane.pendingCount = nil
            add(TimelineMark(markClass: .transfer, start: place, kind: kind, message: text, detail: direction.rawValue, count: count), to: lane, place: place)
        case .waitStart?:
            let hint = severity >= .warning ? self.hint(for: event) : nil
            if let retry = Self.fact(fields, "retryAfter"), let seconds = Double(retry), seconds >= 0, seconds < 1e9, place.time != nil {
                var end = place
                end.shift = Int64(seconds * 1_000_000)
                end.clock = ""
                add(TimelineMark(markClass: .wait, start: place, end: end, kind: kind, message: text, hint: hint, detail: "retry after \(retry) s"), to: lane, place: place)
            } else if lane.openWait == nil {
                lane.openWait = (place, text, kind, hint)
            }
        case .waitEnd?:
            endWait(lane, at: place)
        case .recovery?, nil:
            break
        }
        if severity >= .error, requestID != nil, role == nil {
            // A failure of a request told by its cause ends the request.
            endRequest(lane, id: requestID, at: place, outcome: .failed, message: text)
        }
        if severity >= .warning {
            let hint = self.hint(for: event)
            let markClass: MarkClass = severity == .error ? .error : .warning
            if let id = add(TimelineMark(markClass: markClass, start: place, kind: kind, message: text, hint: hint), to: lane, place: place),
               markByPlace.count < 2 * RunSummary.maxKeptFindings {
                markByPlace[record.input + "\u{0}" + String(record.firstLine)] = id
            }
            if severity == .error, lane.openIncident == nil { lane.openIncident = (place, text, kind) }
        }
        if role?.recovers == true, let incident = lane.openIncident {
            add(TimelineMark(markClass: .incident, start: incident.place, end: place, kind: incident.kind, message: incident.message,
                             detail: "recovered: " + text), to: lane, place: incident.place)
            lane.openIncident = nil
        }
    }

    public func finish(_ summary: RunSummary) {
        for lane in lanes {
            guard let end = lane.lastPlace else { continue }
            if let open = lane.openLoad { closeLoad(lane, open, at: end, outcome: .unfinished) }
            lane.openLoad = nil
            for open in lane.openRequests { closeRequest(lane, open, at: end, outcome: .unfinished) }
            lane.openRequests = []
            if let wait = lane.openWait {
                add(TimelineMark(markClass: .wait, start: wait.place, end: end, kind: wait.kind, message: wait.message, hint: wait.hint,
                                 detail: "still waiting at the end of the log"), to: lane, place: wait.place)
                lane.openWait = nil
            }
            if let incident = lane.openIncident {
                add(TimelineMark(markClass: .incident, start: incident.place, end: end, kind: incident.kind, message: incident.message,
                                 detail: "not recovered by the end of the log"), to: lane, place: incident.place)
                lane.openIncident = nil
            }
        }
        HTMLPage(reporter: self, summary: summary, tool: tool).write(to: out)
        out.flush()
    }

    public func flush() {}

    /// Those of the kinds the page draws with their text: warnings and errors, and the kinds
    /// with a timeline role or of exports and imports (whose facts give a tick's count, a
    /// request's id, a throttle's retry-after). Other records are only counted.
    public func readsFacts(of kind: EventKind) -> Bool {
        kind.severity >= .warning || TimelineRole.byKindID[kind.id] != nil || kind.category == .export || kind.category == .import
            || kind.category == .store
    }

    public func readsDetails(of kind: EventKind) -> Bool { readsFacts(of: kind) }

    // MARK: gathering

    private func lane(for record: Record) -> TimelineLane {
        let process = record.string(.process)
        let key = record.input + "\u{0}" + (process ?? "")
        if let index = laneByKey[key] { return lanes[index] }
        let count = laneCountByInput[record.input, default: 0]
        if count >= limits.lanes {
            // Past the budget, the input's further processes share one lane.
            let shared = record.input + "\u{0}\u{1}"
            if let index = laneByKey[shared] { laneByKey[key] = index; return lanes[index] }
            lanes.append(TimelineLane(index: lanes.count, input: record.input, process: "(other processes)"))
            laneByKey[shared] = lanes.count - 1
            laneByKey[key] = lanes.count - 1
            return lanes[lanes.count - 1]
        }
        laneCountByInput[record.input] = count + 1
        lanes.append(TimelineLane(index: lanes.count, input: record.input, process: process))
        laneByKey[key] = lanes.count - 1
        return lanes[lanes.count - 1]
    }

    /// Adds a mark, kept with its text while the budget lasts, else counted in a run; the id of
    /// a kept one (`m-LANE-MARK`, the element's id in the page).
    @discardableResult
    private func add(_ mark: TimelineMark, to lane: TimelineLane, place: MarkPlace) -> String? {
        lane.counts[mark.markClass.index] += 1
        guard lane.marks.count < limits.marksPerLane, detailedMarks < limits.marks else {
            lane.gather(mark.markClass, at: place)
            return nil
        }
        lane.marks.append(mark)
        detailedMarks += 1
        return "m-\(lane.index)-\(lane.marks.count - 1)"
    }

    private func closeLoad(_ lane: TimelineLane, _ open: (place: MarkPlace, message: String, kind: String), at end: MarkPlace,
                           outcome: SpanOutcome, ending: String? = nil) {
        lane.hadLoad = true
        add(TimelineMark(markClass: .load, start: open.place, end: end, kind: open.kind,
                         message: open.message + (ending.map { " → " + $0 } ?? ""), detail: outcome.rawValue), to: lane, place: open.place)
    }

    private func closeRequest(_ lane: TimelineLane, _ open: (id: String?, place: MarkPlace, message: String, kind: String), at end: MarkPlace,
                              outcome: SpanOutcome, ending: String? = nil) {
        add(TimelineMark(markClass: .request, start: open.place, end: end, kind: open.kind,
                         message: open.message + (ending.map { " → " + $0 } ?? ""), detail: outcome.rawValue), to: lane, place: open.place)
    }

    /// Ends the request of `id` (or, for an end that names none, the latest one open).
    private func endRequest(_ lane: TimelineLane, id: String?, at place: MarkPlace, outcome: SpanOutcome, message: String) {
        let index = id.flatMap { id in lane.openRequests.lastIndex { $0.id == id } } ?? (id == nil ? lane.openRequests.indices.last : nil)
        guard let index else { return }
        let open = lane.openRequests.remove(at: index)
        closeRequest(lane, open, at: place, outcome: outcome, ending: message)
    }

    private func endWait(_ lane: TimelineLane, at place: MarkPlace) {
        guard let wait = lane.openWait else { return }
        add(TimelineMark(markClass: .wait, start: wait.place, end: place, kind: wait.kind, message: wait.message, hint: wait.hint,
                         detail: "cleared"), to: lane, place: wait.place)
        lane.openWait = nil
    }

    /// A fact's value as text (a number too), or nil.
    private static func fact(_ fields: [Field], _ name: String) -> String? {
        guard let value = fields.first(where: { $0.name == name })?.value else { return nil }
        if case .int(let number) = value { return String(number) }
        return value.text
    }

    private func message(_ item: ClassifiedRecord) -> String {
        let headline = Headline.of(item)
        guard headline.count > limits.messageCharacters else { return headline }
        return String(headline.prefix(limits.messageCharacters)) + "…"
    }

    /// `TEXT (parselogs explain TOPIC)`, as the text timeline prints it under an error.
    private func hint(for event: Event) -> String? {
        guard let hint = Explanation.hint(for: event) else { return nil }
        if codeExplanations[hint.topic] == nil, let error = event.error, let code = Explanation.rootCauseCode(error), code.topic == hint.topic {
            codeExplanations[hint.topic] = Explanation.explain(code)
        }
        return "\(hint.text) (parselogs explain \(hint.topic))"
    }
}

extension HTMLReporter {
    /// The hint kept with the mark of id `m-LANE-MARK`.
    func hint(ofMark id: String) -> String? {
        let parts = id.split(separator: "-")
        guard parts.count == 3, let lane = Int(parts[1]), let mark = Int(parts[2]), lanes.indices.contains(lane),
              lanes[lane].marks.indices.contains(mark) else { return nil }
        return lanes[lane].marks[mark].hint
    }
}

extension HTMLReporter {
    /// The budget of marks kept with their text, in words.
    var limitsDescription: String { "\(limits.marksPerLane) marks in a lane or \(limits.marks) in all" }
}
