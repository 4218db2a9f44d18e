// A record can tell again an incident that an earlier record of its input told: the app
// printing the error Core Data has just logged, say. Which records do is a family's knowledge
// (`Family.makeRepeatFinder`); the timelines ask it of each record they show, in order, and
// show such a record once. The record stays a record of its kind everywhere else.

/// Finds, for one family, the records that repeat an earlier one of their input.
public protocol RepeatFinder {
    /// The first line of the earlier record `item` repeats, or nil when it tells something of
    /// its own. Asked of every record a timeline shows, in order.
    mutating func earlierLine(repeatedBy item: ClassifiedRecord) -> Int?
}

/// Every family's repeat finder for one timeline.
struct TimelineRepeats {
    private var finders: [any RepeatFinder]

    init(families: [Family] = Catalog.families) {
        finders = families.compactMap { $0.makeRepeatFinder?() }
    }

    /// The first line of the earlier record `item` repeats, by any family, or nil. Every
    /// finder sees every record, so that each remembers what it needs.
    mutating func earlierLine(repeatedBy item: ClassifiedRecord) -> Int? {
        var found: Int?
        for index in finders.indices {
            if let line = finders[index].earlierLine(repeatedBy: item), found == nil { found = line }
        }
        return found
    }
}
