// `--format html`: log text cannot inject markup or script, the page links findings to their
// marks, and marks past the budget are gathered with exact counts in bounded memory.
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct HTMLReporterTests {
    static let catalog = Result { try Catalog.standard() }

    /// The page for `text` read as one input named `name`, and the reporter that wrote it.
    static func page(_ text: [UInt8], name: String, limits: HTMLReporter.Limits = .init()) throws -> (html: String, reporter: HTMLReporter) {
        let output = CapturedOutput()
        let reporter = HTMLReporter(output: output.writer, tool: "test", limits: limits)
        let run = LogRun(catalog: try catalog.get(), reporters: [reporter])
        var source = MemorySource(text)
        try run.process(&source, name: name)
        _ = run.finish()
        return (output.text, reporter)
    }

    static func occurrences(of needle: String, in text: String) -> Int {
        text.lowercased().ranges(of: needle.lowercased()).count
    }

    /// The text of the page's data element.
    static func dataText(_ html: String) throws -> Substring {
        let opening = #"<script type="application/json" id="parselogs-data">"#
        let start = try require(html.firstRange(of: opening)).upperBound
        let end = try require(html[start...].firstRange(of: "</script>")).lowerBound
        return html[start..<end]
    }

    /// The JSON of the page's data element, parsed.
    static func data(_ html: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(try dataText(html).utf8))
        return try require(object as? [String: Any])
    }

    @Test func logTextCannotInjectMarkupOrScript() throws {
        let hostile = try Data(contentsOf: Binary.packageRoot.appendingPathComponent("Tests/HTML/hostile.log"))
        let payload = #"</svg></script><script>alert("x")</script><img src=x onerror=alert(1)> 'q' & ##[warning]"#
        expect(String(decoding: hostile, as: UTF8.self).contains(payload), "the log carries the payload")
        let (html, _) = try Self.page(Array(hostile), name: #"in"put</svg><script>'.log"#)
        // The page's own elements, and no other: the payload's tags stayed text.
        expectEqual(Self.occurrences(of: "<script", in: html), 2)
        expectEqual(Self.occurrences(of: "</script", in: html), 2)
        expectEqual(Self.occurrences(of: "<svg", in: html), 1)
        expectEqual(Self.occurrences(of: "</svg", in: html), 1)
        expectEqual(Self.occurrences(of: "<img", in: html), 0)
        expectEqual(Self.occurrences(of: "<b>ur", in: html), 0)
        expect(!html.contains("##["), "no line can read as a workflow command")
        expect(html.contains("&lt;/svg&gt;&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)"), "shown as text")
        // The script's data holds the texts whole: escaped, not cut or changed; JavaScript
        // before ES2019 ends a string at a raw U+2028 or U+2029.
        let script = try Self.dataText(html)
        expect(!script.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
        let data = try Self.data(html)
        let marks = try require(data["marks"] as? [[Any]])
        let messages = marks.compactMap { $0[5] as? String }
        expect(messages.contains { $0.contains(payload) })
        expect(messages.contains { $0.contains("\u{2028} line sep \u{2029}") })
        let lanes = try require(data["lanes"] as? [String])
        expect(lanes.contains(#"Jo<b>ur"nal</svg>"#))
        let places = marks.compactMap { $0[4] as? String }
        expect(places.contains { $0.hasPrefix(#"in"put</svg><script>'.log:"#) })
    }

    @Test func everyFindingLinksToItsMarkWithItsHint() throws {
        let example = try Data(contentsOf: Binary.packageRoot.appendingPathComponent("fixtures/example.log"))
        let (html, reporter) = try Self.page(Array(example), name: "fixtures/example.log")
        expect(html.contains(#"<span class="verdict v-broken">broken</span>"#))
        let links = html.ranges(of: ##"<a class="goto where" href="#m-"##).count
        expectEqual(links, 4, "3 errors and 1 warning")
        for id in reporter.markByPlace.values {
            expect(html.contains("href=\"#\(id)\""))
            expect(html.contains("id=\"\(id)\""))
        }
        expect(html.contains("hint: If one log fails on every launch, it is corrupt"))
        expect(html.contains("<summary>parselogs explain 134302</summary>"))
        expect(html.contains("<summary>parselogs explain import-failed</summary>"))
        // Each mark is drawn with a title, read without the script and printed.
        let drawn = html.ranges(of: " data-i=\"").count
        expect(drawn > 0)
        expect(html.ranges(of: "<title>").count >= drawn + 1)
        try expectEqual(require(Self.data(html)["marks"] as? [Any]).count, drawn)
    }

    /// Each family's records become the bars, ticks and waits their roles say.
    @Test func lanesDrawLoadsRequestsTransfersWaitsAndIncidents() throws {
        func classes(_ fixture: String) throws -> [String: [String]] {
            let bytes = try Data(contentsOf: Binary.packageRoot.appendingPathComponent("fixtures/" + fixture))
            let (_, reporter) = try Self.page(Array(bytes), name: fixture)
            var drawn: [String: [String]] = [:]
            for lane in reporter.lanes {
                drawn[lane.process ?? "", default: []] += lane.marks.map { $0.markClass.rawValue + ($0.detail.map { ":" + HTMLPage.outcomeClass($0) } ?? "") }
            }
            return drawn
        }
        let example = try require(classes("example.log")["Journal"])
        expect(example.contains("load:succeeded"))
        expect(example.contains("transfer:export") && example.contains("transfer:import"))
        expect(example.contains("incident:not"), "the corruption waits at the end of the log")
        expect(example.filter { $0 == "error" }.count == 3 && example.contains("warning") && example.contains("unhandled"))
        let console = try require(classes("device-console.log")["Journal"])
        expect(console.contains("load:failed") && console.contains("load:unavailable"))
        expect(console.contains("incident:recovered"))
        let throttled = try classes("cloudkit/throttled-then-healthy.log")
        let app = try require(throttled["Notes Plus"])
        expect(app.contains("load:succeeded"), "the mirroring set-up")
        expect(app.contains { $0.hasPrefix("request:") })
        expect(app.contains { $0.hasPrefix("wait:") })
        try expect(require(throttled["dasd"]).contains { $0.hasPrefix("wait:") }, "the scheduler's deferral")
    }

    @Test func marksPastTheBudgetAreGatheredWithExactCounts() throws {
        var log = ""
        for index in 0..<3_000 {
            let second = index % 60, minute = index / 60 % 60
            log += "2014-03-02 09:\(minute < 10 ? "0" : "")\(minute):\(second < 10 ? "0" : "")\(second).000 Journal[412:60b] CoreData: Ubiquity:  message \(index) no rule knows\n"
        }
        let limits = HTMLReporter.Limits(marksPerLane: 100, marks: 150)
        let (html, reporter) = try Self.page(Array(log.utf8), name: "many.log", limits: limits)
        let lane = try require(reporter.lanes.first)
        expectEqual(lane.marks.count, 100)
        expect(lane.runs.count <= TimelineLane.maxRuns)
        expectEqual(lane.runs.reduce(0) { $0 + $1.total }, 2_900)
        expectEqual(lane.counts[MarkClass.unhandled.index], 3_000)
        let classes = try require(Self.data(html)["classes"] as? [[String: Any]])
        expectEqual(classes.first { $0["id"] as? String == "unhandled" }?["count"] as? Int, 3_000)
        expect(html.contains("class=\"run c-unhandled\""))
    }

    @Test func gatheredRunsStayBoundedAndKeepEveryCount() {
        let lane = TimelineLane(index: 0, input: "a", process: nil)
        for line in 0..<100_000 { lane.gather(line % 7 == 0 ? .error : .transfer, at: MarkPlace(time: nil, line: line, clock: "")) }
        expect(lane.runs.count <= TimelineLane.maxRuns)
        expectEqual(lane.runs.reduce(0) { $0 + $1.total }, 100_000)
        expectEqual(lane.runs.reduce(0) { $0 + $1.counts[MarkClass.error.index] }, (0..<100_000).filter { $0 % 7 == 0 }.count)
        expect(lane.runs.first?.first.line == 0 && lane.runs.last?.last.line == 99_999)
    }

    @Test func aScriptStringEscapesWhatEndsOrChangesAScriptElement() {
        expectEqual(HTMLEscaping.scriptString("</script><!--&#\u{2028}\u{2029}é"), #""\u003c/script\u003e\u003c!--\u0026\u0023\u2028\u2029é""#)
    }
}
