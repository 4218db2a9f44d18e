// The timeline roles of the families' message kinds, for the HTML report: one table per
// family, in its folder.

extension TimelineRole {
    static let byKindID: [String: TimelineRole] = UbiquityTimeline.roles.merging(CloudKitTimeline.roles) { first, _ in first }
}
