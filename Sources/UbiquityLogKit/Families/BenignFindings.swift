// What a run may hold and still be `healthy`: the one list of records that are never a failure
// on their own, each with its reason. `SummaryBuilder` holds every process to it (a warning or
// error it does not excuse makes the process at least `degraded`), and docs/verdicts.md prints
// it (`BenignFindings.markdownTable`; a test holds the page equal to it).

/// One kind of record that does not stop a process from being `healthy`.
public struct BenignFinding: Sendable {
    public enum Condition: Sendable, Equatable {
        /// Whatever follows it.
        case always
        /// Only when a later record of its family in the same process reports a success (a
        /// request finished, an import applied, set-up done): the wait it told of ended.
        case cleared
    }

    public let kind: EventKind
    public let condition: Condition
    /// What the log shows, in a few words.
    public let what: String
    /// Why it is benign.
    public let reason: String

    init(_ kind: EventKind, _ condition: Condition, _ what: String, _ reason: String) {
        self.kind = kind
        self.condition = condition
        self.what = what
        self.reason = reason
    }
}

public enum BenignFindings {
    public static let all: [BenignFinding] = [
        BenignFinding(.cloudKitRequestCancelled, .always,
                      "a request dropped because one of its type is already pending (134417), or a CloudKit operation the container cancelled (CKError 20)",
                      "the pending request of that type, or the container's rescheduled operation, does the work; never a failure on its own, whether a later request succeeds or not"),
        BenignFinding(.cloudKitActivityDeferred, .always,
                      "an `Activity Group Policy` deferral",
                      "the app already runs as many sync activities as allowed; the deferred one runs when the earlier one ends"),
        BenignFinding(.cloudKitThrottled, .cleared,
                      "a CloudKit throttle (HTTP 503 or 429, `Request Rate Limited`) that clears",
                      "the container waits for the retry-after and retries; a success after it shows the wait ended"),
        BenignFinding(.cloudKitActivityRateLimited, .cleared,
                      "a rate-limit or power-policy deferral of the system's scheduler that clears",
                      "the system runs the activity once the policy allows it; a success after it shows it did"),
        BenignFinding(.cloudKitQueueIdle, .always,
                      "`No more requests to execute` (or `Deferring additional work`)",
                      "the mirroring delegate's queue is drained or busy with the request before: it is idle, not stuck"),
        BenignFinding(.cloudKitMetadataMigrationSkipped, .always,
                      "a skipped migration of the mirroring metadata (`Skipping migration for 'ANSCK…'`)",
                      "the metadata tables are already up to date"),
        BenignFinding(.cloudKitHistoryCaughtUp, .always,
                      "an ignored remote change (`Ignoring remote change notification because the exporter has already caught up`)",
                      "the exporter already handled that history"),
    ]

    /// The entry that excuses records of `kind`, if any.
    public static func entry(for kind: EventKind) -> BenignFinding? {
        for entry in all where entry.kind == kind { return entry }
        return nil
    }

    /// The list as docs/verdicts.md prints it.
    public static var markdownTable: String {
        var lines = ["| kind | what the log shows | benign | why |", "|---|---|---|---|"]
        for entry in all {
            let when = entry.condition == .always ? "always" : "when it clears"
            lines.append("| `\(entry.kind.id)` | \(entry.what) | \(when) | \(entry.reason) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
