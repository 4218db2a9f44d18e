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
        ErrorCode(ErrorCode.cocoa, 4099, "NSXPCConnectionInvalid",
                  "The connection to a daemon was invalidated; for CloudKit, the process could not reach cloudd (on macOS usually the sandbox: \"Sandbox restriction\").",
                  "Give the app the iCloud/CloudKit entitlement and check its sandbox; on iOS, restarting the device restarts the daemon."),
        ErrorCode(ErrorCode.cocoa, 134301, "NSPersistentHistoryTokenExpiredError",
                  "A persistent-history token points at history that was deleted; with CloudKit mirroring the delegate may reset its local metadata.",
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
        .init(1, "internalError", "CloudKit failed inside the client or the daemon.", "Usually transient; with internal code 4000 the device has no signed-in account able to sign requests (common in the simulator): sign in to iCloud.",
              internal: [(4000, "no signing certificate or signature"), (1000, "no response from the server")]),
        .init(2, "partialFailure", "Some items of a request failed; each entry of its partial errors says why.", "Read the entries (parselogs lists them as ckErrors); the log holds them even when the app's event only says code 2.",
              internal: [(1011, "partial failure")]),
        .init(3, "networkUnavailable", "No network.", "Nothing: the container retries when the network is back."),
        .init(4, "networkFailure", "The network failed during the request.", "Nothing unless it persists."),
        .init(5, "badContainer", "The container is unknown or not provisioned for this app.", "Check the container identifier and its assignment to the App ID in the developer portal.",
              internal: [(1014, "no container configuration from the server")]),
        .init(6, "serviceUnavailable", "The server refused the request, usually a throttle (HTTP 503) with a retry-after.", "Wait: the container honours the retry-after. Reduce bursts of changes if it persists.",
              internal: [(2022, "HTTP 503, the client should throttle")]),
        .init(7, "requestRateLimited", "The device refuses requests locally after an earlier throttle.", "Wait for the retry-after; it clears by itself.",
              internal: [(2008, "rate limited after an earlier error")]),
        .init(8, "missingEntitlement", "The app lacks the iCloud/CloudKit entitlement.", "Add the iCloud capability with CloudKit and the container to the target."),
        .init(9, "notAuthenticated", "No usable iCloud account: signed out, CloudKit off for the app, or new terms to accept.", "Ask the user to sign in or accept the terms in Settings.",
              internal: [(1002, "access denied by the user's settings"), (1004, "the account must accept new terms")]),
        .init(10, "permissionFailure", "The user or app may not do this; for a container, it is not assigned to the app's ID.", "Assign the container to the App ID and regenerate the provisioning profile.",
              internal: [(2007, "invalid bundle ID for the container")]),
        .init(11, "unknownItem", "The record does not exist on the server.", "Usually handled by Core Data; persistent cases mean local metadata is stale (reinstall)."),
        .init(12, "invalidArguments", "The request was malformed; for mirroring, usually a field or type missing from the Production schema.", "Deploy the schema from Development to Production in CloudKit Console.",
              internal: [(2006, "field or type not in the production schema")]),
        .init(13, "resultsTruncated", "A query returned fewer results than asked.", "Nothing for mirroring."),
        .init(14, "serverRecordChanged", "The record changed on the server since it was fetched (a conflict).", "Nothing: Core Data merges and retries.",
              internal: [(2004, "oplock error or record already exists")]),
        .init(15, "serverRejectedRequest", "The server rejected the request, for example a duplicate subscription.", "Harmless for duplicate subscriptions; otherwise read the server message.",
              internal: [(2032, "duplicate subscription")]),
        .init(16, "assetFileNotFound", "An asset's file was missing when uploading.", "Check external-storage attributes are not deleted while exporting."),
        .init(17, "assetFileModified", "An asset's file changed while uploading.", "Nothing: it is retried."),
        .init(18, "incompatibleVersion", "The app is too old for the container's data.", "Update the app."),
        .init(19, "constraintViolation", "A unique constraint was violated on the server.", "Do not use unique constraints with CloudKit mirroring."),
        .init(20, "operationCancelled", "The operation was cancelled.", "Nothing: the container cancels and reschedules its own work."),
        .init(21, "changeTokenExpired", "The saved change token is no longer valid.", "Nothing: mirroring refetches."),
        .init(22, "batchRequestFailed", "An item failed only because another in its atomic batch failed.", "Fix the other item's error; these are summarised as \"Batch Request Failed\" CKError's omited."),
        .init(23, "zoneBusy", "The zone is busy; try later.", "Nothing: it is retried."),
        .init(24, "badDatabase", "The operation is not allowed in this database.", "Check the database scope in the container options."),
        .init(25, "quotaExceeded", "The user's iCloud storage is full.", "Tell the user to free iCloud storage.",
              internal: [(2035, "quota exceeded")]),
        .init(26, "zoneNotFound", "The record zone does not exist.", "Nothing if mirroring recreates it; if it repeats, check the environment and container.",
              internal: [(2036, "zone not found")]),
        .init(27, "limitExceeded", "A limit was exceeded: a record over 1 MB, or more than 400 items in one request.", "Keep records small (assets for large data); batches are split by Core Data.",
              internal: [(2023, "record too large"), (1020, "more than 400 items in one request")]),
        .init(28, "userDeletedZone", "The user deleted the app's data from iCloud settings.", "Nothing: mirroring rebuilds the zone from the local store.",
              internal: [(2042, "zone purged by the user")]),
        .init(29, "tooManyParticipants", "A share has too many participants.", "Remove participants from the share."),
        .init(30, "alreadyShared", "The record is already shared.", "Reuse the existing share."),
        .init(31, "referenceViolation", "A reference points at a record that does not exist.", "Save the referenced record first; check relationships across zones."),
        .init(32, "managedAccountRestricted", "The account is restricted by management (MDM).", "The user's organisation must allow iCloud for the app."),
        .init(33, "participantMayNeedVerification", "A share participant must verify their account.", "Ask the participant to open the share and verify."),
        .init(34, "serverResponseLost", "The server's answer was lost; the request may have succeeded.", "Nothing: it is retried."),
        .init(35, "assetNotAvailable", "An asset could not be downloaded.", "Nothing unless it persists."),
        .init(36, "accountTemporarilyUnavailable", "The account is temporarily unavailable (for example, being set up).", "Nothing: wait until the account is ready."),
    ]
}
