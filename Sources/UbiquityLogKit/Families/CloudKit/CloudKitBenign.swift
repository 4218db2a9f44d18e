// The CloudKit family's records that leave a process `healthy` (see BenignFindings.swift).

enum CloudKitBenign {
    static let all: [BenignFinding] = [
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

}
