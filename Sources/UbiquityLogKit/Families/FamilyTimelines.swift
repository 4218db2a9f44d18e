// The timeline roles of the families' message kinds, for the HTML report: each family declares
// its own (`Family.timelineRoles`); a kind of two families takes the first family's.

extension TimelineRole {
    static let byKindID: [String: TimelineRole] = Catalog.families.reduce(into: [:]) { roles, family in
        roles.merge(family.timelineRoles) { first, _ in first }
    }
}
