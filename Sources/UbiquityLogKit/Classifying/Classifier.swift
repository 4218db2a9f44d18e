// Turns records into events. A channel's rules are tried as one alternation would try them
// (see `JoinedAlternation`): at each line of the message, the first rule in order that
// matches there wins. Rather than running that alternation, the classifier looks up the rules
// whose literal text starts at a line (`RuleIndex`) and runs only those, each its own
// JIT-compiled pattern.
import CByteScan
import PCRE2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the classifier made of a record.
public struct Classification: Sendable {
    public var event: Event
    /// The rule that recognised the record; nil for unhandled and app records.
    public var rule: Rule?
    /// Where in the record's text the rule matched (the line the message starts on).
    public var matchStart: Int?
}

public final class Classifier {
    public let catalog: Catalog
    /// Each marker's search (nil: its channel has no rules, or its search is not made yet) and
    /// channel, by the marker's ordinal; nil for a marker no family of the catalogue declares.
    /// Apart, so that a record that a rule recognises touches only its search. A channel's
    /// search, and its compiled form, is made when the run first reads a record of it
    /// (`makeSearch`): a short log compiles only the channels it has records of.
    @exclusivity(unchecked) private var markerSearches: [ChannelSearch?]
    /// By the marker's ordinal: whether `markerSearches` holds its search (or that it has none).
    @exclusivity(unchecked) private var markerSearchesMade: [Bool]
    private let markerChannels: [Channel?]
    /// The searches of the channels that read records without a marker, in catalogue order;
    /// nil until a record without a marker passes the prefilter (`prefilterTables`).
    @exclusivity(unchecked) private var unmarkedSearches: [ChannelSearch]?
    /// The tables of what tells a record without a marker that none of those searches can
    /// recognise (`Catalog.unmarkedPrefilter`, which the catalogue keeps: made from the rules
    /// alone at the first such record of any of its classifiers; a record it rejects, most of
    /// a device console and an app's line, has no channel compiled); nil when it tells none.
    /// Read once `unmarkedPrefilterMade`.
    @exclusivity(unchecked) private var unmarkedTables: UnsafePointer<cbytescan_required_texts>?
    @exclusivity(unchecked) private var unmarkedPrefilterMade = false
    /// Each channel's search, once made: a channel that reads a marker's records and unmarked
    /// ones has one search for both.
    @exclusivity(unchecked) private var searches: [Channel: ChannelSearch] = [:]
    private let limits: MatchLimits
    /// The kinds whose facts, and whose details, a part of the run reads (see `init`).
    private let factKinds: Set<EventKind>
    private let detailKinds: Set<EventKind>
    /// Records on which a rule gave up because it hit PCRE2's match limit.
    public private(set) var limitHits = 0

    /// `readsFacts`: whether any part of the run reads the facts of an event of a kind. Where
    /// none does, a rule that makes only its kind and facts (`Rule.buildsFactsOnly`) gives
    /// `.message(kind, [])`: its named groups are not made into fields, nor the facts of its
    /// message looked for. Most records are routine, and a summary reads the facts of few.
    /// `readsDetails`: whether any part of the run reads what only a reporter prints of an
    /// event of a kind (see `RuleMatch.readsDetails`), told to the rule's builder. Both are
    /// asked here, of every kind of the catalogue.
    public init(catalog: Catalog, limits: MatchLimits = .standard, readsFacts: (EventKind) -> Bool = { _ in true },
                readsDetails: (EventKind) -> Bool = { _ in true }) {
        self.catalog = catalog
        self.limits = limits
        let kinds = catalog.kinds
        factKinds = Set(kinds.filter(readsFacts))
        detailKinds = Set(kinds.filter(readsDetails))
        let channels = catalog.allChannels
        let markers = channels.compactMap(\.marker)
        let count = Int(markers.map(\.ordinal).max() ?? 0) + 1
        var markerChannels = [Channel?](repeating: nil, count: count)
        for channel in channels {
            guard let marker = channel.marker, markerChannels[Int(marker.ordinal)] == nil else { continue }
            markerChannels[Int(marker.ordinal)] = channel
        }
        self.markerChannels = markerChannels
        markerSearches = Array(repeating: nil, count: count)
        markerSearchesMade = Array(repeating: false, count: count)
    }

    /// `channel`'s search, made at the first call; nil for a channel without rules.
    private func search(of channel: Channel) -> ChannelSearch? {
        if let search = searches[channel] { return search }
        guard let compiled = catalog.compiled(channel) else { return nil }
        let factKinds = factKinds, detailKinds = detailKinds
        let search = ChannelSearch(compiled, limits: limits, readsFacts: { factKinds.contains($0) }, readsDetails: { detailKinds.contains($0) })
        searches[channel] = search
        return search
    }

    /// The search of the marker of `ordinal` (below `markerSearches.count`) when it is not made yet.
    @inline(never)
    private func makeSearch(_ ordinal: Int) -> ChannelSearch? {
        guard !markerSearchesMade[ordinal] else { return nil }
        markerSearchesMade[ordinal] = true
        let search = markerChannels[ordinal].flatMap(search(of:))
        markerSearches[ordinal] = search
        return search
    }

    /// The searches of the channels that read records without a marker.
    private var unmarked: [ChannelSearch] {
        if let unmarkedSearches { return unmarkedSearches }
        let made = catalog.allChannels.filter(\.readsUnmarked).compactMap(search(of:))
        unmarkedSearches = made
        return made
    }

