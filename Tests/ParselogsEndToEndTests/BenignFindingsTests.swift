// What may stay `healthy` is one list in code (`BenignFindings.all`), printed by
// docs/verdicts.md; and no fixture ends `healthy` with a warning or error that list does not
// excuse (the worst thing the tool can print is a false `healthy`).
import Foundation
import Testing
import TestSupport
import UbiquityLogKit

@Suite struct BenignFindingsTests {
    @Test func theVerdictsPagePrintsTheList() throws {
        let page = DocumentationTests.text("docs/verdicts.md")
        let begin = try require(page.range(of: "<!-- BEGIN benign list -->\n"), "docs/verdicts.md has no benign list")
        let end = try require(page.range(of: "<!-- END benign list -->", range: begin.upperBound..<page.endIndex))
        let printed = String(page[begin.upperBound..<end.lowerBound])
        expectEqual(printed, BenignFindings.markdownTable, "docs/verdicts.md's benign list differs from BenignFindings.all; it should read:\n\(BenignFindings.markdownTable)")
    }

    /// Every log under fixtures/ (the expected outputs aside), read in memory through the
    /// library as the binary reads it.
    static let fixtures: [String] = {
        let root = Binary.packageRoot.appendingPathComponent("fixtures")
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return walker.compactMap { $0 as? String }
            .filter { path in !path.hasPrefix("expected") && [".log", ".ndjson", ".gz", ".txt"].contains { path.hasSuffix($0) } }
            .sorted()
    }()

    @Test func theFixturesAreFound() {
        expect(Self.fixtures.count >= 20)
        expect(Self.fixtures.contains("cloudkit/throttled-then-healthy.log"))
    }

    @Test(arguments: fixtures)
    func noHealthyProcessKeepsAnUnexcusedWarning(fixture: String) throws {
        let path = Binary.packageRoot.appendingPathComponent("fixtures").appendingPathComponent(fixture).path
        let run = LogRun(catalog: try Catalog.standard(), reporters: [])
        var input = try LogInput(path: path)
        do { try run.process(&input, name: fixture) } catch let error as InputError { run.failed(error) }
        input.close()
        let summary = run.finish()
        for process in summary.processes where process.isJudged && process.verdict == .healthy {
            let findings = summary.findings.filter { $0.input == process.input && $0.process == process.process }
            for finding in findings where finding.kind.severity >= .warning {
                expect(BenignFindings.entry(for: finding.kind) != nil, "\(fixture): \(process.name) is healthy with \(finding.kind.id) at line \(finding.line): \(finding.message)")
            }
        }
    }
}
