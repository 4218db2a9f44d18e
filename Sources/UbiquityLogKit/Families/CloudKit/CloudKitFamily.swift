// The CloudKit mirroring family: Core Data's mirroring of a store to CloudKit
// (NSPersistentCloudKitContainer, SwiftData) and the CloudKit framework's and daemons' lines
// around it. Its tracker follows set-ups, requests, exports and imports, throttles and failures.
import CByteScan

extension FamilyID {
    public static let cloudKit = FamilyID("cloudkit")
}

extension Marker {
    /// `CoreData+CloudKit:`: Core Data's CloudKit mirroring (NSPersistentCloudKitContainer,
    /// SwiftData), wherever the line puts the token (see `CloudKitToken`).
    public static let cloudKit = Marker(readerCode: Int32(CBYTESCAN_CLOUDKIT), name: "cloudkit")
}

extension Channel {
    /// `CoreData+CloudKit:` records: patterns are tried at the start of each line of the message
    /// and after the logging object's description most messages start with.
    public static let cloudKit = Channel("cloudKit", family: .cloudKit, shape: .linesPastDescription, marker: .cloudKit)
    /// Lines of CloudKit's own framework and daemons (`dasd`, `apsd`, the CloudKit framework in
    /// the app) that carry no marker: tried on the app's records, at the message start (after
    /// one `[subsystem:category]`), when no channel before it recognised them.
    public static let cloudKitFramework = Channel("cloudKitFramework", family: .cloudKit, shape: .startPastSubsystemTag, marker: nil,
                                                  readsUnmarked: true)
}

extension Family {
    public static let cloudKit = Family(
        id: .cloudKit, recordNoun: "CloudKit mirroring", markers: [MarkerSpelling(.cloudKit, "CoreData+CloudKit:")],
        channels: [.cloudKit, .cloudKitFramework], rules: CloudKitRules.all,
        guidance: CloudKitGuidance.byKind.merging(CloudKitRules.ModelRules.guidance) { own, _ in own },
        ownKinds: [.cloudKitEcho], factKinds: CloudKitTracker.factKinds, errorCodes: CKErrorCode.errorCodes,
        reasonHints: CKErrorCode.mirroringReasonHints,
        benign: CloudKitBenign.all, timelineRoles: CloudKitTimeline.roles, makeRepeatFinder: { CloudKitModelEchoes() },
        makeTracker: { CloudKitFamilyTracker() }, makeReviewer: { CloudKitEchoReviewer() })
}

extension RunSummary {
    /// What the CloudKit mirroring records said; nil when the run has none.
    public var cloudKit: CloudKitStory? { story(CloudKitStory.self) }
}

/// The CloudKit family's tracker in a run.
final class CloudKitFamilyTracker: FamilyTracker {
    /// Used by the summarising stage alone, one call at a time: the run-time exclusivity check
    /// on each access is left out.
    @exclusivity(unchecked) private var tracker = CloudKitTracker()

    /// Routine kinds whose records carry no facts are only counted (`wants`); the others, and
    /// every warning and error, are read.
    func interest(in kind: EventKind) -> TrackerInterest {
        kind.severity < .warning && CloudKitTracker.countsOnly(kind) != nil ? .some : .every
    }

    func wants(_ record: borrowing Record, _ event: borrowing Event, ordinal: Int) -> Bool {
        switch event {
        case .message(_, let fields) where fields.isEmpty: break
        default: return true
        }
        tracker.count(asEcho: CloudKitTracker.countsOnly(ordinal: ordinal) == true)
        return false
    }

    func beginInput(_ name: String) {}

    func switchGroup(to group: Int, input: String, process: () -> String?) {
        tracker.switchGroup(to: group, input: input)
    }

    func add(_ record: Record, _ event: Event, finding: () -> Finding) {
        tracker.add(record, event)
    }

    func ending(inputs: [String]) -> FamilyEnding {
        let closed = tracker
        return FamilyEnding(story: tracker.finishedStory, verdict: { group, _ in closed.verdict(ofGroup: group) },
                            lastSuccess: { group in closed.lastSuccessLine(ofGroup: group) })
    }
}
