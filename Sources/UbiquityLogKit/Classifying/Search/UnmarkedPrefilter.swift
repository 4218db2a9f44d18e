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

    init(_ channels: [CompiledChannel]) {
        var texts: [(bytes: [UInt8], slot: Int)] = []
        for channel in channels {
            for (number, rule) in channel.rules.enumerated() {
                let filed = channel.lineStart.containedTexts[number] ?? channel.afterObject?.containedTexts[number] ?? []
                guard let known = Self.texts(of: rule, filed: filed) else {
                    scan = nil
                    return
                }
                texts += known.map { ($0, 0) }
            }
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
    /// `filed`: the texts the rule index files it under (`RuleIndex.containedTexts`; empty for
    /// none). Where their shortest is under `shortest` bytes, which would stand in many
    /// messages, or there are none, the texts its matches are read to contain
    /// (`LeadingBytes.requiredTexts`, kept in `PatternFiling`) when their shortest is longer.
    static func texts(of rule: Rule, filed: [[UInt8]]) -> [[UInt8]]? {
        func shortest(_ texts: [[UInt8]]) -> Int { texts.map(\.count).min() ?? 0 }
        if shortest(filed) >= Self.shortest { return filed }
        let required = PatternFiling.of(rule.pattern).required
        let best = shortest(required) > shortest(filed) ? required : filed
        return best.isEmpty ? nil : best
    }

    /// Filed texts at least this long are taken as they are (see `texts(of:filed:)`).
    static let shortest = 4
}
