// The facts of routine events, and the details of typed ones (dumps' attributes, a
// relationship's value), are made only when some part of the run reads them
// (`Classifier.init(catalog:limits:readsFacts:readsDetails:)`): these tests hold that leaving
// them out changes nothing that is shown.
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
    /// Each sample record of every rule, classified with everything made and by `lean`, which
    /// must find the same rule at the same place.
    static func eachSample(classifiedBy lean: Classifier, _ body: (Rule, Classification, Classification) -> Void) throws {
        let catalog = try Self.catalog.get()
        let full = Classifier(catalog: catalog)
        for rule in catalog.rules {
            for sample in rule.samples {
                for record in try assemble(sample) {
                    let made = full.classify(record)
                    let other = lean.classify(record)
                    expectEqual(other.rule?.id, made.rule?.id, "\(rule.id)")
                    expectEqual(other.matchStart, made.matchStart, "\(rule.id)")
                    body(rule, made, other)
                }
            }
        }
    }

    @Test func withoutReadersARuleGivesItsKindAlone() throws {
        var leftOut = 0
        try Self.eachSample(classifiedBy: Classifier(catalog: try Self.catalog.get(), readsFacts: { _ in false })) { rule, made, kindAlone in
            if made.rule?.buildsFactsOnly == true {
                expectEqual(kindAlone.event, .message(made.event.kind, []), "\(rule.id)")
                if !made.event.fields.isEmpty { leftOut += 1 }
            } else {
                expectEqual(kindAlone.event, made.event, "\(rule.id)")
            }
        }
        expect(leftOut > 100, "most rules read facts that can be left out")
    }

    /// Facts are made for a kind when anyone reads them: JSON Lines reads all, the summary
    /// those its trackers declare and those of warnings and errors (findings show the error
    /// an event carries), the timeline those of warnings and errors alone, the JSON summary none.
    @Test func aKindsFactsAreMadeWhenAnyoneReadsThem() throws {
        let catalog = try Self.catalog.get()
        let output = CapturedOutput().writer
        for kind in Set(catalog.rules.map(\.kind.id)).sorted().compactMap({ id in catalog.rules.first { $0.kind.id == id }?.kind }) {
            for verbosity in -1...3 {
                expectEqual(TextReporter(output: output, options: TextOptions(verbosity: verbosity)).readsFacts(of: kind), (kind.severity >= .warning))
            }
            expect(!JSONSummaryReporter(output: output).readsFacts(of: kind))
            expect(JSONLinesReporter(output: output, tool: "test").readsFacts(of: kind))
        }
        expect(SummaryBuilder.readsFacts(of: .storeUUIDWritten))
        expect(SummaryBuilder.readsFacts(of: .corruptionHandling))
        expect(SummaryBuilder.readsFacts(of: .containerForked), "a warning's finding shows the error it carries")
        expect(!SummaryBuilder.readsFacts(of: .importScan))
        expect(!SummaryBuilder.readsFacts(of: .storeMigration))
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
            expectEqual(made, needed, "\(input.name): \(Self.firstDifference(made, needed))")
        }
    }

    /// What only a reporter prints of a typed event (a dump's attributes, a relationship's
    /// value) is read by the reporters that show it: the timeline from `-v` where it shows the
    /// kind (by default its headlines of notable kinds name no detail), JSON Lines always; the
    /// summary and the end-of-run formats never.
    @Test func detailsAreReadWhereAReporterShowsThem() throws {
        let output = CapturedOutput().writer
        for kind in [EventKind.objectsExported, .changesImported, .relationshipResolved] {
            expect(!SummaryBuilder.readsDetails(of: kind))
            expect(!TextReporter(output: output, options: TextOptions(verbosity: -1)).readsDetails(of: kind), "-q")
            expect(!TextReporter(output: output, options: TextOptions(verbosity: 0)).readsDetails(of: kind))
            for verbosity in 1...3 {
                expectEqual(TextReporter(output: output, options: TextOptions(verbosity: verbosity)).readsDetails(of: kind), (kind.tier.rawValue <= verbosity))
            }
            expect(JSONLinesReporter(output: output, tool: "test").readsDetails(of: kind))
            expect(!JSONSummaryReporter(output: output).readsDetails(of: kind))
            expect(!MarkdownReporter(output: output).readsDetails(of: kind))
            expect(!JUnitReporter(output: output).readsDetails(of: kind))
            for verbosity in 0...1 {
                let github = GitHubReporter(output: output, options: TextOptions(verbosity: verbosity), stopToken: "t", stepSummaryPath: nil)
                expectEqual(github.readsDetails(of: kind), (verbosity >= 1))
            }
        }
        expect(TextReporter(output: output, options: TextOptions(verbosity: -1)).readsDetails(of: .importFailed), "an error")
        expect(!TextReporter(output: output, options: TextOptions(verbosity: 1)).readsDetails(of: .importScan), "a routine kind, not shown")
    }

    /// Every rule's samples: where no one reads details, dumps list the same objects without
    /// their attributes, a resolved relationship comes without its value, and every other
    /// event is the one made whole.
    @Test func withoutDetailReadersDumpsKeepNoAttributes() throws {
        var attributesLeftOut = 0
        var valuesLeftOut = 0
        try Self.eachSample(classifiedBy: Classifier(catalog: try Self.catalog.get(), readsDetails: { _ in false })) { rule, made, lean in
            switch (made.event, lean.event) {
            case (.objectsExported(let whole), .objectsExported(let listed)), (.changesImported(let whole), .changesImported(let listed)):
                expect(listed.allSatisfy { $0.attributes.isEmpty }, "\(rule.id)")
                expectEqual(listed, whole.map { ObjectChange(operation: $0.operation, entity: $0.entity, objectID: $0.objectID) }, "\(rule.id)")
                if whole.contains(where: { !$0.attributes.isEmpty }) { attributesLeftOut += 1 }
            case (.relationshipResolved(let relationship, let value), .relationshipResolved(let named, let unvalued)):
                expectEqual(named, relationship, "\(rule.id)")
                expect(unvalued.isEmpty, "\(rule.id)")
                if !value.isEmpty { valuesLeftOut += 1 }
            default:
                expectEqual(lean.event, made.event, "\(rule.id)")
            }
        }
        expect(attributesLeftOut >= 2, "exports and imports dump objects with attributes")
        expect(valuesLeftOut >= 1)
    }

    /// Every fixture, in every format and verbosity: what a run prints with the facts and
    /// details its readers ask for is what it prints with all of them made.
    @Test func everyFormatPrintsWhatItPrintedWithEverythingMade() throws {
        let catalog = try Self.catalog.get()
        let reporters: [(name: String, make: (OutputWriter) -> Reporter)] = (-1...3).map { verbosity in
            ("text -v\(verbosity)", { TextReporter(output: $0, options: TextOptions(verbosity: verbosity)) })
        } + [
            ("jsonl", { JSONLinesReporter(output: $0, tool: "test") }),
            ("json", { JSONSummaryReporter(output: $0) }),
            ("markdown", { MarkdownReporter(output: $0) }),
            ("junit", { JUnitReporter(output: $0) }),
            ("html", { HTMLReporter(output: $0, tool: "test") }),
            ("github -v1", { GitHubReporter(output: $0, options: TextOptions(verbosity: 1), stopToken: "t", stepSummaryPath: nil) }),
        ]
        let root = Binary.packageRoot.appendingPathComponent("fixtures")
        var compared = 0
        for folder in [root, root.appendingPathComponent("scenarios")] {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".log") {
                let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
                for reporter in reporters {
                    func printed(_ alsoReading: [Reporter]) throws -> String {
                        let output = CapturedOutput()
                        let run = LogRun(catalog: catalog, reporters: [reporter.make(output.writer)] + alsoReading)
                        var source = MemorySource(bytes)
                        try run.process(&source, name: name)
                        _ = run.finish()
                        return output.text
                    }
                    let asked = try printed([])
                    let whole = try printed([ReadsEverything()])
                    expectEqual(asked, whole, "\(name), \(reporter.name): \(Self.firstDifference(asked, whole))")
                    compared += 1
                }
            }
        }
        expect(compared > 100)
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
