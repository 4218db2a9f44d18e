/// The CKError codes `parselogs explain` knows (CKError.Code, CloudKit's public numbers) and
/// the internal codes seen beside them in mirroring logs.
public struct CKErrorCode: Sendable {
    public let code: Int
    public let name: String
    public let meaning: String
    public let action: String
    /// Internal codes seen with it: `(code, what it means)`.
    public let internalCodes: [(Int, String)]

    init(_ code: Int, _ name: String, _ meaning: String, _ action: String, internal internalCodes: [(Int, String)] = []) {
        self.code = code
        self.name = name
        self.meaning = meaning
        self.action = action
        self.internalCodes = internalCodes
    }

    public static func named(_ code: Int) -> CKErrorCode? { all.first { $0.code == code } }

    static let domain = "CKErrorDomain"

    /// The table as `explain` entries (`CKErrorDomain:25`), the internal codes in the meaning,
    /// and the Core Data codes of the mirroring code.
    static let errorCodes: [ErrorCode] = all.map { entry in
        let internals = entry.internalCodes.map { "\($0.0) \($0.1)" }.joined(separator: "; ")
        let meaning = entry.meaning + (internals.isEmpty ? "" : " Internal codes seen with it: \(internals).")
        return ErrorCode(domain, entry.code, "CKError.\(entry.name)", meaning, entry.action)
    } + [
        ErrorCode(ErrorCode.cocoa, 4097, "NSXPCConnectionInterrupted",
                  "The connection to a daemon was interrupted; for CloudKit (often as Service Unavailable 6/NSCocoaErrorDomain:4097), the process lost cloudd.",
                  "Check the app's sandbox, iCloud entitlement and signing; if the daemon crashed, a restart of the device restarts it."),
        ErrorCode(ErrorCode.cocoa, 4099, "NSXPCConnectionInvalid",
                  "The connection to a daemon was invalidated; for CloudKit (often as Service Unavailable 6/NSCocoaErrorDomain:4099), the process could not reach cloudd: not a server throttle, and waiting does not clear it.",
                  "Check the app's sandbox (on macOS \"Sandbox restriction\"), its iCloud entitlement with CloudKit and its signing."),
        ErrorCode(ErrorCode.cocoa, 134301, "NSPersistentHistoryTokenExpiredError",
                  "A persistent-history token points at history that was deleted; with CloudKit mirroring the delegate may reset its local metadata. Not CloudKit's server change token (CKErrorDomain:21).",
                  "Do not purge history the mirroring delegate has not exported yet; a consumer must drop its saved token and refetch."),
        ErrorCode(ErrorCode.cocoa, 134400, "NSCloudKitMirroringDelegate: no iCloud account",
                  "Mirroring cannot start without an iCloud account (CKAccountStatusNoAccount), or with iCloud turned off for the app.",
                  "Ask the user to sign in to iCloud and turn it on for the app; the store works locally meanwhile."),
        ErrorCode(ErrorCode.cocoa, 134406, "NSCloudKitMirroringDelegate: never initialized",
                  "A request was aborted because mirroring set-up never succeeded; the error nested in it is the set-up's real cause.",
                  "Read the nested error (schema, account, container) and fix that; the request itself is fine."),
        ErrorCode(ErrorCode.cocoa, 134410, "NSCloudKitMirroringDelegate: second instance",
                  "Another instance of this store is already mirroring with CloudKit in this process: two containers, or the app and an extension, on one store.",
                  "Keep one container per store in one process; let extensions read the store without CloudKit options."),
        ErrorCode(ErrorCode.cocoa, 134417, "NSCloudKitMirroringDelegate: request cancelled",
                  "A request was dropped because one of its type was already pending.",
                  "Nothing, as long as a later request of that type succeeds."),
        ErrorCode(ErrorCode.cocoa, 134419, "NSCloudKitMirroringDelegate: unknown code",
                  "A mirroring code outside Apple's public headers (reported for exports superseded at once).",
                  "Look at the error nested in it, which carries the cause."),
        ErrorCode(ErrorCode.cocoa, 134421, "NSCloudKitMirroringDelegate: unknown code",
                  "A mirroring code outside Apple's public headers (reported for imports while throttled).",
                  "Look at the error nested in it, which carries the cause."),
    ]
    static func name(of code: Int) -> String? { named(code)?.name }

