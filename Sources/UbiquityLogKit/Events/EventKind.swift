// The public vocabulary: every event has a kind with a stable kebab-case id, a category,
// a severity, and the verbosity tier at which the timeline shows it.

public enum Severity: String, Sendable, Comparable, CaseIterable {
    case debug, info, warning, error

    private var rank: Int {
        switch self {
        case .debug: 0
        case .info: 1
        case .warning: 2
        case .error: 3
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// What part of the sync machinery an event is about.
public enum Category: String, Sendable, CaseIterable {
    case store       // loading, adding and switching persistent stores
    case account     // iCloud account, identity token, cloud enabled or disabled
    case export      // local saves written out as transaction logs
    case `import`    // transaction logs from other peers applied locally
    case baseline    // baseline roll, adoption and recovery
    case metadata    // ubiquity metadata, peer receipts, knowledge vectors
    case corruption  // corrupt cloud content and what is done about it
    case setup       // stack and coordinator set-up chatter
    case app         // the app's own lines
    case unhandled   // ubiquity records no rule recognises
}

/// From which verbosity level the text timeline shows an event.
public enum Tier: Int, Sendable, Comparable {
    /// Shown by default: loads, switches, failures, corruption, one line per import/export.
    case notable = 0
    /// Shown with `-v`: every classified event.
    case detail = 1
    /// Shown with `-vv`: routine chatter.
    case routine = 2

    public static func < (lhs: Tier, rhs: Tier) -> Bool { lhs.rawValue < rhs.rawValue }
}

public struct EventKind: Sendable, Hashable, CustomStringConvertible {
    /// Stable kebab-case id: the name used in JSON output and on the command line.
    public let id: String
    public let category: Category
    public let severity: Severity
    public let tier: Tier
    /// One line on what the event means, in the words a person debugging sync would use.
    public let summary: String

    public init(_ id: String, _ category: Category, _ severity: Severity, _ tier: Tier, _ summary: String) {
        self.id = id
        self.category = category
        self.severity = severity
        self.tier = tier
        self.summary = summary
    }

    public var description: String { id }

    public static func == (lhs: EventKind, rhs: EventKind) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
