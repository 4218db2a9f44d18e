// The CloudKit mirroring family: Core Data's mirroring of a store to CloudKit
// (NSPersistentCloudKitContainer, SwiftData) and the CloudKit framework's and daemons' lines
// around it. Its tracker follows set-ups, requests, exports and imports, throttles and failures.

extension FamilyID {
    public static let cloudKit = FamilyID("cloudkit")
}

extension Family {
    public static let cloudKit = Family(
        id: .cloudKit, recordNoun: "CloudKit mirroring", rules: CloudKitRules.all, guidance: CloudKitGuidance.byKind,
        ownKinds: [.cloudKitEcho], factKinds: CloudKitTracker.factKinds, makeTracker: { CloudKitFamilyTracker() })
}

extension RunSummary {
    /// What the CloudKit mirroring records said; nil when the run has none.
    public var cloudKit: CloudKitStory? { story(CloudKitStory.self) }
}

/// The CloudKit family's tracker in a run.
final class CloudKitFamilyTracker: FamilyTracker {
    private var tracker = CloudKitTracker()

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
        return FamilyEnding(story: tracker.finishedStory) { group, _ in closed.verdict(ofGroup: group) }
    }
}
