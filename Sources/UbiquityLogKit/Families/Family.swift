// The families of sync records a verdict stands on, and the processes of a device that keep
// sync stores of their own. A family brings its count of records and of records no rule
// recognised to each process's verdict: none of any family is no evidence; mostly
// unrecognised is unknown. A new family adds a case here and to `of(marker:event:)`.

public struct SyncFamily: Sendable, Hashable {
    /// Stable id, as in the JSON summary's `families`.
    public let id: String
    /// How its records are named in a verdict: `3 of 4 ubiquity records not recognised`.
    public let recordNoun: String
    /// Dense, from 0: an index for per-family counts.
    public let index: Int

    /// Core Data's ubiquity logging, its `CoreData: error:` lines and UbiquityStoreManager's
    /// messages: one story, told by three writers.
    public static let ubiquity = SyncFamily(id: "ubiquity", recordNoun: "ubiquity", index: 0)

    /// Core Data's CloudKit mirroring (NSPersistentCloudKitContainer, SwiftData) and the
    /// CloudKit framework's and daemons' lines around it.
    public static let cloudKit = SyncFamily(id: "cloudkit", recordNoun: "CloudKit mirroring", index: 1)

    public static let all: [SyncFamily] = [.ubiquity, .cloudKit]

    /// The index in `all` of a classified record's family; nil for the app's own lines. An
    /// index, not the family: it is asked for every record, and a family's texts would be
    /// retained and released each time.
    static func index(marker: Marker?, event: Event) -> Int? {
        if case .app = event { return nil }
        switch marker {
        case .cloudKit?: return SyncFamily.cloudKit.index
        case .ubiquity?, .coreDataError?, .storeManager?: return SyncFamily.ubiquity.index
        // Lines without a marker are the CloudKit framework's and daemons' when a rule of that
        // family recognised them.
        case nil: return event.kind.family == .cloudKit ? SyncFamily.cloudKit.index : SyncFamily.ubiquity.index
        }
    }
}

/// A family's share of one process's records.
public struct FamilyRecords: Sendable, Equatable {
    public var family: SyncFamily
    public var records = 0
    /// Records of the family no rule recognised.
    public var unhandled = 0

    /// Whether too few of its records were understood to vouch for the process: at least half
    /// unrecognised. Half, not most: with 1 of 2 records unread, nothing seen says the store is
    /// fine, and a false `healthy` is the worst answer the tool can give.
    public var isMostlyUnrecognised: Bool { records > 0 && unhandled * 2 >= records }
}

/// System processes of iOS and macOS that keep ubiquitous or CloudKit-backed stores of their
/// own, or log around them, and so show up in a device console beside the app under test.
/// Their records are summarised and judged, but their verdict does not decide the run's unless
/// `--process` names them.
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
