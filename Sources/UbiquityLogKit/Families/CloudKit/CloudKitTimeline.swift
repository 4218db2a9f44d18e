// Where the CloudKit mirroring family's kinds go on the HTML report's timeline: set-ups as
// load bars, requests as bars joined by their id, exports and imports as ticks, throttles and
// deferrals as waits.

enum CloudKitTimeline {
    static let roles: [String: TimelineRole] = [
        EventKind.cloudKitSetupEnqueued.id: .loadStart,
        EventKind.cloudKitSetupSucceeded.id: .loadEnd(.succeeded),
        EventKind.cloudKitSetupFailed.id: .loadEnd(.failed),
        EventKind.cloudKitRequestExecuting.id: .requestStart,
        EventKind.cloudKitRequestFinished.id: .requestEnd(.succeeded),
        EventKind.cloudKitRequestFailed.id: .requestEnd(.failed),
        EventKind.cloudKitRequestCancelled.id: .requestEnd(.cancelled),
        EventKind.cloudKitExportFinished.id: .transfer(.export),
        EventKind.cloudKitImportApplied.id: .transfer(.import),
        EventKind.cloudKitThrottled.id: .waitStart,
        EventKind.cloudKitActivityDeferred.id: .waitStart,
        EventKind.cloudKitActivityRateLimited.id: .waitStart,
        EventKind.cloudKitActivityAllowed.id: .waitEnd,
    ]
}
