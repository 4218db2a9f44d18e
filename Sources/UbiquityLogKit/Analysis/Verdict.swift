/// How a process, an input or the run looks: the answer a person debugging sync wants first.
/// Cases are in order, each worse than the one before for `--fail-on` and for the worst of
/// several: a log that could not vouch for the store is worse than one that shows it recovering,
/// and a store seen broken is worse than anything unread could be.
public enum Verdict: String, Sendable, Comparable, CaseIterable {
    /// Sync records were read and understood: no failure, no corruption, no warning.
    case healthy
    /// Problems that recovered, or warnings.
    case degraded
    /// No sync records to judge: an empty input, another framework's log, logging never
    /// raised, an input that could not be read, or only system daemons' records.
    case noEvidence = "no-evidence"
    /// Sync records were read, but too many of them were not recognised to vouch for the store.
    case unknown
    /// A failure or corruption that did not recover.
    case broken

    private var rank: Int {
        switch self {
        case .healthy: 0
        case .degraded: 1
        case .noEvidence: 2
        case .unknown: 3
        case .broken: 4
        }
    }

    /// As a sentence shows it: `no evidence`.
    public var words: String { self == .noEvidence ? "no evidence" : rawValue }

    public static func < (lhs: Verdict, rhs: Verdict) -> Bool { lhs.rank < rhs.rank }
}
