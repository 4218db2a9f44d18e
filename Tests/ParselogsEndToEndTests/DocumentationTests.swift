// The documentation covers what the tool has: the README every flag --help lists, every output
// format and exit status; docs/event-kinds.md every event kind, as the tool generates it today.
import Foundation
import Testing
import TestSupport
import UbiquityLogKit

@Suite struct DocumentationTests {
    static func text(_ path: String) -> String {
        (try? String(contentsOfFile: Binary.packageRoot.appendingPathComponent(path).path, encoding: .utf8)) ?? ""
    }

    let readme = Self.text("README.md")
    let eventKindsPage = Self.text("docs/event-kinds.md")

    @Test func theEventKindsPageIsWhatTheToolGeneratesNow() throws {
        let generated = try Binary.run(["explain", "--list", "--format", "markdown"])
        expectEqual(generated.status, 0)
        expect(!eventKindsPage.isEmpty, "docs/event-kinds.md is missing")
        expectEqual(generated.stdout, eventKindsPage, "docs/event-kinds.md is stale: regenerate it with scripts/update-docs")
    }

    @Test func everyKindIsOnTheEventKindsPage() throws {
        for kind in try Catalog.standard().kinds {
            expect(eventKindsPage.contains("| `\(kind.id)` | \(kind.category.rawValue) | \(kind.severity.rawValue) |"), "\(kind.id)")
        }
    }

    /// Every option `--help` lists, read from the binary's own help so that a new flag cannot be
    /// left out of the README.
    @Test func everyFlagOfTheHelpIsInTheReadme() throws {
        let help = try Binary.run(["--help"]).stdout
        var flags: [String] = []
        for line in help.split(separator: "\n") where line.hasPrefix("  -") {
            for word in line.split(separator: " ").prefix(2) where word.hasPrefix("-") {
                flags.append(String(word.hasSuffix(",") ? word.dropLast() : word))
            }
        }
        expect(flags.contains("--fail-on") && flags.contains("-q"), "the help's options were not found: \(help)")
        for flag in flags {
            expect(readme.contains("`\(flag)`") || readme.contains("`\(flag) ") || readme.contains("`\(flag)\\|"), "\(flag)")
        }
        for also in ["`-vv`", "`-vvv`", "`--generate-completion-script bash\\|zsh\\|fish`", "parselogs explain KIND", "parselogs explain CODE"] {
            expect(readme.contains(also), "\(also)")
        }
    }

    @Test func everyOutputFormatAndExitStatusIsInTheReadme() {
        for format in ["text", "jsonl", "json", "markdown", "github", "junit", "xcode", "sarif"] {
            expect(readme.contains("| `\(format)` |"), "\(format)")
        }
        for inputFormat in ["auto", "nslog", "syslog", "logshow", "ndjson"] {
            expect(readme.contains("`\(inputFormat)`"), "\(inputFormat)")
        }
        for status in [0, 1, 2, 130] {
            expect(readme.contains("| \(status) |"), "exit status \(status)")
        }
    }

    @Test func theFirstScreenHasTheTwoCommands() {
        let firstScreen = readme.split(separator: "\n").prefix(24).joined(separator: "\n")
        expect(firstScreen.contains("scripts/parselogs fixtures/example.log"))
        expect(firstScreen.contains("scripts/test"))
    }

    /// The suite checks with TestSupport's `expect`, `expectEqual` and `require`: each of Swift
    /// Testing's check macros costs the compiler tens of milliseconds, and thousands of them
    /// were a large share of a clean build (docs/development.md). `#expect(throws:)` stays.
    @Test func testsCheckWithFunctionsNotMacros() throws {
        let macros = ["#" + "expect(", "#" + "require("]
        var found: [String] = []
        for target in ["UbiquityLogKitTests", "ParselogsEndToEndTests", "ParselogsDevToolsTests"] {
            let folder = Binary.packageRoot.appendingPathComponent("Tests/\(target)").path
            for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where file.hasSuffix(".swift") {
                let lines = Self.text("Tests/\(target)/\(file)").split(separator: "\n", omittingEmptySubsequences: false)
                for (index, line) in lines.enumerated() where macros.contains(where: { line.contains($0) }) && !line.contains("(throws:") {
                    found.append("Tests/\(target)/\(file):\(index + 1)")
                }
            }
        }
        expect(found.isEmpty, "check with expect, expectEqual or require (TestSupport), not the macros: \(found.joined(separator: ", "))")
    }

    /// The README is read in a few minutes; details belong in docs/.
    @Test func theReadmeStaysShort() {
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        expect(lines <= 400, "README.md has \(lines) lines; move details into docs/")
    }

    /// Relative links in the README and docs/ lead to files that exist (`](path.ext)`, not
    /// `](808)` in a method name), and their anchors (`#section`, in the page or another
    /// Markdown page) to headings that exist.
    @Test func relativeLinksLeadToFilesAndHeadings() throws {
        let root = Binary.packageRoot
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }
        for page in ["README.md"] + docs {
            let folder = root.appendingPathComponent(page).deletingLastPathComponent()
            let text = Self.text(page)
            for link in text.matches(of: /\]\(([A-Za-z0-9_.\/-]+\.[a-z]+)?(?:#([^)]*))?\)/) {
                guard link.output.1 != nil || link.output.2 != nil else { continue }
                var targetText = text
                if let file = link.output.1 {
                    let target = folder.appendingPathComponent(String(file)).standardizedFileURL.path
                    expect(FileManager.default.fileExists(atPath: target), "\(page) links to \(file), which does not exist")
                    targetText = (try? String(contentsOfFile: target, encoding: .utf8)) ?? ""
                    guard file.hasSuffix(".md") else { continue }
                }
                if let anchor = link.output.2 {
                    expect(Self.anchors(targetText).contains(String(anchor)), "\(page) links to \(link.output.1 ?? "")#\(anchor), a heading that does not exist")
                }
            }
        }
    }

    /// The anchors GitHub gives a page's headings: lowercased, punctuation dropped, blanks as hyphens.
    static func anchors(_ markdown: String) -> Set<String> {
        var anchors: Set<String> = []
        for line in markdown.split(separator: "\n") where line.hasPrefix("#") {
            let title = line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces).lowercased()
            anchors.insert(String(title.compactMap { $0 == " " ? "-" : ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : nil }))
        }
        return anchors
    }
}
