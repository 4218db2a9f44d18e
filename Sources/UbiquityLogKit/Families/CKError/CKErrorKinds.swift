// The kinds of the `ckerror` family: a CKError logged outside Core Data's mirroring records
// (by the app, a sync library such as CKSyncEngine, or the CloudKit framework's own lines),
// judged by its code and internal code. Severity follows what the error does to sync: error
// when it stops until the app or its set-up is fixed, warning when sync is degraded or waits,
// info when CloudKit or the library handles it.

extension EventKind {
    fileprivate convenience init(ckError id: String, _ category: Category, _ severity: Severity, _ summary: String) {
        self.init(id, category, severity, severity >= .warning ? .notable : .detail, summary, family: .ckError)
    }

    public static let ckErrorNetwork = EventKind(ckError: "ckerror-network", .request, .warning,
        "A CloudKit operation failed for want of the network (3 networkUnavailable, 4 networkFailure, 34 serverResponseLost): it waits for the network and is retried.")
    public static let ckErrorThrottled = EventKind(ckError: "ckerror-throttled", .scheduler, .warning,
        "CloudKit refused an operation for now (6 serviceUnavailable with HTTP 503, 7 requestRateLimited, 23 zoneBusy): it waits for the retry-after.")
    public static let ckErrorDaemonUnreachable = EventKind(ckError: "ckerror-daemon-unreachable", .setup, .error,
        "The process cannot reach the CloudKit daemon (6 serviceUnavailable with a failed connection to cloudd, NSCocoaErrorDomain 4099): the sandbox, entitlements or signing; waiting does not fix it.")
    public static let ckErrorAccount = EventKind(ckError: "ckerror-account", .account, .warning,
        "The iCloud account cannot be used (9 notAuthenticated, 32 managedAccountRestricted, 36 accountTemporarilyUnavailable, new terms to accept, or an account status of noAccount, restricted or temporarilyUnavailable): nothing syncs until it can.")
    public static let ckErrorContainer = EventKind(ckError: "ckerror-container", .setup, .error,
        "The container refused the app (5 badContainer, 8 missingEntitlement, 10 permissionFailure): not assigned to the app's ID, unknown to the server, or no entitlement.")
    public static let ckErrorQuotaExceeded = EventKind(ckError: "ckerror-quota-exceeded", .account, .warning,
        "The user's iCloud storage is full (25 quotaExceeded): records are not saved until space is freed.")
    public static let ckErrorZoneMissing = EventKind(ckError: "ckerror-zone-missing", .import, .warning,
        "The record zone is gone (26 zoneNotFound, 28 userDeletedZone): it must be created again, and after 28 the user chose to delete the app's iCloud data.")
    public static let ckErrorChangeTokenExpired = EventKind(ckError: "ckerror-change-token-expired", .import, .warning,
        "A server change token is no longer valid (21 changeTokenExpired): the changes must be fetched again from scratch (a nil token).")
    public static let ckErrorConflict = EventKind(ckError: "ckerror-conflict", .export, .info,
        "A record changed on the server since it was fetched (14 serverRecordChanged): the server's record comes with the error, to be merged and saved again.")
    public static let ckErrorLimitExceeded = EventKind(ckError: "ckerror-limit-exceeded", .export, .error,
        "A CloudKit limit was hit (27 limitExceeded): a record over 1 MB, or more than 400 items in one request.")
    public static let ckErrorPartialFailure = EventKind(ckError: "ckerror-partial-failure", .request, .warning,
        "Some items of an operation failed (2 partialFailure) and the log does not print which or why.")
    public static let ckErrorCancelled = EventKind(ckError: "ckerror-cancelled", .request, .info,
        "An operation was cancelled (20 operationCancelled), by the app or the library that ran it.")
    public static let ckErrorSubscriptionDuplicate = EventKind(ckError: "ckerror-subscription-duplicate", .setup, .info,
        "A subscription was saved that already exists (15 serverRejectedRequest, internal 2032): nothing to do.")
    public static let ckErrorItemFailed = EventKind(ckError: "ckerror-item-failed", .request, .warning,
        "An item of an operation failed (11 unknownItem, 13, 17, 22 batchRequestFailed alone, 29, 30, 33, 35): that item did not sync.")
    public static let ckErrorRequestFailed = EventKind(ckError: "ckerror-request-failed", .request, .error,
        "A CloudKit operation failed with an error that does not clear by itself (1 internalError, 12 invalidArguments, 15, 16, 18, 19, 24, 31, or a code CloudKit added later).")
}

/// The kind a CKError is judged by, from its code and internal code.
enum CKErrorJudgement {
    /// The family's kinds, most severe first among equals of severity in the order they are preferred.
    static let kinds: [EventKind] = [
        .ckErrorNetwork, .ckErrorThrottled, .ckErrorDaemonUnreachable, .ckErrorAccount, .ckErrorContainer, .ckErrorQuotaExceeded,
        .ckErrorZoneMissing, .ckErrorChangeTokenExpired, .ckErrorConflict, .ckErrorLimitExceeded, .ckErrorPartialFailure,
        .ckErrorCancelled, .ckErrorSubscriptionDuplicate, .ckErrorItemFailed, .ckErrorRequestFailed,
    ]

