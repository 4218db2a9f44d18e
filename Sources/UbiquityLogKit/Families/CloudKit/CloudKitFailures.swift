extension CloudKitTracker {
    struct Failure {
        var stage: String
        var cause: CloudKitCause?
        var kind: EventKind
        var line: Int
        var text: String
    }

    /// A process's failures, as many as the verdict can tell apart, in the order they came.
    ///
    /// A failure's verdict depends on its stage, cause, kind and text (its key) and on whether
    /// a success came after it: of its stage, or of anything for a transient cause (its
    /// epoch: that count of successes when it came). Two failures with one key and one epoch
    /// are cited alike, and the verdict cites a sentence where it first comes, so the later one
    /// is left out. Once a later failure of a key comes in a later epoch, every earlier one of
    /// that key has a success after it and is cited like the key's first: only the first and
    /// the newest are kept. So a log that repeats one failure a million times, successes or not
    /// between them, keeps two, and the run's memory does not grow with the log.
    struct Failures {
        private(set) var kept: [Failure?] = []
        private var live = 0
        /// Each key's places (see `Places`), found by its text. Keyed by the text, a String: a
        /// dictionary keyed by a struct of its own has its key type's `Hashable` conformance
        /// looked up, at a high price, when the table first grows, and hashes the key's stage,
        /// kind and cause for every failure as well. The few keys of one text are told apart by
        /// a scan.
        private var byText: [String: [Places]] = [:]

        /// A failure's key (its stage, cause, kind and text), where the first and newest of its
        /// failures are in `kept`, and the epoch of the newest.
        private struct Places {
            var stage: String
            var cause: CloudKitCause?
            var kind: Int
            var first: Int
            var newest: Int
            var epoch: Int

            func isKey(of failure: Failure) -> Bool {
                kind == failure.kind.ordinal && cause == failure.cause && stage == failure.stage
            }
        }

        var all: some Sequence<Failure> { kept.lazy.compactMap { $0 } }

        /// Texts told apart. Past them a failure of a new text takes its kind's sentence for its
        /// key (see `folded`), so that a log of failures each naming a field of its own keeps at
        /// most this many texts, plus one for each stage, cause and kind after them; its verdict
        /// is still made from every failure's stage, cause and kind.
        static let maxTexts = RunSummary.maxKeptFindings
        private var textCount = 0
        /// Keys held (for tests).
        var keyCount: Int { byText.values.reduce(0) { $0 + $1.count } }

        /// The text a failure is kept under past `maxTexts`.
        static func folded(_ failure: Failure) -> String {
            String(failure.kind.summary.prefix { $0 != "." && $0 != ";" }) + " (one of many failures past the first \(maxTexts) texts told apart)"
        }

        mutating func add(_ failure: Failure, epoch: Int) {
            var failure = failure
            if textCount >= Failures.maxTexts, byText.index(forKey: failure.text) == nil { failure.text = Failures.folded(failure) }
            // A key met before is found once and changed where it lies: looked up, then set,
            // it would be hashed twice (its texts, the sentence whole).
            if let slot = byText.index(forKey: failure.text),
               let index = byText.values[slot].firstIndex(where: { $0.isKey(of: failure) }) {
                let known = byText.values[slot][index]
                guard known.epoch != epoch else { return }
                if known.newest != known.first {
                    kept[known.newest] = nil
                    live -= 1
                }
                byText.values[slot][index].newest = kept.count
                byText.values[slot][index].epoch = epoch
            } else {
                if byText.index(forKey: failure.text) == nil { textCount += 1 }
                byText[failure.text, default: []].append(Places(stage: failure.stage, cause: failure.cause, kind: failure.kind.ordinal,
                                                                first: kept.count, newest: kept.count, epoch: epoch))
            }
            kept.append(failure)
            live += 1
            if kept.count > 64, live * 2 < kept.count { compact() }
        }

        /// Drops the places of failures left out, renumbering the others.
        /// (The new places in an array by old place, not a `[Int: Int]`: the run's first use of
        /// that dictionary type has a high set-up price.)
        private mutating func compact() {
            var moved = Array(repeating: -1, count: kept.count)
            var packed: [Failure?] = []
            packed.reserveCapacity(live * 2)
            for (index, failure) in kept.enumerated() where failure != nil {
                moved[index] = packed.count
                packed.append(failure)
            }
            func place(_ old: Int) -> Int { moved[old] >= 0 ? moved[old] : old }
            for slot in byText.indices {
                for index in byText.values[slot].indices {
                    byText.values[slot][index].first = place(byText.values[slot][index].first)
                    byText.values[slot][index].newest = place(byText.values[slot][index].newest)
                }
            }
            kept = packed
        }
    }
}
