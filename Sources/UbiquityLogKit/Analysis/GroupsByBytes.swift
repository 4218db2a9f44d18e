// The process groups of an input found by the bytes of their process's name, for
// `SummaryBuilder.groupOfOther`: a device console interleaves a dozen processes or more, and
// most of its records are of another process than the record before.

/// Process groups by the bytes of their process (a name of up to 16 bytes, as `KeptText.Key`
/// tells them apart), in an open-addressed table of plain values: a look-up is a multiply, a
/// shift and a compare or two, where a `Dictionary` hashes the key with SipHash at each one.
/// The same bytes are always the same String, so the same group.
struct GroupsByBytes {
    private struct Slot {
        var first: UInt64 = 0
        var last: UInt64 = 0
        /// -1: empty.
        var count = -1
        var group = 0
    }

    private var slots: [Slot]
    /// `slots.count - 1`, a power of two less one.
    private var mask: Int
    /// The process of each slot's group, apart from the plain values it is found by.
    private var processes: [String?]
    /// The slots in use, so that emptying the table touches only them.
    private var used: [Int] = []

    init() {
        slots = Array(repeating: Slot(), count: 16)
        processes = Array(repeating: nil, count: 16)
        mask = 15
    }

    /// How many processes the table holds.
    var count: Int { used.count }

    @inline(__always)
    private func start(_ key: KeptText.Key) -> Int {
        let mixed = (key.first ^ (key.last &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(truncatingIfNeeded: key.count)) &* 0xFF51_AFD7_ED55_8CCD
        return Int(truncatingIfNeeded: mixed >> 40) & mask
    }

    /// The group of the process whose bytes are `key`, and its process; nil when it is not held.
    @inline(__always)
    func find(_ key: KeptText.Key) -> (group: Int, process: String?)? {
        var index = start(key)
        while true {
            let slot = slots[index]
            if slot.count < 0 { return nil }
            if slot.first == key.first, slot.last == key.last, slot.count == key.count { return (slot.group, processes[index]) }
            index = (index + 1) & mask
        }
    }

    /// Holds `group` and its process for `key` (not held yet).
    mutating func insert(_ key: KeptText.Key, group: Int, process: String?) {
        if (used.count + 1) * 2 > slots.count { grow() }
        var index = start(key)
        while slots[index].count >= 0 { index = (index + 1) & mask }
        slots[index] = Slot(first: key.first, last: key.last, count: key.count, group: group)
        processes[index] = process
        used.append(index)
    }

    /// Twice the slots, each entry placed again.
    private mutating func grow() {
        let old = slots, oldProcesses = processes, oldUsed = used
        slots = Array(repeating: Slot(), count: old.count * 2)
        processes = Array(repeating: nil, count: old.count * 2)
        mask = slots.count - 1
        used = []
        used.reserveCapacity(oldUsed.count)
        for index in oldUsed {
            let slot = old[index]
            insert(KeptText.Key(first: slot.first, last: slot.last, count: slot.count), group: slot.group, process: oldProcesses[index])
        }
    }

    /// Empties the table, keeping its room.
    mutating func removeAll() {
        for index in used {
            slots[index] = Slot()
            processes[index] = nil
        }
        used.removeAll(keepingCapacity: true)
    }
}
