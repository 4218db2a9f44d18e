// The CloudKit family's rules: Core Data's mirroring records (`CoreData+CloudKit:`) by the
// text after the logging method and the logged object, and the lines of CloudKit's framework
// and daemons around them. Patterns never name the source line or the exact selector: both
// change with every OS release.

enum CloudKitRules {
    static let all: [Rule] = (CloudKitSetupRules.all + AccountRules.all + RequestRules.all + ExportImportRules.all
        + RecoveryRules.all + ModelRules.all + FrameworkRules.all + LifecycleRules.all).map { rule in
        switch rule.id {
        case "cloudkit-account-fetched": rule.producing([.cloudKitAccountUnavailable])
        case "cloudkit-activity-decision": rule.producing([.cloudKitActivityDeferred, .cloudKitActivityRateLimited])
        case "cloudkit-modify-records-finished": rule.producing([.cloudKitExportFailed] + causeKinds)
        case "cloudkit-setup-failed", "cloudkit-not-initialized", "cloudkit-reset-after-error", "cloudkit-request-finished",
             "cloudkit-export-failed", "cloudkit-automatic-export-finished", "cloudkit-fatal-partial-errors",
             "cloudkit-unknown-partial-error", "cloudkit-mirroring-error-text", "cloudkit-ckerror-text", "cloudkit-recovery-failed":
            rule.producing(causeKinds)
        default: rule
        }
    }

    /// The kinds a failure can be reported as, by its cause.
    static let causeKinds: [EventKind] = {
        var seen = Set<EventKind>()
        return CloudKitCause.allCases.map(\.kind).filter { seen.insert($0).inserted }
    }()

    /// The request object (`<NSCloudKitMirroringExportRequest: 0x…> UUID`, or `<private>`).
    static let requestObject = #"(?:<(?<requestClass>[A-Za-z]+)(?::[ ][^>\n]*)?>|<private>)?[ ]?(?<requestID>[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})?"#
    /// `storeIdentifier: X success: N madeChanges: N error: `
    static let result = #"[^\n]*?(?:storeIdentifier:[ ](?<store>[^\s]+)[ ])?success:[ ](?<success>[01])[ ]madeChanges:[ ](?<madeChanges>[01])[ ]error:"#
    /// A store's URL, where the line names one.
    static let url = #"[^\n]*?(?:\(URL:[ ](?<url>[^)\n]+)\)|$)"#
}