    public static let all: [CKErrorCode] = [
        .init(1, "internalError", "CloudKit failed inside the client or the daemon; the internal code says where.",
              "With internal code 4000 no signed-in account can sign requests (common in the simulator): sign in to iCloud in Settings. Otherwise it is CloudKit's own fault: retry later, and file feedback with a sysdiagnose if it repeats.",
              internal: [(4000, "no signing certificate or signature: no usable account on the device"), (1000, "no response from the server")]),
        .init(2, "partialFailure", "Some items of a request failed; each entry of its partial errors says why, and entries that failed only with their batch are summarised as Batch Request Failed.",
              "Judge each entry (parselogs lists them as ckErrors, the cause from the worst of them); the log holds them even when the app's event only says code 2.",
              internal: [(1011, "partial failure")]),
        .init(3, "networkUnavailable", "The device has no network, or CloudKit cannot be reached through it.",
              "Wait: the container retries when the network is back. If the device is online, check that no VPN, proxy or firewall blocks CloudKit."),
        .init(4, "networkFailure", "The network failed during the request (connection lost, timed out; the NSURLErrorDomain error under it says which).",
              "Wait: the container retries. If it repeats on a good network, check that no VPN, proxy or firewall blocks CloudKit."),
        .init(5, "badContainer", "The container is unknown to CloudKit or not provisioned for this app (no container configuration from the server).",
              "Check the container identifier in the entitlements and in NSPersistentCloudKitContainerOptions, that the container exists in CloudKit Console, and that it is assigned to the App ID; regenerate the provisioning profile.",
              internal: [(1014, "no container configuration from the server")]),
        .init(6, "serviceUnavailable", "The request was not served. With internal code 2022 and HTTP 503 the server throttles the app (CKErrorShouldThrottleClient, a retry-after); with an XPC error of NSCocoaErrorDomain (4097, 4099) the process never reached the CloudKit daemon (cloudd).",
              "With 2022 (HTTP 503): wait, the container honours the retry-after by itself; batch large changes if it persists. With NSCocoaErrorDomain:4099 or 4097: waiting does not help; check the app's sandbox, its iCloud entitlement and its signing.",
              internal: [(2022, "HTTP 503: the server throttles the client"), (4099, "NSCocoaErrorDomain: the XPC connection to cloudd was invalidated (sandbox, entitlements, signing)"), (4097, "NSCocoaErrorDomain: the XPC connection to cloudd was interrupted")]),
        .init(7, "requestRateLimited", "The device refuses requests locally after an earlier throttle (\"This operation has been rate limited\").",
              "Wait for the retry-after: it clears by itself. Reduce bursts of saves if it repeats.",
              internal: [(2008, "rate limited after an earlier error")]),
        .init(8, "missingEntitlement", "The process lacks the iCloud entitlement with CloudKit (com.apple.developer.icloud-services) or the container's identifier.",
              "Add the iCloud capability with CloudKit and the container to the target, and sign with a profile that includes them."),
        .init(9, "notAuthenticated", "No usable iCloud account: signed out, iCloud or CloudKit off for the app, or new terms to accept.",
              "Ask the user to sign in to iCloud, turn iCloud on for the app, or accept the new terms in Settings; the store works locally meanwhile.",
              internal: [(1002, "access denied by the user's settings"), (1004, "the account must accept new terms")]),
        .init(10, "permissionFailure", "The app or user may not do this; for a container, it is not assigned to the app's ID (Invalid bundle ID for container).",
              "Assign the container to the App ID in the developer portal and regenerate the provisioning profile; if it persists, try a new container.",
              internal: [(2007, "invalid bundle ID for the container")]),
        .init(11, "unknownItem", "The record does not exist on the server.", "Usually handled by Core Data; persistent cases mean local metadata is stale (reinstall)."),
        .init(12, "invalidArguments", "The request was malformed; for mirroring, usually a field or type missing from the Production schema.", "Deploy the schema from Development to Production in CloudKit Console.",
              internal: [(2006, "field or type not in the production schema")]),
        .init(13, "resultsTruncated", "A query returned fewer results than asked.", "Nothing for mirroring."),
        .init(14, "serverRecordChanged", "The record changed on the server since it was fetched (a conflict, or a record to insert that already exists).",
              "Nothing: Core Data fetches the server's record, merges and exports again; a later export must succeed.",
              internal: [(2004, "oplock error or record already exists")]),
        .init(15, "serverRejectedRequest", "The server rejected the request: for a subscription, one that already exists; otherwise the server message says why.",
              "A duplicate subscription is harmless when set-up then succeeds; otherwise read the server message.",
              internal: [(2032, "duplicate subscription")]),
        .init(16, "assetFileNotFound", "An asset's file was missing when uploading.", "Check external-storage attributes are not deleted while exporting."),
        .init(17, "assetFileModified", "An asset's file changed while uploading.", "Nothing: it is retried."),
        .init(18, "incompatibleVersion", "The app is too old for the container's data.", "Update the app."),
        .init(19, "constraintViolation", "A unique constraint was violated on the server.", "Do not use unique constraints with CloudKit mirroring."),
        .init(20, "operationCancelled", "The operation was cancelled (by the container or the system), not failed.", "Nothing: the container cancels and reschedules its own work."),
        .init(21, "changeTokenExpired", "The server change token the client saved is no longer valid: the server cannot send changes since it (not Core Data's persistent-history token, 134301).",
              "Nothing for mirroring: it drops the token and fetches the zone's changes again from scratch; code of your own must discard its saved CKServerChangeToken and refetch."),
        .init(22, "batchRequestFailed", "An item failed only because another in its atomic batch failed.", "Fix the other item's error (the partial failure's other entries); these are summarised as \"Batch Request Failed\" CKError's omited."),
        .init(23, "zoneBusy", "The zone is busy; try later.", "Nothing: it is retried."),
        .init(24, "badDatabase", "The operation is not allowed in this database.", "Check the database scope in the container options."),
        .init(25, "quotaExceeded", "The user's iCloud storage is full.", "Tell the user to free iCloud storage or upgrade it; exports resume after that.",
              internal: [(2035, "quota exceeded")]),
        .init(26, "zoneNotFound", "The record zone does not exist on the server (deleted, never made, or another account or environment).",
              "Nothing if mirroring recreates it and a later request succeeds; if it repeats, check the account, the container and the environment (Development or Production).",
              internal: [(2036, "zone not found")]),
        .init(27, "limitExceeded", "A limit was exceeded: a record over 1 MB, or more than 400 items in one request.", "Keep records small (external-storage attributes become assets); batches are split by Core Data.",
              internal: [(2023, "record too large"), (1020, "more than 400 items in one request")]),
        .init(28, "userDeletedZone", "The user deleted the app's data from iCloud settings: the zone was purged.",
              "Nothing to fix in the app: mirroring recreates the zone and uploads the local store again; tell the user their iCloud copy was deleted.",
              internal: [(2042, "zone purged by the user")]),
        .init(29, "tooManyParticipants", "A share has too many participants.", "Remove participants from the share."),
        .init(30, "alreadyShared", "The record is already shared.", "Reuse the existing share."),
        .init(31, "referenceViolation", "A reference points at a record that does not exist.", "Save the referenced record first; check relationships across zones."),
        .init(32, "managedAccountRestricted", "The account is restricted by management (MDM).", "The user's organisation must allow iCloud for the app."),
        .init(33, "participantMayNeedVerification", "A share participant must verify their account.", "Ask the participant to open the share and verify."),
        .init(34, "serverResponseLost", "The server's answer was lost; the request may have succeeded.", "Nothing: it is retried."),
        .init(35, "assetNotAvailable", "An asset could not be downloaded.", "Nothing unless it persists."),
        .init(36, "accountTemporarilyUnavailable", "The account is temporarily unavailable (for example, being set up or recovering).", "Nothing: wait until the account is ready; mirroring resumes."),
    ]
}
