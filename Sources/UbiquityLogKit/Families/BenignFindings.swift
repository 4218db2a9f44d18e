// What a run may hold and still be `healthy`: the one list of records that are never a failure
// on their own, each with its reason, made of what each family declares (`Family.benign`).
// `SummaryBuilder` holds every process to it (a warning or error it does not excuse makes the
// process at least `degraded`), and docs/verdicts.md prints it (`BenignFindings.markdownTable`;
// a test holds the page equal to it).

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
    /// The families' entries, in the families' order.
    public static let all: [BenignFinding] = Catalog.families.flatMap(\.benign)

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
