/// A value for some of the run's process groups (numbered from 0 as they are met), found by
/// the group without hashing it: a table of four bytes a group says where each value is in a
/// list of the values alone. An array of optional values by group would take a value's bytes
/// for every group of every input, values or not, and copy them all each time it grew.
struct ByGroup<Value> {
    /// By group, where its value is in `values` (-1: it has none).
    private var slots: [Int32] = []
    private var values: [Value] = []

    subscript(group: Int) -> Value? {
        get {
            guard group < slots.count, case let slot = slots[group], slot >= 0 else { return nil }
            return values[Int(slot)]
        }
        set {
            if group >= slots.count { slots.append(contentsOf: repeatElement(-1, count: group + 1 - slots.count)) }
            let slot = slots[group]
            switch (newValue, slot >= 0) {
            case (let value?, true): values[Int(slot)] = value
            case (let value?, false):
                slots[group] = Int32(values.count)
                values.append(value)
            case (nil, true):
                // Rare (a value is set once): its place in `values` stays, unused.
                slots[group] = -1
            case (nil, false): break
            }
        }
    }
}
