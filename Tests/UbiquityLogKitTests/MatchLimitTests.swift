// A rule that backtracks without end on some record gives up at PCRE2's match limit: the
// record becomes an unhandled event flagged as such, counted in the summary, and the run
// goes on.
import Testing
import TestSupport
@testable import UbiquityLogKit
import PCRE2

@Suite struct MatchLimitTests {
    let catastrophic = Rule.message("catastrophic", .ubiquity, .storeSetupFinished, #"(?:x+x+)+y"#, samples: [])

    @Test func aRuleThatHitsTheLimitYieldsAFlaggedUnhandledEvent() throws {
        let catalog = try Catalog(rules: [catastrophic])
        let classifier = Classifier(catalog: catalog, limits: MatchLimits(matchLimit: 10_000))
        // A "y" after the run defeats PCRE2's required-character shortcut, so it backtracks.
        let record = try require(assemble("CoreData: Ubiquity:  " + String(repeating: "x", count: 64) + "!y").first)
        let classification = classifier.classify(record)
        expectEqual(classification.event, .unhandled(limitHit: true))
        expectEqual(classifier.limitHits, 1)
        expectEqual(classification.event.fields, [Field("matchLimitHit", .bool(true))])

        let next = try require(assemble("CoreData: Ubiquity:  xxy").first)
        expectEqual(classifier.classify(next).event.kind, .storeSetupFinished, "the classifier works on after a limit hit")
    }

    @Test func theSummaryCountsLimitHits() throws {
        var builder = SummaryBuilder()
        let record = try require(assemble("CoreData: Ubiquity:  x").first)
        builder.add(record, .unhandled(limitHit: true), message: "")
        builder.add(record, .unhandled(limitHit: false), message: "")
        expectEqual(builder.summary.unhandled, 2)
        expectEqual(builder.summary.matchLimitHits, 1)
    }

    @Test func theStandardCatalogueStaysWithinTheLimitOnLongHostileRecords() throws {
        // Long runs of the characters the patterns repeat over, with no line end in sight.
        let classifier = Classifier(catalog: try Catalog.standard())
        for filler in ["<", " ", "x", ":", "(", "\t", "a = b;"] {
            let body = "CoreData: Ubiquity:  " + String(repeating: filler, count: 200_000 / filler.count)
            let record = try require(assemble(body, limits: RecordAssembler.Limits(maxLines: 10, maxBytes: 1 << 20)).first)
            expectEqual(classifier.classify(record).event, .unhandled(limitHit: false), "\(filler)")
        }
        expectEqual(classifier.limitHits, 0)
    }
}
