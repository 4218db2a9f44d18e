// The facts of routine events are made only when some part of the run reads them
// (`Classifier.init(catalog:limits:readsFacts:)`): these tests hold that leaving them out
// changes nothing that is shown.
import Foundation
import PCRE2
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct FactDemandTests {
    static let catalog = Result { try Catalog.standard() }

    /// A reporter that reads every fact, as `--format jsonl` does.
    final class ReadsEverything: Reporter {
        func report(_ item: ClassifiedRecord) {}
        func finish(_ summary: RunSummary) {}
    }

    /// Every rule's samples: a rule that makes only its kind and facts gives the kind alone,
    /// the same rule and the same match start; any other rule gives the same event either way.
    @Test func withoutReadersARuleGivesItsKindAlone() throws {
        let catalog = try Self.catalog.get()
        let full = Classifier(catalog: catalog)
        let bare = Classifier(catalog: catalog, readsFacts: { _ in false })
        var leftOut = 0
        for rule in catalog.rules {
            for sample in rule.samples {
                for record in try assemble(sample) {
                    let made = full.classify(record)
                    let kindAlone = bare.classify(record)
                    #expect(kindAlone.rule?.id == made.rule?.id, "\(rule.id)")
                    #expect(kindAlone.matchStart == made.matchStart, "\(rule.id)")
                    if made.rule?.buildsFactsOnly == true {
                        #expect(kindAlone.event == .message(made.event.kind, []), "\(rule.id)")
                        if !made.event.fields.isEmpty { leftOut += 1 }
                    } else {
                        #expect(kindAlone.event == made.event, "\(rule.id)")
                    }
                }
            }
        }
        #expect(leftOut > 100, "most rules read facts that can be left out")
    }

    /// Facts are made for a kind when anyone reads them: JSON Lines reads all, the summary
    /// those its trackers declare and those of warnings and errors (findings show the error
    /// an event carries), the timeline those of warnings and errors alone, the JSON summary none.
    @Test func aKindsFactsAreMadeWhenAnyoneReadsThem() throws {
        let catalog = try Self.catalog.get()
        let output = CapturedOutput().writer
        for kind in Set(catalog.rules.map(\.kind.id)).sorted().compactMap({ id in catalog.rules.first { $0.kind.id == id }?.kind }) {
            for verbosity in -1...3 {
                #expect(TextReporter(output: output, options: TextOptions(verbosity: verbosity)).readsFacts(of: kind) == (kind.severity >= .warning))
            }
            #expect(!JSONSummaryReporter(output: output).readsFacts(of: kind))
            #expect(JSONLinesReporter(output: output, tool: "test").readsFacts(of: kind))
        }
        #expect(SummaryBuilder.readsFacts(of: .storeUUIDWritten))
        #expect(SummaryBuilder.readsFacts(of: .corruptionHandling))
        #expect(SummaryBuilder.readsFacts(of: .containerForked), "a warning's finding shows the error it carries")
        #expect(!SummaryBuilder.readsFacts(of: .importScan))
        #expect(!SummaryBuilder.readsFacts(of: .storeMigration))
    }

    /// Every input the tests have, and a log of every rule's samples in seeded orders: the
    /// summary made from the facts it asks for is the summary made from all of them.
    @Test func theSummaryReadsNoFactItDoesNotAskFor() throws {
        let catalog = try Self.catalog.get()
        var inputs: [(name: String, bytes: [UInt8])] = []
        let root = Binary.packageRoot.appendingPathComponent("fixtures")
        for folder in [root, root.appendingPathComponent("scenarios")] {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".log") {
                inputs.append((name, Array(try Data(contentsOf: folder.appendingPathComponent(name)))))
            }
        }
        let samples = catalog.rules.flatMap(\.samples)
        var generator = SeededGenerator(state: 7)
        for round in 0..<8 {
            inputs.append(("samples-\(round).log", Array(samples.shuffled(using: &generator).joined(separator: "\n").utf8)))
        }
        for input in inputs {
            let asked = try summary(of: input, catalog: catalog, reporters: [])
            let all = try summary(of: input, catalog: catalog, reporters: [ReadsEverything()])
            let (made, needed) = (JSONSummary.text(asked) + "\n" + SummaryText.lines(asked).joined(separator: "\n"),
                                  JSONSummary.text(all) + "\n" + SummaryText.lines(all).joined(separator: "\n"))
            #expect(made == needed, "\(input.name): \(Self.firstDifference(made, needed))")
        }
    }

    /// The facts search of warnings is passed over where none of the texts every match of
    /// the facts pattern holds stands (`Extract.mayHoldFact`): on every rule's sample and
    /// every record of the fixtures, from every place a match of the pattern starts, one does.
    @Test func theFactsSearchIsSkippedOnlyWhereItCannotMatch() throws {
        let catalog = try Self.catalog.get()
        let regex = try #require(Extract.factsRegex)
        let matcher = Matcher(regex)
        var texts = catalog.rules.flatMap(\.samples)
        let root = Binary.packageRoot.appendingPathComponent("fixtures")
        for name in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() where name.hasSuffix(".log") {
            texts.append(String(decoding: try Data(contentsOf: root.appendingPathComponent(name)), as: UTF8.self))
        }
        var matches = 0
        for text in texts {
            for record in try assemble(text) {
                record.text.withUnsafeBytes { message in
                    var position = 0
                    while position < message.count, (try? matcher.matches(message, from: position)) == true,
                          let whole = matcher.range(ofGroup: 0) {
                        matches += 1
                        #expect(Extract.mayHoldFact(message, from: whole.lowerBound), "\(ByteText.string(message))")
                        #expect(Extract.mayHoldFact(message, from: position))
                        position = whole.lowerBound + 1
                    }
                    if !Extract.mayHoldFact(message, from: 0) { #expect(position == 0) }
                }
            }
        }
        #expect(matches > 50, "the samples and fixtures name facts of every sort")
    }

    /// Where two texts part, with some of each: a summary is too long to read whole.
    static func firstDifference(_ left: String, _ right: String) -> String {
        let common = zip(left.utf8, right.utf8).prefix { $0 == $1 }.count
        let start = max(0, common - 60)
        func around(_ text: String) -> String { String(decoding: text.utf8.dropFirst(start).prefix(140), as: UTF8.self) }
        return "at byte \(common): …\(around(left))… against …\(around(right))…"
    }

    private func summary(of input: (name: String, bytes: [UInt8]), catalog: Catalog, reporters: [Reporter]) throws -> RunSummary {
        let run = LogRun(catalog: catalog, reporters: reporters)
        var source = MemorySource(input.bytes)
        try run.process(&source, name: input.name)
        return run.finish()
    }
}
