// The start of a pattern's match as `LeadingBytes` reads it, and what it tells.

/// The start of a match: `exact` when the pattern read so far matches these bytes and no
/// others, so that what follows it in the pattern extends it.
package struct PatternLead: Hashable {
    package var bytes: [UInt8]
    package var exact: Bool
    /// Where these bytes stand, the pattern matches, and PCRE2 finds that match without
    /// reaching its match limit: everything after them in the pattern can match nothing
    /// and costs PCRE2 a bounded number of steps wherever it is tried (`PatternReader.safeItem`),
    /// and so does each item PCRE2 tries before this path (`reachable`). (Never `exact`.)
    package var sure = false
    /// False when, on the way to these bytes, the pattern passes an item PCRE2 tries first
    /// (an optional item left out, an earlier alternative) whose attempt may cost it
    /// unbounded work: `(?:[^\n]*?x)?Lit` runs into the match limit on a long line where
    /// "Lit" stands. Such a prefix is never sure.
    package var reachable = true
    /// First bytes of items passed on the way that fail at once unless the subject has one
    /// of them where they are tried (`Attempt.firstBytes`): the next byte of the prefix must
    /// be none of them for it to stay `reachable`.
    package var pending: [UInt8] = []
    /// Whether an item passed on the way may have matched where PCRE2 tried it (at a bounded
    /// cost), so that PCRE2 went on from where that match ended, a position this path does
    /// not read: after it, an item that only fails at once where its first byte is not is
    /// no longer known to.
    package var shifted = false
    /// Whether the path relied on such an item failing at once.
    package var reliesOnFailing = false

    package static let empty = PatternLead(bytes: [], exact: true)
    package static let anything = PatternLead(bytes: [], exact: false)

    /// The bytes hashed as one block, not one at a time as `[UInt8]` hashes them: start-up
    /// de-duplicates the prefixes of every pattern.
    package func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        hasher.combine(exact)
        hasher.combine(sure)
        hasher.combine(pending.count)
    }

    /// This prefix followed by `tail` (a prefix of what the pattern has next).
    package func followed(by tail: PatternLead) -> PatternLead {
        var joined = PatternLead(bytes: bytes + tail.bytes, exact: tail.exact, sure: tail.sure, reachable: reachable && tail.reachable,
                            shifted: shifted || tail.shifted, reliesOnFailing: reliesOnFailing || tail.reliesOnFailing)
        if shifted, tail.reliesOnFailing { joined.reachable = false }
        if let next = tail.bytes.first {
            if pending.contains(next) { joined.reachable = false }
            joined.pending = tail.pending
        } else {
            joined.pending = Array(Set(pending + tail.pending)).sorted()
        }
        return joined
    }
}
