// Tells, in one pass over a message, that no rule of the channels that read lines without a
// marker can match it: most lines of a device console are other processes', and each would
// otherwise be searched by three channels, position by position.
import CByteScan

/// Texts one of which every match of every rule of some channels contains, read from the
/// rules' patterns (`LeadingBytes`): a message with none of them is one no rule of those
/// channels recognises, and needs no search. Read-only once made; threads may share it.
struct UnmarkedPrefilter: Sendable {
    /// nil when some rule has no text known to stand in all its matches: every message may match.
    private let scan: RequiredTextScan?

    /// `rules`: the rules of those channels.
    init(_ rules: [Rule]) {
        var texts: [(bytes: [UInt8], slot: Int)] = []
        for rule in rules {
            guard let known = Self.texts(of: rule) else {
                scan = nil
                return
            }
            texts += known.map { ($0, 0) }
        }
        scan = texts.isEmpty ? nil : RequiredTextScan(texts)
    }

    /// The C tables to ask `mayMatch` with, valid while this prefilter lives; nil when every
    /// message may match.
    var tables: UnsafePointer<cbytescan_required_texts>? { scan?.tables }

    /// Whether some rule may match `message` (false: none of the texts is there).
    @inline(__always)
    static func mayMatch(_ message: UnsafeRawBufferPointer, _ tables: UnsafePointer<cbytescan_required_texts>?,
                         narrow: Bool = false) -> Bool {
        guard let tables else { return true }
        return RequiredTextScan.present(in: message, tables, narrow: narrow) != 0
    }

    /// Texts one of which every match of `rule` contains, none empty; nil when none are known.
    /// The texts the rule index files it under (`PatternFiling.contained`; none for a rule
    /// the index does not hold, tried by its logging method) when their shortest is at least
    /// `shortest` bytes; else, when their shortest is longer, the texts its matches are read to
    /// contain (`LeadingBytes.requiredTexts`, kept in `PatternFiling`): a short text stands in
    /// many messages.
    static func texts(of rule: Rule) -> [[UInt8]]? {
        func shortest(_ texts: [[UInt8]]) -> Int { texts.lazy.map { $0.count }.min() ?? 0 }
        let filing = PatternFiling.of(rule.pattern)
        let filed = rule.position == .lineStart || rule.position == .afterObject ? filing.contained : []
        if shortest(filed) >= Self.shortest { return filed }
        let best = shortest(filing.required) > shortest(filed) ? filing.required : filed
        return best.isEmpty ? nil : best
    }

    /// Filed texts at least this long are taken as they are (see `texts(of:)`).
    static let shortest = 4
}
