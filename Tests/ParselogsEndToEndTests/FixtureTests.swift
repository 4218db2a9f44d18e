// Runs the built binary on every case of fixtures/expected/cases.tsv and compares stdout,
// stderr and the exit status with what the case expects.
import Foundation
import Testing
import TestSupport

struct FixtureCase: CustomTestStringConvertible, Sendable {
    var name: String
    var status: Int32
    var arguments: [String]
    var testDescription: String { name }

    static let all: [FixtureCase] = {
        let path = Binary.packageRoot.appendingPathComponent("fixtures/expected/cases.tsv").path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count == 3, let status = Int32(columns[1]) else { return nil }
            return FixtureCase(name: String(columns[0]), status: status,
                               arguments: columns[2].split(separator: " ").map(String.init))
        }
    }()
}

@Suite struct FixtureTests {
    @Test func theCaseListIsRead() {
        expect(FixtureCase.all.count >= 10)
    }

    @Test(arguments: FixtureCase.all)
    func outputMatchesTheExpectedFile(_ fixture: FixtureCase) throws {
        let expectedPath = Binary.packageRoot.appendingPathComponent("fixtures/expected/\(fixture.name).out").path
        let expected = try String(contentsOfFile: expectedPath, encoding: .utf8)
        let result = try Binary.run(fixture.arguments)
        expectEqual(result.status, fixture.status)
        expectEqual(result.stderr, "")
        if result.stdout != expected {
            let got = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }
            Issue.record("""
            stdout differs from \(fixture.name).out\(first.map { " at line \($0.offset + 1):\n  got:  \($0.element.0)\n  want: \($0.element.1)" } ?? " in length: \(got.count) vs \(want.count) lines")
            """)
        }
    }
}
