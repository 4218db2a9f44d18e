// Core Data's catch-all error (134060, "A Core Data error occurred") says nothing by its code:
// its `NSLocalizedFailureReason` says what failed. The hint under such an error is chosen by
// that reason, never guessed from the code.

enum FailureReasonAdvice {
    struct Reason {
        /// Texts of the reason, any of which selects the advice.
        let phrases: [String]
        let advice: String
    }

    /// The codes whose hint depends on the reason, each with its reasons in order (the first
    /// that matches wins).
    static let byCode: [(domain: String, code: Int, reasons: [Reason])] = [
        (ErrorCode.cocoa, 134060, [
            Reason(phrases: ["CloudKit integration requires", "CloudKit integration does not support", "does not support ordered relationships",
                             "requires that all attributes", "requires that all relationships", "unique constraints", "Deny delete rule"],
                   advice: "Make the model mirrorable: the reason lists each `Entity: property` CloudKit refuses (make attributes optional or give them defaults, relationships optional and unordered, drop unique constraints and the Deny delete rule)."),
            Reason(phrases: ["assigned to multiple zones"],
                   advice: "Share whole object graphs: related objects must sit in one zone, so move them into the share's zone together or relate them only within one zone."),
            Reason(phrases: ["store was removed", "removed from the coordinator"],
                   advice: "The store left its coordinator while the operation ran: expected after the app removes or replaces it, otherwise find the code that removes it."),
        ]),
    ]

    /// The advice for `error` (of a code in `byCode`) by its failure reason; nil when the
    /// code is not one of them or the reason matches none.
    static func advice(domain: String, code: Int, reason: String?) -> String? {
        guard let reason, let entry = byCode.first(where: { $0.domain == domain && $0.code == code }) else { return nil }
        for candidate in entry.reasons where candidate.phrases.contains(where: { reason.contains($0) }) {
            return candidate.advice
        }
        return nil
    }
}
