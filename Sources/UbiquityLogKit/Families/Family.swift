// A family of logs: the records one sync stack prints, the rules that read them, the kinds they
// make and what `explain` says of those, and the tracker that tells their story in a run's
// summary. Each family is declared in its own folder; the engine reads them from the
// catalogue's list (`Catalog.families`) and names none of them.

/// A family's stable id: its member in the JSON summary and its name in `families` lists.
public struct FamilyID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The family of the kinds the classifier makes itself (`Catalog.builtInKinds`): records
    /// no rule recognises and the app's own lines belong to no family of logs.
    public static let builtIn = FamilyID("built-in")
}

/// Everything a family brings: a value, so that a run (or a test) can be given any list of them.
public struct Family: Sendable {
    public let id: FamilyID
    /// How its records are named in a verdict: `3 of 4 ubiquity records not recognised`.
    public let recordNoun: String
    /// How lines spell its markers, and the logging methods whose records are its messages
    /// printed without one.
    public let markers: [MarkerSpelling]
    public let markerMethods: [MarkerMethod]
    /// Its channels, in the order records without a marker are tried on them.
    public let channels: [Channel]
    /// Its rules, in the order they are tried at one position (earlier wins).
    public let rules: [Rule]
    /// What `explain` says of its kinds beyond their one-line meaning, by kind id.
    public let guidance: [String: Guidance]
    /// What `explain` says follows a routine kind of the family that has no guidance of its own.
    public let categoryGuidance: [Category: String]
    /// Kinds the family makes outside its rules.
    public let ownKinds: [EventKind]
    /// Kinds below a warning whose facts its tracker reads (those of warnings and errors are
    /// read whatever their family).
    public let factKinds: [EventKind]
    /// A tracker for one run: it follows the family's records and tells the family's story.
    public let makeTracker: @Sendable () -> any FamilyTracker
    /// A reviewer of each classified record for one run, for a family that needs one.
    public let makeReviewer: (@Sendable () -> any RecordReviewer)?
    /// The error codes `explain` knows from its records.
    public let errorCodes: [ErrorCode]
    /// Advice it adds to another family's catch-all codes, by the reason inside them.
    public let reasonHints: [ReasonHint]
    /// What to say of a code its table does not list, for the domains it knows.
    public let errorCodeFallback: (@Sendable (_ domain: String, _ code: Int) -> ErrorCode?)?
    /// Its warnings that leave a process `healthy` (`BenignFindings`), each with its reason.
    public let benign: [BenignFinding]
    /// How the HTML report's timeline draws its kinds, by kind id.
    public let timelineRoles: [String: TimelineRole]
    /// A finder of its records that tell an earlier one's incident again, for one timeline.
    public let makeRepeatFinder: (@Sendable () -> any RepeatFinder)?

    public init(id: FamilyID, recordNoun: String, markers: [MarkerSpelling], markerMethods: [MarkerMethod] = [], channels: [Channel],
                rules: [Rule], guidance: [String: Guidance] = [:], categoryGuidance: [Category: String] = [:], ownKinds: [EventKind] = [], factKinds: [EventKind] = [],
                errorCodes: [ErrorCode] = [], reasonHints: [ReasonHint] = [],
                errorCodeFallback: (@Sendable (_ domain: String, _ code: Int) -> ErrorCode?)? = nil, benign: [BenignFinding] = [], timelineRoles: [String: TimelineRole] = [:],
                makeRepeatFinder: (@Sendable () -> any RepeatFinder)? = nil,
                makeTracker: @escaping @Sendable () -> any FamilyTracker,
                makeReviewer: (@Sendable () -> any RecordReviewer)? = nil) {
        self.id = id
        self.recordNoun = recordNoun
        self.markers = markers
        self.markerMethods = markerMethods
        self.channels = channels
        self.rules = rules
        self.guidance = guidance
        self.categoryGuidance = categoryGuidance
        self.ownKinds = ownKinds
        self.factKinds = factKinds
        self.errorCodes = errorCodes
        self.reasonHints = reasonHints
        self.errorCodeFallback = errorCodeFallback
        self.benign = benign
        self.timelineRoles = timelineRoles
        self.makeRepeatFinder = makeRepeatFinder
        self.makeTracker = makeTracker
        self.makeReviewer = makeReviewer
    }
}

/// A family's share of one process's records.
public struct FamilyRecords: Sendable, Equatable {
    public var family: FamilyID
    /// How its records are named in a verdict (the family's `recordNoun`).
    public var recordNoun: String
    public var records = 0
    /// Records of the family no rule recognised.
    public var unhandled = 0

    public init(family: FamilyID, recordNoun: String, records: Int = 0, unhandled: Int = 0) {
        self.family = family
        self.recordNoun = recordNoun
        self.records = records
        self.unhandled = unhandled
    }

    /// Whether too few of its records were understood to vouch for the process: at least half
    /// unrecognised. Half, not most: with 1 of 2 records unread, nothing seen says the store is
    /// fine, and a false `healthy` is the worst answer the tool can give.
    public var isMostlyUnrecognised: Bool { records > 0 && unhandled * 2 >= records }

    /// These counts without `count` of their recognised records.
    func less(recognised count: Int) -> FamilyRecords {
        var less = self
        less.records = max(records - count, unhandled)
        return less
    }
}

/// System processes of iOS and macOS that keep sync-backed stores of their own, or log around
/// them, and so show up in a device console beside the app under test. Their records are
/// summarised and judged, but their verdict does not decide the run's unless `--process` names
/// them.
public enum SystemProcesses {
    public static let daemons: Set<String> = [
        "kbd", "dasd", "SpringBoard", "backboardd", "kernel", "launchd", "cloudd", "bird", "ubd", "accountsd",
        "assistantd", "itunescloudd", "itunesstored", "mediaremoted", "nsurlsessiond", "CommCenter",
        "locationd", "searchd", "imagent", "syncdefaultsd", "dataaccessd", "apsd", "securityd",
        "mobileassetd", "callservicesd", "healthd", "routined", "suggestd", "parsecd", "lsd",
        "identityservicesd", "sharingd", "photolibraryd", "assetsd", "CloudKeychainProxy",
        "remindd", "calaccessd", "contactsd", "notifyd", "configd", "powerd", "UserEventAgent",
    ]

    /// Whether `process` is one of the known daemons, or an Apple XPC service (`com.apple.…`).
    public static func isDaemon(_ process: String?) -> Bool {
        guard let process else { return false }
        return daemons.contains(process) || process.hasPrefix("com.apple.")
    }
}