    /// The tables of the prefilter of the channels that read records without a marker.
    var prefilterTables: UnsafePointer<cbytescan_required_texts>? {
        @inline(__always) get {
            if !unmarkedPrefilterMade { makeUnmarkedPrefilter() }
            return unmarkedTables
        }
    }

    @inline(never)
    private func makeUnmarkedPrefilter() {
        unmarkedTables = catalog.unmarkedPrefilter.tables
        unmarkedPrefilterMade = true
    }

    public func classify(_ record: Record) -> Classification {
        guard let marker = record.marker else { return unmarkedMatch(record) ?? Classification(event: .app) }
        let ordinal = Int(marker.ordinal)
        guard ordinal < markerSearches.count, let search = markerSearches[ordinal] ?? makeSearch(ordinal) else {
            return unmatched(record, ordinal, limitHit: false)
        }
        switch match(record, on: search) {
        case .matched(let found): return found
        case .none(let limitHit): return unmatched(record, ordinal, limitHit: limitHit)
        }
    }

    /// What a record of the marker of `ordinal` is when no rule of its channel recognises it:
    /// what the channels for lines without a marker read in it (an error its message prints,
    /// `… Import failed with error: <CKError 0x…: "Zone Not Found" (26/2036)…>`, is read as
    /// the app's line would be), else its channel's word, unhandled for a marker no family of
    /// the catalogue declares.
    @inline(never)
    private func unmatched(_ record: Record, _ ordinal: Int, limitHit: Bool) -> Classification {
        if let found = unmarkedMatch(record) { return found }
        guard ordinal < markerChannels.count, let channel = markerChannels[ordinal] else {
            return Classification(event: .unhandled(limitHit: limitHit))
        }
        return Classification(event: channel.unmatched(record, limitHit))
    }

    /// What the first of the channels that read lines without a marker recognises in
    /// `record`'s message; nil when none does. Inlined into `classify`, which most records of
    /// a device console (other processes' lines) take this way.
    @inline(__always)
    private func unmarkedMatch(_ record: Record) -> Classification? {
        let tables = prefilterTables
        let bodyStart = min(record.bodyStart, record.text.count)
        guard record.text.withUnsafeBytes({ UnmarkedPrefilter.mayMatch(UnsafeRawBufferPointer(rebasing: $0[bodyStart...]), tables) })
        else { return nil }
        for search in unmarked {
            if case .matched(let found) = match(record, on: search) { return found }
        }
        return nil
    }

    /// The rule search alone, without making an event: whether a rule of the record's channel
    /// recognises `message`. Package-wide for the floor probe (`ParselogsDevTools`), which times it.
    package func recognises(_ message: UnsafeRawBufferPointer, marker: Marker?, method: @autoclosure () -> String?) -> Bool {
        guard let marker else {
            guard UnmarkedPrefilter.mayMatch(message, prefilterTables) else { return false }
            return unmarked.contains { (try? $0.rule(in: message, method: method())) != nil }
        }
        let ordinal = Int(marker.ordinal)
        guard ordinal < markerSearches.count, let search = markerSearches[ordinal] ?? makeSearch(ordinal) else { return false }
        return (try? search.rule(in: message, method: method())) != nil
    }

    private enum Outcome {
        case matched(Classification)
        /// No rule matched; `limitHit` when one gave up at the match limit.
        case none(limitHit: Bool)
    }

    /// Always inlined into `classify`, which calls it once or twice a record: the optimiser
    /// would not inline it by itself, and a call costs more than the work around it.
    @inline(__always)
    private func match(_ record: Record, on search: ChannelSearch) -> Outcome {
        let bodyStart = min(record.bodyStart, record.text.count)
        return record.text.withUnsafeBytes { whole -> Outcome in
            let body = UnsafeRawBufferPointer(rebasing: whole[bodyStart...])
            let found: (rule: Int, start: Int?)
            do throws(PCRE2Error) {
                guard let hit = try search.rule(in: body, method: record.string(.method)) else { return .none(limitHit: false) }
                found = hit
            } catch {
                if error.isResourceLimit { limitHits += 1 }
                return .none(limitHit: true)
            }
            let compiled = search.compiled
            let rule = compiled.rules[found.rule]
            let event: Event
            if search.builds[found.rule] {
                event = rule.build(RuleMatch(record: record, subject: body, subjectStart: bodyStart, matcher: search.matcher(found.rule),
                                             orderedGroups: search.orderedGroups[found.rule],
                                             readsDetails: search.details[found.rule]))
            } else {
                event = .message(rule.kind, [])
            }
            return .matched(Classification(event: event, rule: rule, matchStart: found.start.map { bodyStart + $0 }))
        }
    }
}

extension Classifier: OwnLineRecognizer {
    /// The quick test of the channels that read lines without a marker (`UnmarkedPrefilter`).
    public func mayRecognise(_ line: UnsafeRawBufferPointer) -> Bool {
        UnmarkedPrefilter.mayMatch(line, prefilterTables)
    }

    /// Whether a rule of the channels that read lines without a marker recognises `line`.
    public func recognises(_ line: UnsafeRawBufferPointer) -> Bool { recognises(line, marker: nil, method: nil) }
}

extension Record {
    /// The first line of the message as text (invalid UTF-8 as \\xNN).
    var firstBodyText: String { ByteText.string(firstBodyLine) }
}
