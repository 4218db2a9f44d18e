// The README documents every event kind, flag and exit status the tool has.
import Foundation
import Testing
import TestSupport
import UbiquityLogKit

@Suite struct DocumentationTests {
    let readme = (try? String(contentsOfFile: Binary.packageRoot.appendingPathComponent("README.md").path, encoding: .utf8)) ?? ""

    @Test func everyKindIsInTheReadme() throws {
        for kind in try Catalog.standard().kinds {
            #expect(readme.contains("| `\(kind.id)` | \(kind.category.rawValue) | \(kind.severity.rawValue) |"), "\(kind.id)")
        }
    }

    @Test func everyFlagIsInTheReadme() {
        for flag in ["`-q`", "`-v`", "`-U`", "`--format FORMAT`", "`--color auto\\|always\\|never`", "`-vv`", "`-vvv`",
                     "`--line-buffered`", "`--fail-on LIST`", "`--kind LIST`", "`--category LIST`", "`--grep PATTERN`",
                     "`markdown`", "`github`", "`junit`", "`json`", "| 130 |", "`--since TIME`, `--until TIME`",
                     "`--input-format auto\\|nslog\\|syslog\\|logshow\\|ndjson`", "`--unhandled`", "parselogs explain KIND", "parselogs explain CODE"] {
            #expect(readme.contains(flag), "\(flag)")
        }
    }

    @Test func theFirstScreenHasTheTwoCommands() {
        let firstScreen = readme.split(separator: "\n").prefix(24).joined(separator: "\n")
        #expect(firstScreen.contains("scripts/parselogs fixtures/example.log"))
        #expect(firstScreen.contains("scripts/test"))
    }
}
