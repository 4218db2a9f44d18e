// Advice the CloudKit family adds to Core Data's catch-all 134060 (NSCoreDataError), by the
// reason Core Data puts inside it when mirroring refuses a model or a share.

extension CKErrorCode {
    static let mirroringReasonHints: [ReasonHint] = {
        let mirrorable = "Make the model mirrorable: the reason lists each `Entity: property` CloudKit refuses (make attributes optional or give them defaults, relationships optional and unordered, drop unique constraints and the Deny delete rule)."
        let refusals = ["cloudkit integration requires", "cloudkit integration does not support", "does not support ordered relationships", "requires that all attributes", "requires that all relationships", "unique constraints", "deny delete rule"]
        return refusals.map { ReasonHint(ErrorCode.cocoa, 134060, $0, mirrorable) } + [
            ReasonHint(ErrorCode.cocoa, 134060, "assigned to multiple zones", "Share whole object graphs: related objects must sit in one zone, so move them into the share's zone together or relate them only within one zone."),
        ]
    }()
}
