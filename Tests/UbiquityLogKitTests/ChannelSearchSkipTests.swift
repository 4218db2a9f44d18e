// Runs of a rule's pattern the search spares where the pattern cannot match: a pattern that
// opens with `\A` past the subject's start, a rule filed under a lead shorter than the texts
// its every match holds where none of them is in the message. `JoinedAlternationTests` holds the search, spared runs
// and all, equal to the channel's joined alternation.
import PCRE2
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct ChannelSearchSkipTests {
    @Test func aPatternOpeningWithTheSubjectStartIsTold() throws {
        let opening = [#"\Aabc"#, #"(?<peer>\Aa)b"#, #"(?:\Aa|\Ab)c"#, #"(?s:(?:\Aa))"#, #"\A(?<peer>[a-z]+):(?<name>[^\n]+)\z"#]
        let not = [#"\Aa|b"#, #"(?:\Aa)?b"#, #"(?:\Aa|b)c"#, #"a\A"#, #"[\A]"#, #"\\A"#, #"(?=\A)a"#, #"\A*a"#, ""]
        for pattern in opening {
            expect(ChannelSearch.matchesOnlyAtSubjectStart(pattern), pattern)
            // PCRE2 agrees: the pattern matches at the start and never from a later offset.
            let matcher = Matcher(try Regex(pattern))
            let subject = Array("abc:d".utf8)
            try subject.withUnsafeBytes { bytes in
                for start in 1..<bytes.count { expect(try !matcher.matches(bytes, from: start), "\(pattern) from \(start)") }
            }
        }
        for pattern in not { expect(!ChannelSearch.matchesOnlyAtSubjectStart(pattern), pattern) }
        let catalog = try Catalog.standard()
        let rule = try require(catalog.rules.first { $0.id == "local-storage-noted" })
        expect(ChannelSearch.matchesOnlyAtSubjectStart(rule.pattern), rule.pattern)
    }

    /// `store-failed-to-load-unmarked` and its kin are led by `[` (an optional tag opens their
    /// pattern): a record that starts with another tag compiles none of them, as none runs.
    @Test func aRuleLedByOneByteRunsOnlyWhereItsTextStands() throws {
        let catalog = try LazyCatalogTests.fresh()
        let compiled = try require(catalog.compiled(.coreDataUnmarked))
        let search = ChannelSearch(compiled, limits: .standard, readsFacts: { _ in false })
        let tagged = Array("[com.apple.cloudkit:Notifications] Running handler for notification <CKDatabaseNotification: 0x1>".utf8)
        expect(try tagged.withUnsafeBytes { try search.first(in: $0) } == nil)
        expectEqual(catalog.compiledPatternCount, 0)
        let failed = Array("[com.apple.coredata:error] error: Store failed to load.  <NSPersistentStoreDescription: 0x1> (type: SQLite, url: file:///a.sqlite) with error = x".utf8)
        let found = try failed.withUnsafeBytes { try search.first(in: $0) }
        expectEqual(found.map { compiled.rules[$0.rule].id }, "store-failed-to-load-unmarked")
    }
}
