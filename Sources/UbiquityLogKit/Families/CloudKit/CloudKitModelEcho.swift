// Core Data's `Store failed to load` record of a model CloudKit cannot mirror is followed by
// the same error printed again, by the app (`Unresolved error …`, `Fatal error: …`) or by
// SwiftData: one incident, which the summary and the verdict tell once (`reported 2 times`).
// The timelines tell it once too: the print after the store-load record, with the same cause
// and the same `Entity: property` list, is the same incident. Every record stays a record of
// its kind (counted, listed by `--format jsonl`, never unhandled); only its line in a timeline
// changes.

/// Which records repeat the store-load failure before them in their input.
struct CloudKitModelEchoes: RepeatFinder {
    /// The last store-load failure: its input, its line and what it told.
    private var storeLoad: (input: String, line: Int, key: [Field])?

    /// The first line of the store-load failure `item` repeats, or nil when it tells something
    /// of its own. A store-load record is remembered (and repeats nothing: a second one is a
    /// second load); a record of another model kind repeats it when it tells the same cause and
    /// entities, and is the one repeat it has.
    mutating func earlierLine(repeatedBy item: ClassifiedRecord) -> Int? {
        let kind = item.event.kind
        guard kind.severity == .error, Self.kinds.contains(kind.id), case .message(_, let fields) = item.event else { return nil }
        let key = fields.filter { Self.keyFields.contains($0.name) }
        if item.classification.rule?.id == Self.storeLoadRule {
            storeLoad = (item.record.input, item.record.firstLine, key)
            return nil
        }
        guard let earlier = storeLoad, earlier.input == item.record.input, earlier.key == key else { return nil }
        storeLoad = nil
        return earlier.line
    }

    private static let storeLoadRule = "cloudkit-model-store-load"
    private static let keyFields: Set<String> = ["cause", "modelRule", "entities"]
    private static let kinds: Set<String> = Set([EventKind.cloudKitModelAttributeRequired, .cloudKitModelOrderedRelationship,
                                                 .cloudKitModelRelationshipRequired, .cloudKitModelUnsupported].map(\.id))
}
