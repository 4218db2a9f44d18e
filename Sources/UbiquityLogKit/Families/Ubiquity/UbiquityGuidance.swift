// What `parselogs explain` says of the ubiquity family's kinds beyond their one-line meaning:
// what normally happens next and, for warnings and errors, what to do (the error codes are in
// ErrorCode.swift). Kept beside the kinds and rules it explains.

extension Guidance {
    private static func g(_ next: String, _ action: String? = nil) -> Guidance { Guidance(next: next, action: action) }

    static let byCategory: [Category: String] = [
        .store: "The store load or switch it belongs to goes on; look for store-load-succeeded or store-load-failed.",
        .account: "Core Data or UbiquityStoreManager reloads the stores for the account now in use.",
        .export: "The exporter writes the save as a transaction log (transaction-log-written) and iCloud uploads it.",
        .import: "The importer goes on with the next step or log; changes-imported reports each log applied.",
        .baseline: "The baseline step goes on; baseline-rolled or baseline-adopted reports the end of it.",
        .metadata: "Core Data goes on with the store's set-up or import.",
        .corruption: "The corruption is handled as the following events say.",
        .setup: "Set-up goes on; store-setup-finished or using-local-storage: 0 marks its end.",
    ]

    static let byKind: [String: Guidance] = [
        // Store
        "core-data-error": g("Usually a store-add-failed or a failed save follows or precedes it.",
            "Read the message: SQLite errors (19 constraint, 11 corrupt) point at the store file; look up any error code with `parselogs explain CODE`."),
        "store-add-failed": g("The app gets the error from addPersistentStore; UbiquityStoreManager retries or falls back to the local store.",
            "Look up the error's code with `parselogs explain CODE`. Model mismatches (134100) need a migration; 134080 and 134311 mean the iCloud options or entitlements are wrong."),
        "store-deleted": g("A new store is created and loaded in its place.", "If nobody asked for it, check the app's code paths that delete stores (USM deleteCloudStore/deleteCloudContainer)."),
        "store-load-failed": g("UbiquityStoreManager retries the cloud store by rebuilding it from cloud content, or marks it corrupt.",
            "Read the error with it. Repeated failures of the cloud store mean corrupt cloud content: rebuild it from a healthy device."),
        "store-load-retried": g("A store-load-succeeded or store-load-failed for the rebuilt store follows.", "If it fails again, the cloud content itself is corrupt: rebuild it from a healthy device."),
        "store-manager-error": g("Its context and underlying error follow on the next lines (store-manager-error-detail).", "Read the cause: it names the step (opening, migrating, deleting a store) that failed."),
        "store-migration-failed": g("The store stays as it was; UbiquityStoreManager may revert to the other store.", "Check that the source store exists and that both stores use the same model."),
        "content-migration-failed": g("Devices on the new model version cannot import the old content; Core Data may start a new baseline.",
            "Check that every model version in the app can be migrated to the next (a mapping model or inferred mapping), then let one device on the new version rebuild the cloud content."),
        "ubiquity-options-invalid": g("The store is not added: addPersistentStore fails with error 134311 or 134080.",
            "Fix the options: the content name must not contain periods, the store must not live inside the ubiquity container or a .nosync folder, and a store once added with iCloud options must always be added with them."),
        // Account
        "account-change-failed": g("The store stays unusable for iCloud until the app reloads it.", "Reload the persistent stores after NSUbiquityIdentityDidChangeNotification; if it persists, restart the app."),
        "cloud-deleted": g("The local store is loaded instead; iCloud sync stays off until cloud is enabled again.", "If the user did not delete the app's iCloud data, another device or the app did: check calls that remove the ubiquity container."),
        "cloud-store-unavailable": g("The local store is used until the user logs into iCloud.", "Ask the user to log into iCloud (Settings) if cloud sync is expected."),
        // Export
        "export-failed": g("The save stays in the local store but other devices never receive it.", "Check free space and the ubiquity container's permissions; changes saved while exports fail are not synced until the store is rebuilt."),
        "export-problem": g("The exporter rebuilds its cache and goes on.", "Nothing unless it repeats; then check free space."),
        // Import
        "peer-model-mismatch": g("The skipped logs stay in the container; this device never imports them while the model versions differ.",
            "Update the app on every device to the same model version (the peer named is the one behind or ahead); once they match, its logs import."),
        "file-transfer-failed": g("The files stay missing until iCloud retries; imports that need them wait.", "Check the network and the iCloud account; Settings > iCloud > Storage shows whether the container is syncing."),
        "import-conflict-failed": g("The import of that transaction log fails (import-failed).", "The store on this device lacks the log's changes: rebuild it from the cloud if the failure repeats."),
        "import-failed": g("Core Data retries the log later; UbiquityStoreManager may report cloud content corruption (import-failure-detected).",
            "Read the error or exception under it and look up the error's code (`parselogs explain CODE`). If the same log fails on every launch, the cloud content is corrupt: rebuild it from a healthy device."),
        "import-failure-detected": g("UbiquityStoreManager treats the cloud content as corrupt: cloud-corruption-detected follows.", "See which log failed (import-failed before it) and which device wrote it; rebuild the cloud content from a healthy device."),
        "import-object-failed": g("That object's change is skipped or the import fails.", "Check that every device runs the same model version; an unknown entity means a device wrote logs with a newer model."),
        "import-problem": g("The importer skips the item or retries it later.", "Nothing unless it repeats for the same log; then see whether the log's device is still syncing."),
        "incompatible-operation-skipped": g("The log is imported later, once the logs it depends on arrive.", "Nothing unless it never imports; then the device that wrote the missing logs may not have uploaded them."),
        "log-ahead-of-peer": g("The log waits until the logs before it have been imported.", "Nothing unless it stays stuck; then the device that wrote the earlier logs may not have uploaded them."),
        "log-file-error": g("The log is not imported or exported this time; Core Data may retry.", "Check free space and the container's permissions; a log that never reads is corrupt and its device should rebuild the cloud content."),
        "log-file-problem": g("Core Data retries or skips the file.", "Nothing unless it repeats for the same file."),
        "ubiquity-changes-not-merged": g("The app's context does not see the imported changes until it refetches.", "Give UbiquityStoreManager a context to merge into (its delegate's managedObjectContextForUbiquityChanges)."),
        // Baseline
        "baseline-failed": g("The baseline is not made, adopted or used; Core Data keeps using transaction logs or schedules a baseline recovery.",
            "If it repeats, the baseline in the cloud may be corrupt (error 134307): rebuild the cloud content from a healthy device."),
        "baseline-problem": g("Core Data carries on without that part of the baseline.", "Nothing unless a baseline-failed follows."),
        "baseline-recovery-scheduled": g("The local store is replaced by the current baseline (baseline-adopted) or the recovery fails (baseline-failed).", "Nothing unless the recovery fails."),
        "baseline-roll-response-failed": g("A baseline recovery is scheduled (baseline-recovery-scheduled).", "Read the error (often 134307, an unreadable baseline archive); if recovery fails too, rebuild the cloud content."),
        // Metadata
        "metadata-error": g("The operation that needed the metadata fails; Core Data may start a metadata recovery.", "If it repeats, remove the app's local ubiquity support files (the store's .ubiquitySupport) so they are rebuilt, or rebuild the store from the cloud."),
        "metadata-problem": g("Core Data works around it or recovers the metadata (metadata-recovery-started).", "Nothing unless a metadata-error follows."),
        "metadata-recovery-started": g("metadata-recovery-step events, then metadata-recovered or a metadata-error.", "Nothing unless the recovery fails (error 134312)."),
        "peer-receipt-failed": g("Other devices do not learn what this one imported, so old logs are kept longer; set-up may fail.", "Check free space and the ubiquity container's permissions."),
        "peer-receipt-problem": g("The receipt is written again later.", "Nothing unless it repeats."),
        // Corruption
        "cloud-content-rebuild": g("The cloud content is replaced; the other devices switch to the new cloud store (store-uuid-changed).", "Let the rebuild finish on this device before using the others."),
        "cloud-corruption-detected": g("The corruption is handled by the app or by UbiquityStoreManager's strategy (corruption-handling): wait for a healthy device, or rebuild here.",
            "Find the device whose store is healthy (device store is healthy) and rebuild the cloud content from it; the other devices then reload."),
        "cloud-rebuild-failed": g("The cloud store stays unavailable.", "Rebuild from a device that still has a store, or delete the cloud content and start over from a local store."),
        "cloud-store-marked-corrupt": g("The cloud store stays unavailable until the cloud content is rebuilt.", "Rebuild the cloud content from a healthy device (or from this device's local store)."),
        "container-forked": g("This device's own logs are moved aside and it starts over from the cloud's history.", "Nothing unless changes made on this device while forked are missing; then they must be re-entered or merged by hand."),
        "corruption-handling": g("Either another device rebuilds the cloud content (store-uuid-changed arrives) or this one does (cloud-content-rebuild).", "If no device rebuilds, open the app on a device whose store is healthy."),
        // Setup
        "clouddocs-unavailable": g("iCloud sync fails for this process.", "Run on a system that has CloudDocs (iOS 8 or OS X 10.10 and later) or check the app's sandbox."),
        "container-own-file": g("Core Data passes over the file; its own baseline and metadata are read where they belong.", nil),
        "system-store": g("The framework that owns the store retries or gives up on its own; the app's store and verdict are not affected.",
            "Nothing for the app to do; if the app's own store fails as well, read its records, not these."),
        "container-stray-file": g("Core Data ignores the file and goes on; nothing breaks, but the file never syncs as part of the store.",
            "Keep the ubiquitous content folder (NSPersistentStoreUbiquitousContentURLKey) for Core Data alone: move documents and other files the app writes out of it, and give the content URL a folder of its own."),
        "file-access-failed": g("The step that needed the file fails; set-up or the import may fail after it.", "Check free space and the container's permissions; restarting the device often clears iCloud daemon errors."),
        "file-access-problem": g("Core Data retries the read or move.", "Nothing unless it repeats."),
        "initial-sync-failed": g("Set-up goes on without the initial sync or fails.", "Check the iCloud account and network; the initial sync must finish before the cloud store can load."),
        "missing-error-object": g("The caller reports the failure some other way, often as a generic error.", "Nothing to do about the message itself; look at the failure logged around it."),
        "setup-error": g("Set-up usually fails (ubiquity-setup-failed) or retries (setup-retry).", "Read the error; check free space and the ubiquity container's permissions. If it repeats on every launch, remove the local store and let it rebuild from the cloud."),
        "setup-problem": g("Set-up goes on.", "Nothing unless set-up fails after it."),
        "setup-retry": g("Set-up runs again after the delay: ubiquity-setup-failed or a successful load follows.", "Nothing unless it retries on and on; then read the error it carries."),
        "store-manager-warning": g("UbiquityStoreManager works on without that check.", "Link JRSwizzle into the app (or fix the monitor query) so that desynchronisation can be detected."),
        "ubiquity-setup-failed": g("The store is used without iCloud, or not at all; Core Data may retry on the next addPersistentStore.",
            "Read the step and the error (`parselogs explain CODE`); 134080 and 134311 are configuration problems, 134326 an asynchronous set-up failure."),
        "ubiquity-stack-lost": g("The operation stops; the store's new stack takes over after it is added again.", "Nothing unless stores are being removed unexpectedly."),
    ]
}
