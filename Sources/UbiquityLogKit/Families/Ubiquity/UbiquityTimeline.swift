// Where the ubiquity family's message kinds go on the HTML report's timeline (its typed events'
// roles are the engine's, `TimelineRole.of`).

enum UbiquityTimeline {
    static let roles: [String: TimelineRole] = [
        EventKind.cloudStoreUnavailable.id: .loadEnd(.unavailable),
        EventKind.metadataRecovered.id: .recovery,
        EventKind.baselineAdopted.id: .recovery,
    ]
}
