// What `parselogs explain` says of a kind beyond its one-line meaning: each family declares it
// for its kinds; the classifier's own kinds have theirs here.

public struct Guidance: Sendable, Equatable {
    /// What normally follows this event.
    public let next: String
    /// What to do when it is a problem; nil for events that never are.
    public let action: String?

    public init(next: String, action: String? = nil) {
        self.next = next
        self.action = action
    }

    /// What follows a routine event that neither its kind nor its family's category says more of.
    static let routine = "Nothing in particular: it is part of normal operation."

    /// The guidance of the kinds no family makes (`Catalog.builtInKinds`), by kind id.
    static let builtIn: [String: Guidance] = [
        "unhandled": Guidance(next: "Nothing is known about it.",
                              action: "Run `parselogs --unhandled` on the log and report the templates it lists, so a rule can be added."),
        "app": Guidance(next: "Nothing: it is the app's own logging, shown for context."),
    ]
}

extension EventKind {
    /// The guidance for this kind: its own, else its family's for its category, else routine.
    public var guidance: Guidance {
        if let own = Guidance.builtIn[id], family == .builtIn { return own }
        for family in Catalog.families where family.id == self.family {
            if let own = family.guidance[id] { return own }
            if let next = family.categoryGuidance[category] { return Guidance(next: next) }
        }
        return Guidance(next: Guidance.routine)
    }
}
