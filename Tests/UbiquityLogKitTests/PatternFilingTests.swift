// The generated table of what the rule index reads from the catalogue's patterns
// (`PatternFiling+Catalog.swift`) is what `PatternFiling.reading` makes of them now: a rule
// is written in one place, and a stale table fails here (scripts/update-tables rewrites it).
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct PatternFilingTests {
    @Test func theTableIsWhatTheCatalogueReadsNow() throws {
        let url = Binary.packageRoot.appendingPathComponent("Sources/UbiquityLogKit/Classifying/Search/PatternFiling+Catalog.swift")
        let committed = try String(contentsOf: url, encoding: .utf8)
        expect(committed == PatternFiling.catalogSource(Catalog.standardRules),
               "PatternFiling+Catalog.swift differs from the catalogue's patterns: run scripts/update-tables")
        let patterns = Set(Catalog.standardRules.map(\.pattern))
        expectEqual(Set(PatternFiling.catalogFilings.keys.map(\.pattern)), patterns, "the table holds every pattern of the catalogue and no other")
        for pattern in patterns {
            let encoded = try require(PatternFiling.catalogFilings[PatternFiling.PatternKey(pattern)])
            expectEqual(PatternFiling(encoded: encoded), PatternFiling.reading(pattern), pattern)
            expectEqual(PatternFiling.of(pattern), PatternFiling.reading(pattern), pattern)
        }
    }

    @Test func aFilingReadsBackFromItsText() {
        for pattern in ["Foo", #"\d"#, "(?:Fo|Fx)o", ".", PatternPiece.objectPrefix + #"(?::[ ]*Done|Fine)"#, "x?", "caf\u{E9}|\u{1}"] {
            let filing = PatternFiling.reading(pattern)
            expectEqual(PatternFiling(encoded: filing.encoded), filing, pattern)
            expectEqual(PatternFiling.of(pattern), filing, "a pattern the table does not hold is read: \(pattern)")
        }
        for broken in ["", "X||||", "D|0|||", "D|-%zz|||", "D|-a", "D||||||", "D|-a%4|||"] {
            expect(PatternFiling(encoded: broken) == nil, broken)
        }
    }
}
