// The HTML report's timeline as static SVG: a lane per process of each input, bars, ticks,
// spans and marks each with a `<title>` (read without the script, and printed), and the marks'
// data for the script's tooltips as JSON.

extension HTMLPage {
    /// The axis: log time in microseconds when any record had a time, else line numbers.
    struct Axis {
        var low: Int64
        var high: Int64
        var isTime: Bool
        var year: Int

        func value(_ place: MarkPlace) -> Int64 { isTime ? (Self.micros(place, year: year) ?? low) : Int64(place.line) }

        static func micros(_ place: MarkPlace, year: Int) -> Int64? {
            place.time.map { $0.microseconds(assumingYear: year) &+ place.shift }
        }

        func x(_ place: MarkPlace) -> Double {
            guard high > low else { return HTMLPage.labelWidth + HTMLPage.plotWidth / 2 }
            return HTMLPage.labelWidth + Double(value(place) - low) / Double(high - low) * HTMLPage.plotWidth
        }

        /// An axis label: the clock (with milliseconds on a short axis), or a line number.
        func label(_ value: Int64) -> String {
            guard isTime else { return "line \(value)" }
            let day: Int64 = 86_400_000_000
            let inDay = ((value % day) + day) % day
            let seconds = inDay / 1_000_000
            func two(_ number: Int64) -> String { number < 10 ? "0\(number)" : "\(number)" }
            var text = "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
            if high - low < 20_000_000 {
                let millis = inDay / 1000 % 1000
                text += "." + (millis < 10 ? "00" : millis < 100 ? "0" : "") + "\(millis)"
            }
            return text
        }
    }

    func axis() -> Axis {
        let isTime = reporter.sawTime
        let year = reporter.year ?? 2000
        var low = Int64.max, high = Int64.min
        func see(_ place: MarkPlace) {
            guard let value = isTime ? Axis.micros(place, year: year) : Int64(place.line) else { return }
            low = min(low, value)
            high = max(high, value)
        }
        for lane in reporter.lanes {
            for mark in lane.marks {
                see(mark.start)
                if let end = mark.end { see(end) }
            }
            for run in lane.runs {
                see(run.first)
                see(run.last)
            }
            if let last = lane.lastPlace { see(last) }
        }
        if low > high { (low, high) = (0, 0) }
        return Axis(low: low, high: high, isTime: isTime, year: year)
    }

    func writeTimeline(to out: OutputWriter) {
        let lanes = reporter.lanes
        out.write("<section id=\"timeline\"><h2>Timeline</h2>\n")
        guard !lanes.isEmpty else {
            out.write("<p>No sync records to draw.</p></section>\n")
            writeData([], lanes: [], severalInputs: false, totals: Array(repeating: 0, count: MarkClass.allCases.count), to: out)
            return
        }
        let axis = axis()
        let severalInputs = Set(lanes.map(\.input)).count > 1
        var totals = Array(repeating: 0, count: MarkClass.allCases.count)
        for lane in lanes { for index in totals.indices { totals[index] += lane.counts[index] } }
        out.write("<ul class=\"legend\">")
        for (markClass, colour) in Self.legend where totals[markClass.index] > 0 {
            out.write("<li><span class=\"sw\" style=\"background:\(colour)\"></span>\(e(markClass.label)) (\(totals[markClass.index]))</li>")
        }
        out.write("</ul>\n<div id=\"filters\" hidden></div>\n")
        let width = Self.labelWidth + Self.plotWidth + Self.rightPad
        let height = Self.axisHeight + Double(lanes.count) * Self.laneHeight + 4
        out.write("<div class=\"timeline-wrap\"><svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"timeline\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">\n")
        out.write("<defs><pattern id=\"wait-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#fff3c4\"/><rect width=\"2\" height=\"6\" fill=\"#f9a825\"/></pattern></defs>\n")
        writeAxis(axis, height: height, to: out)
        var data: [String] = []
        var markNumber = 0
        for lane in lanes {
            let top = Self.axisHeight + Double(lane.index) * Self.laneHeight
            let name = (lane.process ?? "(no process)") + (severalInputs ? " · " + lane.input : "")
            let counts = MarkClass.allCases.filter { lane.counts[$0.index] > 0 }.map { "\(lane.counts[$0.index]) \($0.label)" }.joined(separator: ", ")
            out.write("<g class=\"lane\" data-lane=\"\(lane.index)\"><rect class=\"lane-bg\(lane.index % 2 == 1 ? " odd" : "")\" x=\"0\" y=\"\(f(top))\" width=\"\(Int(width))\" height=\"\(f(Self.laneHeight))\"/>")
            let shown = name.count > 34 ? String(name.prefix(33)) + "…" : name
            out.write("<text class=\"lane-label\" x=\"6\" y=\"\(f(top + 19))\">\(e(shown))<title>\(e(name + ": " + (counts.isEmpty ? "nothing drawn" : counts)))</title></text>\n")
            // Spans behind bars behind ticks behind marks.
            for order in [MarkClass.incident, .wait, .load, .request, .transfer, .unhandled, .warning, .error] {
                for (index, mark) in lane.marks.enumerated() where mark.markClass == order {
                    writeMark(mark, id: "m-\(lane.index)-\(index)", number: markNumber, top: top, axis: axis, to: out)
                    data.append(markData(mark, lane: lane))
                    markNumber += 1
                }
            }
            for run in lane.runs { writeRun(run, top: top, axis: axis, to: out) }
            out.write("</g>\n")
        }
        out.write("</svg></div>\n<div id=\"tip\" role=\"tooltip\" hidden></div>\n")
        if lanes.contains(where: { !$0.runs.isEmpty }) {
            out.write("<p class=\"meta\">Past \(reporter.limitsDescription), marks are drawn gathered: each pale bar counts the marks it covers (its title says which).</p>\n")
        }
        out.write("</section>\n")
        writeData(data, lanes: lanes, severalInputs: severalInputs, totals: totals, to: out)
    }

