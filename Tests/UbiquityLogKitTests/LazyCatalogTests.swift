// The catalogue compiles what a run reads (issue #46): making it, asking its kinds (--help,
// --version, `explain`, a usage error) compiles nothing; a record compiles its channel's index
// and the patterns of the rules it is a candidate for; a line without a marker that no rule
// may match compiles nothing.
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct LazyCatalogTests {
    static func fresh() throws -> Catalog {
        try Catalog(rules: Catalog.standardRules, families: Catalog.families, compilingPatterns: false)
    }

    @Test func kindsCompileNothing() throws {
        let catalog = try Self.fresh()
        _ = try FailOn(parsing: "error,import-failed", catalog: catalog)
        _ = try Explanation.text(for: "import-failed", catalog: catalog)
        _ = Explanation.markdown(catalog)
        _ = Classifier(catalog: catalog)
        expectEqual(catalog.compiledChannelCount, 0)
        expectEqual(catalog.compiledPatternCount, 0)
    }

    @Test func aRecordCompilesItsChannelAndItsCandidates() throws {
        let catalog = try Self.fresh()
        let classifier = Classifier(catalog: catalog)
        let record = try require(assemble("2014-03-02 09:14:00.039 Journal[412:60b] -[PFUbiquitySetupAssistant finishSetup](95): CoreData: Ubiquity:  Using local storage: 1\n").first)
        let classification = classifier.classify(record)
        expectEqual(classification.event.kind, .usingLocalStorage)
        expectEqual(catalog.compiledChannelCount, 1)
        let compiled = catalog.compiledPatternCount
        expect(compiled >= 1 && compiled <= 3, "\(compiled) patterns compiled")
        // The same record again compiles nothing more.
        _ = classifier.classify(record)
        expectEqual(catalog.compiledPatternCount, compiled)
    }

    /// A record without a marker that the channels reading such records cannot recognise (an
    /// app's line: `UnmarkedPrefilter` finds none of their texts) compiles no channel.
    @Test func aLineThePrefilterRejectsCompilesNothing() throws {
        let catalog = try Self.fresh()
        let classifier = Classifier(catalog: catalog)
        let record = try require(assemble("2025-01-01 00:00:00.000 x\n").first)
        expectEqual(classifier.classify(record).event.kind, .app)
        expectEqual(catalog.compiledChannelCount, 0)
        expectEqual(catalog.compiledPatternCount, 0)
    }

    /// The prefilter is made once per catalogue: a run's two classifiers (the classifying
    /// stage's, and the reading stage's that tells a line of its own or a plain record) share
    /// its tables, so a one-line log makes it once.
    @Test func classifiersShareThePrefilter() throws {
        let catalog = try Self.fresh()
        let classifying = Classifier(catalog: catalog), reading = Classifier(catalog: catalog)
        let tables = try require(classifying.prefilterTables)
        expectEqual(reading.prefilterTables, tables)
    }

    /// A catalogue made of given rules compiles them at once: a pattern PCRE2 rejects throws.
    @Test func givenRulesAreCompiledAtOnce() {
        let broken = Rule.message("broken", .ubiquity, .usingLocalStorage, "Using (local", samples: [])
        #expect(throws: CatalogError.self) { try Catalog(rules: [broken]) }
    }
}
