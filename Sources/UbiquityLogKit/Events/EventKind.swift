// The public vocabulary: every event has a kind with a stable kebab-case id, a category,
// a severity, and the verbosity tier at which the timeline shows it.
import Synchronization

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
    case metadata    // sync metadata: peer receipts, knowledge vectors
    case corruption  // corrupt cloud content and what is done about it
    case setup       // stack and coordinator set-up chatter
    case app         // the app's own lines
    case unhandled   // a family's records no rule recognises
    case schema      // the model and the server's schema: what can be mirrored, what is deployed
    case request     // a mirroring delegate's queue of requests and their outcomes
    case scheduler   // the system's scheduling of sync activities and the server's throttles
    case push        // server pushes that trigger imports
    case teardown    // mirroring stopped for a store
    case sharing     // shares and shared zones
    case recovery    // the delegate's recovery from errors
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

/// A kind is made once (the catalogue's `static let`s) and compared and counted for every
/// record: it is a class, so passing it on is one retain, and its `ordinal` (one per id)
/// makes comparing and hashing an integer operation instead of a string one.
public final class EventKind: Sendable, Hashable, CustomStringConvertible {
    /// Stable kebab-case id: the name used in JSON output and on the command line.
    public let id: String
    public let category: Category
    public let severity: Severity
    public let tier: Tier
    /// One line on what the event means, in the words a person debugging sync would use.
    public let summary: String
    /// Small and dense, the same for kinds of one id: an index for per-kind counts.
    public let ordinal: Int
    /// The family whose records make it.
    public let family: FamilyID

    public init(_ id: String, _ category: Category, _ severity: Severity, _ tier: Tier, _ summary: String, family: FamilyID) {
        self.id = id
        self.family = family
        self.category = category
        self.severity = severity
        self.tier = tier
        self.summary = summary
        self.ordinal = EventKind.ordinals.withLock { ordinals in
            if let known = ordinals[id] { return known }
            ordinals[id] = ordinals.count
            return ordinals.count - 1
        }
    }

    private static let ordinals = Mutex<[String: Int]>([:])

    public var description: String { id }

    public static func == (lhs: EventKind, rhs: EventKind) -> Bool { lhs.ordinal == rhs.ordinal }
    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }
}

/// A fixed set of kinds, asked about for every record: a bit per ordinal, so that asking is a
/// shift and a mask instead of hashing.
struct KindSet: Sendable {
    private var words: [UInt64] = []

    init(_ kinds: [EventKind]) {
        for kind in kinds {
            let word = kind.ordinal >> 6
            if word >= words.count { words += Array(repeating: 0, count: word - words.count + 1) }
            words[word] |= 1 << UInt64(kind.ordinal & 63)
        }
    }

    func contains(_ kind: EventKind) -> Bool {
        let word = kind.ordinal >> 6
        return word < words.count && words[word] & (1 << UInt64(kind.ordinal & 63)) != 0
    }
}