    static let legend: [(MarkClass, String)] = [
        (.load, "#43a047"), (.request, "#1e88e5"), (.transfer, "#6a1b9a"), (.wait, "#f9a825"),
        (.incident, "rgba(198,40,40,.3)"), (.error, "#c62828"), (.warning, "#e08600"), (.unhandled, "#9e9e9e"),
    ]

    private func f(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    private func writeAxis(_ axis: Axis, height: Double, to out: OutputWriter) {
        let steps = axis.high > axis.low ? 6 : 1
        for step in 0...steps where steps > 1 || step == 0 {
            let value = steps > 1 ? axis.low + (axis.high - axis.low) * Int64(step) / Int64(steps) : axis.low
            let x = steps > 1 ? Self.labelWidth + Self.plotWidth * Double(step) / Double(steps) : Self.labelWidth + Self.plotWidth / 2
            let anchor = step == steps && steps > 1 ? "end" : step == 0 && steps > 1 ? "start" : "middle"
            out.write("<line class=\"axis\" x1=\"\(f(x))\" y1=\"\(f(Self.axisHeight - 4))\" x2=\"\(f(x))\" y2=\"\(f(height))\"/><text class=\"axis-label\" x=\"\(f(x))\" y=\"14\" text-anchor=\"\(anchor)\">\(e(axis.label(value)))</text>\n")
        }
    }

    private func writeMark(_ mark: TimelineMark, id: String, number: Int, top: Double, axis: Axis, to out: OutputWriter) {
        let x = axis.x(mark.start)
        let classes = "mk c-\(mark.markClass.rawValue)" + (mark.detail.map { " o-\(Self.outcomeClass($0))" } ?? "")
        let head = "id=\"\(id)\" class=\"\(classes)\" data-i=\"\(number)\" tabindex=\"0\""
        let place = mark.start.clock.isEmpty ? "" : mark.start.clock + "  "
        let detail: String = mark.detail.map { "  " + $0 } ?? ""
        let titleText: String = place + mark.kind + "  line " + String(mark.start.line) + detail + "\n" + mark.message
        let title = "<title>" + e(titleText) + "</title>"
        switch mark.markClass {
        case .incident, .wait, .load, .request:
            let end = mark.end.map { axis.x($0) } ?? x
            let (y, h): (Double, Double) = switch mark.markClass {
            case .incident: (1, Self.laneHeight - 2)
            case .wait: (3, Self.laneHeight - 6)
            case .load: (6, 18)
            default: (10, 10)
            }
            out.write("<rect \(head) x=\"\(f(x))\" y=\"\(f(top + y))\" width=\"\(f(max(3, end - x)))\" height=\"\(f(h))\" rx=\"2\">\(title)</rect>\n")
        case .transfer:
            out.write("<rect \(head) x=\"\(f(x - 1))\" y=\"\(f(top + 5))\" width=\"2.5\" height=\"20\">\(title)</rect>\n")
        case .error:
            out.write("<circle \(head) cx=\"\(f(x))\" cy=\"\(f(top + 15))\" r=\"5\">\(title)</circle>\n")
        case .warning:
            out.write("<path \(head) d=\"M\(f(x)) \(f(top + 9))l5.5 10h-11z\">\(title)</path>\n")
        case .unhandled:
            out.write("<circle \(head) cx=\"\(f(x))\" cy=\"\(f(top + 25))\" r=\"2.5\">\(title)</circle>\n")
        }
    }

    /// Outcomes and directions as class names: the first word (`recovered: …` is `recovered`).
    static func outcomeClass(_ detail: String) -> String {
        let word = detail.prefix { $0.isLetter }
        return word.isEmpty ? "other" : String(word)
    }

    private func writeRun(_ run: MarkRun, top: Double, axis: Axis, to out: OutputWriter) {
        let x = axis.x(run.first), end = axis.x(run.last)
        let dominant = MarkClass.allCases.filter { run.counts[$0.index] > 0 }
            .min { MarkClass.drawOrder($0) < MarkClass.drawOrder($1) } ?? .unhandled
        let counts = MarkClass.allCases.filter { run.counts[$0.index] > 0 }.map { "\(run.counts[$0.index]) \($0.label)" }.joined(separator: ", ")
        let span = run.first.clock.isEmpty ? "lines \(run.first.line)–\(run.last.line)" : "\(run.first.clock)–\(run.last.clock), lines \(run.first.line)–\(run.last.line)"
        out.write("<rect class=\"run c-\(dominant.rawValue)\" tabindex=\"0\" x=\"\(f(x))\" y=\"\(f(top + 22))\" width=\"\(f(max(2, end - x)))\" height=\"6\"><title>\(e("\(run.total) marks gathered (\(counts)), \(span)"))</title></rect>\n")
    }

    /// `[lane, class, kind, clock, "input:line", message, hint, detail, count, end clock]` per
    /// mark in the order the SVG numbers them (`data-i`).
    private func markData(_ mark: TimelineMark, lane: TimelineLane) -> String {
        let strings: [String?] = [mark.markClass.rawValue, mark.kind, mark.start.clock, "\(lane.input):\(mark.start.line)", mark.message, mark.hint, mark.detail]
        var text = "[\(lane.index)"
        for string in strings { text += "," + (string.map(HTMLEscaping.scriptString) ?? "null") }
        text += "," + (mark.count.map(String.init) ?? "null")
        text += "," + (mark.end.map { HTMLEscaping.scriptString($0.clock) } ?? "null") + "]"
        return text
    }

    private func writeData(_ data: [String], lanes: [TimelineLane], severalInputs: Bool, totals: [Int], to out: OutputWriter) {
        out.write("<script type=\"application/json\" id=\"parselogs-data\">{\"lanes\":[")
        out.write(lanes.map { HTMLEscaping.scriptString(($0.process ?? "(no process)") + (severalInputs ? " · " + $0.input : "")) }.joined(separator: ","))
        out.write("],\"classes\":[")
        out.write(MarkClass.allCases.filter { totals[$0.index] > 0 }.map {
            "{\"id\":\(HTMLEscaping.scriptString($0.rawValue)),\"label\":\(HTMLEscaping.scriptString($0.label)),\"count\":\(totals[$0.index])}"
        }.joined(separator: ","))
        out.write("],\"marks\":[\n")
        for (index, item) in data.enumerated() { out.write((index > 0 ? ",\n" : "") + item) }
        out.write("\n]}</script>\n")
    }
}

extension MarkClass {
    /// Which class a gathered run is coloured by: the most severe it holds.
    static func drawOrder(_ markClass: MarkClass) -> Int {
        switch markClass {
        case .error: 0
        case .warning: 1
        case .incident: 2
        case .load: 3
        case .request: 4
        case .wait: 5
        case .transfer: 6
        case .unhandled: 7
        }
    }
}
