// The causes a CloudKit failure is reported by, what each does to the verdict, and the kind
// it is reported as.

/// What went wrong, in the terms of what to do about it. Each cause has an impact on the
/// verdict and a kind that reports a failure of that cause.
public enum CloudKitCause: String, Sendable, CaseIterable {
    case schemaMissingField = "schema-missing-field"
    case schemaMissingType = "schema-missing-type"
    case modelOrderedRelationship = "model-ordered-relationship"
    case modelAttributeRequired = "model-attribute-required"
    case modelRelationshipRequired = "model-relationship-required"
    case modelUnsupported = "model-unsupported"
    case containerNotLinked = "container-not-linked"
    case badContainer = "bad-container"
    case secondInstance = "second-instance"
    case permissionFailure = "permission-failure"
    case missingEntitlement = "missing-entitlement"
    case daemonUnreachable = "daemon-unreachable"
    case notInitialized = "not-initialized"
    case quotaExceeded = "quota-exceeded"
    case recordTooLarge = "record-too-large"
    case tooManyItems = "too-many-items"
    case duplicateRecordInRequest = "duplicate-record-in-request"
    case noAccount = "no-account"
    case accountTerms = "account-terms"
    case notAuthenticated = "not-authenticated"
    case signingFailure = "signing-failure"
    case throttled
    case network
    case zoneNotFound = "zone-not-found"
    case userDeletedZone = "user-deleted-zone"
    case historyExpired = "history-expired"
    case changeTokenExpired = "change-token-expired"
    case objectsInSeveralZones = "objects-in-several-zones"
    case conflict
    case duplicateSubscription = "duplicate-subscription"
    case cancelledPending = "cancelled-pending"
    case operationCancelled = "operation-cancelled"
    case other

    public enum Impact: Int, Sendable, Comparable {
        /// Nothing to do: Core Data handles it or it is a duplicate request.
        case benign = 0
        /// Waits and retries by itself: throttles, the network.
        case transient = 1
        /// Sync is degraded: the user's account or storage, a zone to rebuild, some records.
        case degraded = 2
        /// Sync cannot work until the app or its CloudKit set-up is fixed.
        case broken = 3

        public static func < (lhs: Impact, rhs: Impact) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var impact: Impact {
        switch self {
        case .schemaMissingField, .schemaMissingType, .modelOrderedRelationship, .modelAttributeRequired, .modelRelationshipRequired,
             .modelUnsupported, .containerNotLinked, .badContainer, .secondInstance, .permissionFailure, .missingEntitlement, .daemonUnreachable,
             .notInitialized, .recordTooLarge, .tooManyItems, .duplicateRecordInRequest, .other:
            .broken
        case .quotaExceeded, .noAccount, .accountTerms, .notAuthenticated, .signingFailure, .zoneNotFound, .userDeletedZone,
             .historyExpired, .objectsInSeveralZones:
            .degraded
        case .throttled, .network, .changeTokenExpired:
            .transient
        case .conflict, .duplicateSubscription, .cancelledPending, .operationCancelled:
            .benign
        }
    }

    /// The kind a failure of this cause is reported as.
    public var kind: EventKind {
        switch self {
        case .schemaMissingField, .schemaMissingType: .cloudKitSchemaNotDeployed
        case .modelOrderedRelationship: .cloudKitModelOrderedRelationship
        case .modelAttributeRequired: .cloudKitModelAttributeRequired
        case .modelRelationshipRequired: .cloudKitModelRelationshipRequired
        case .containerNotLinked, .badContainer, .permissionFailure: .cloudKitContainerNotLinked
        case .missingEntitlement: .cloudKitMissingEntitlement
        case .modelUnsupported: .cloudKitModelUnsupported
        case .secondInstance: .cloudKitSecondInstance
        case .daemonUnreachable: .cloudKitDaemonUnreachable
        case .notInitialized: .cloudKitNotInitialized
        case .quotaExceeded: .cloudKitQuotaExceeded
        case .recordTooLarge, .tooManyItems, .duplicateRecordInRequest: .cloudKitLimitExceeded
        case .noAccount, .accountTerms, .notAuthenticated, .signingFailure: .cloudKitAccountUnavailable
        case .throttled: .cloudKitThrottled
        case .network: .cloudKitNetworkUnavailable
        case .zoneNotFound, .userDeletedZone: .cloudKitZoneMissing
        case .historyExpired: .cloudKitHistoryExpired
        case .changeTokenExpired: .cloudKitChangeTokenExpired
        case .objectsInSeveralZones: .cloudKitObjectsInSeveralZones
        case .conflict: .cloudKitRecordConflict
        case .duplicateSubscription: .cloudKitSubscriptionDuplicate
        case .cancelledPending, .operationCancelled: .cloudKitRequestCancelled
        case .other: .cloudKitRequestFailed
        }
    }

    /// Causes ranked for the one a record is reported by: the worst impact first, and among
    /// equals the more specific (a schema gap before the partial failure it came in).
    var rank: Int { impact.rawValue * 100 + (CloudKitCause.allCases.count - (CloudKitCause.allCases.firstIndex(of: self) ?? 0)) }
}