    /// `daemonUnreachable`: the record says the connection to the CloudKit daemon failed (an
    /// internal code of NSCocoaErrorDomain 4099 and kin, a sandbox refusal).
    static func kind(of error: CKErrorDescription, daemonUnreachable: Bool) -> EventKind {
        let message = (error.serverMessage ?? "") + " " + (error.message ?? "")
        switch error.code {
        case 3?, 4?, 34?: return .ckErrorNetwork
        case 6?: return daemonUnreachable ? .ckErrorDaemonUnreachable : .ckErrorThrottled
        case 7?, 23?: return .ckErrorThrottled
        case 1? where error.internalCode == 4000: return .ckErrorAccount
        case 9?, 32?, 36?: return .ckErrorAccount
        case 5?, 8?, 10?: return .ckErrorContainer
        case 25?: return .ckErrorQuotaExceeded
        case 26?, 28?: return .ckErrorZoneMissing
        case 21?: return .ckErrorChangeTokenExpired
        case 14?: return .ckErrorConflict
        case 27?: return .ckErrorLimitExceeded
        case 2?: return .ckErrorPartialFailure
        case 20?: return .ckErrorCancelled
        case 15? where error.internalCode == 2032 || message.containsASCII("duplicate"): return .ckErrorSubscriptionDuplicate
        case 11?, 13?, 17?, 22?, 29?, 30?, 33?, 35?: return .ckErrorItemFailed
        case nil:
            // `(2022)` alone: the internal code of a throttle.
            return error.internalCode == 2022 || error.internalCode == 2008 ? .ckErrorThrottled : .ckErrorRequestFailed
        default: return .ckErrorRequestFailed
        }
    }

    /// The kind of an operation's errors (outermost first, partial-error entries after it): a
    /// partial failure is judged by its entries, the worst of them, each entry judged by its own
    /// code; an entry that failed only because its batch did (22) counts only when nothing else does.
    static func judge(_ errors: [CKErrorDescription], daemonUnreachable: Bool) -> (kind: EventKind, error: CKErrorDescription)? {
        guard let first = errors.first else { return nil }
        let outer = (kind(of: first, daemonUnreachable: daemonUnreachable), first)
        guard first.code == 2 || first.code == 22, errors.count > 1 else { return outer }
        var best: (kind: EventKind, error: CKErrorDescription)?
        for entry in errors.dropFirst() where entry.code != 2 {
            let judged = (kind: kind(of: entry, daemonUnreachable: daemonUnreachable), error: entry)
            guard let current = best else { best = judged; continue }
            let batchOnly = current.error.code == 22 && entry.code != 22
            if batchOnly || judged.kind.severity > current.kind.severity { best = judged }
        }
        return best ?? outer
    }

    /// `Name (code/internal)`, as the log names the error.
    static func label(_ error: CKErrorDescription) -> String {
        let codes = [error.code.map(String.init), error.internalCode.map(String.init)].compactMap { $0 }.joined(separator: "/")
        return codes.isEmpty ? error.name : "\(error.name) (\(codes))"
    }
}

/// What `explain` says of the family's kinds beyond their meaning.
enum CKErrorGuidance {
    private static func g(_ next: String, _ action: String? = nil) -> Guidance { Guidance(next: next, action: action) }

    static let byKind: [String: Guidance] = [
        "ckerror-network": g("The operation is retried when the network is back; CKSyncEngine does it by itself.",
            "Nothing unless it persists; then check the device's network and whether the app may use cellular data."),
        "ckerror-throttled": g("Operations wait for the retry-after (CKErrorRetryAfterKey) and are throttled again if retried sooner.",
            "Honour the retry-after; send fewer, larger batches. A long quiet spell after a 503 is the back-off, not a hang."),
        "ckerror-daemon-unreachable": g("Every operation fails the same way: the process is cut off from cloudd.",
            "Give the target the iCloud capability with CloudKit and its container, check the App Sandbox (macOS) and sign the build with a team."),
        "ckerror-account": g("Nothing syncs until the account can be used; local data stays.",
            "Check CKContainer.accountStatus; ask the user to sign in, turn iCloud on for the app, or accept the new terms in Settings."),
        "ckerror-container": g("Every operation on the container fails until it is set up.",
            "Check the container identifier, assign the container to the App ID in the developer portal and regenerate the provisioning profile."),
        "ckerror-quota-exceeded": g("Saves fail until the user frees iCloud storage; fetches still work.",
            "Tell the user their iCloud storage is full; keep records small (assets for large data)."),
        "ckerror-zone-missing": g("Saves to the zone fail until it exists again.",
            "Create the zone again and upload the local records; after 28 (userDeletedZone) ask the user first, who chose to delete the data."),
        "ckerror-change-token-expired": g("A fetch with the old token keeps failing.",
            "Drop the saved change token and fetch again with none (a full re-fetch); this is CloudKit's token, not Core Data's persistent-history token (134301)."),
        "ckerror-conflict": g("The save of that record is refused until merged.",
            "Merge with the server record in the error (CKRecordChangedErrorServerRecordKey) and save again; CKSyncEngine hands it to the delegate."),
        "ckerror-limit-exceeded": g("The same request fails again unless it is split or the record made smaller.",
            "Send at most 400 items per request and keep each record under 1 MB (store large data as CKAsset)."),
        "ckerror-partial-failure": g("The failed items are in the error's CKPartialErrorsByItemIDKey, which this line does not print.",
            "Log each entry of partialErrorsByItemID (or capture the framework's log) to see which items failed and why."),
        "ckerror-cancelled": g("Nothing: the operation was cancelled on purpose."),
        "ckerror-subscription-duplicate": g("Nothing: the subscription exists already."),
        "ckerror-item-failed": g("The item stays unsynced; the rest of the operation may have succeeded.",
            "Read the item's error; 22 (batchRequestFailed) items fail only because another item of their atomic batch did: fix that one."),
        "ckerror-request-failed": g("The same operation fails again until its cause is fixed.",
            "Read the error's message and server message (`parselogs explain` with its code); 12 with a schema message means the Production schema lacks a type or field."),
    ]
}
