// The ubiquity family's error codes: Cocoa's file errors, Core Data's own and its iCloud
// (ubiquity) codes, the POSIX and SQLite errors found under them, and iCloud Drive's
// (CloudDocs) errors of iOS 8 and later. Each says what it means in a ubiquity log and what
// to do.

extension ErrorCode {
    static let posix = "NSPOSIXErrorDomain"
    static let sqlite = "NSSQLiteErrorDomain"
    static let cloudDocs = "BRCloudDocsErrorDomain"

    static let ubiquityCodes: [ErrorCode] = [
        // Cocoa's file errors: what reading, writing and moving the container's files fail with.
        .init(cocoa, 4, "NSFileNoSuchFileError",
              "A file or folder the operation needs does not exist: a transaction log, receipt, baseline or store file was moved or deleted (by another device, by iCloud, or by the app) while Core Data still knew of it.",
              "Look at the file the error names. A missing container file usually reappears once iCloud has synced; a missing store file means the store must be rebuilt from the cloud."),
        .init(cocoa, 256, "NSFileReadUnknownError",
              "Reading a file failed for a reason the file system did not say; in the ubiquity container often a file iCloud has not finished downloading, or an iCloud daemon error.",
              "Read the underlying error, which names the real cause. If it repeats, check the network and iCloud account, then restart the device."),
        .init(cocoa, 257, "NSFileReadNoPermissionError",
              "The app may not read the file: a sandbox or data-protection problem (files are locked while the device is locked).",
              "Check the file's protection class and that the app reads the container only while the device is unlocked."),
        .init(cocoa, 259, "NSFileReadCorruptFileError",
              "The file is there but cannot be parsed: a transaction log, receipt or baseline that is truncated or corrupt.",
              "If the same file fails on every device, rebuild the cloud content from a healthy device."),
        .init(cocoa, 260, "NSFileReadNoSuchFileError",
              "The file to read does not exist (often a transaction log that was listed but not downloaded, or removed since).",
              "Nothing unless it repeats for the same file; then check that the device that wrote it has uploaded it."),
        .init(cocoa, 512, "NSFileWriteUnknownError",
              "A file could not be written; in ubiquity logs, a transaction log or baseline upload or download timed out.",
              "Check the network and free space; the transfer is retried."),
        .init(cocoa, 513, "NSFileWriteNoPermissionError",
              "The app may not write the file or folder (sandbox, data protection, or a read-only location).",
              "Check where the store and the ubiquity support files live and the protection class of their folder."),
        .init(cocoa, 516, "NSFileWriteFileExistsError",
              "A file was to be created or moved where one already exists (moving local logs into the container, safe-saving a receipt).",
              "Nothing unless it repeats; then remove the leftover file the error names."),
        .init(cocoa, 640, "NSFileWriteOutOfSpaceError",
              "The device has no room for the file.",
              "Free space on the device; Core Data retries the write."),
        .init(cocoa, 4353, "NSUbiquitousFileUnavailableError",
              "The file is not available in iCloud: the device that wrote it has not uploaded it (yet).",
              "Open the app on the device that wrote the file, online, so it can upload; the import waits for the file."),
        .init(cocoa, 4354, "NSUbiquitousFileNotUploadedDueToQuotaError",
              "The file was not uploaded because the user's iCloud storage is full: other devices will not receive these changes.",
              "Ask the user to free or buy iCloud storage; uploads resume by themselves."),
        .init(cocoa, 4355, "NSUbiquitousFileUbiquityServerNotAvailable",
              "The iCloud server could not be reached.",
              "Check the network; transfers resume when the server is reachable."),

        // Core Data's own.
        .init(cocoa, 133020, "NSManagedObjectMergeError",
              "Saving changes met objects changed elsewhere since they were read (an optimistic locking failure); in an import, the same object was changed on this device and in the log.",
              "Give the contexts a merge policy (NSMergeByPropertyObjectTrumpMergePolicy or similar); if imports keep failing on it, rebuild this device's store from the cloud."),
        .init(cocoa, 133021, "NSManagedObjectConstraintMergeError",
              "Saving changes broke a uniqueness constraint of the model.",
              "Give the contexts a merge policy that resolves constraint conflicts, or remove duplicates before saving."),
        .init(cocoa, 134030, "NSPersistentStoreSaveError",
              "Copying an external data reference (a large attribute stored outside the store) failed.",
              "Check free space; the attribute's data may be missing on this device until it downloads."),
        .init(cocoa, 134060, "NSCoreDataError",
              "Core Data's catch-all error: the code alone says nothing of what failed, only the reason inside it does. `parselogs explain 134060` lists the reasons it is known to carry, with advice for each.",
              "Read the reason inside the error (NSLocalizedFailureReason, or `reason` in older logs): it is the only account of what failed.",
              reasonHints: [
                ("store was removed", "The store left its coordinator while the operation ran: expected after the app removes or replaces it, otherwise find the code that removes it."),
                ("removed from the coordinator", "The store left its coordinator while the operation ran: expected after the app removes or replaces it, otherwise find the code that removes it."),
                ("lost its stack", "The store was removed from its coordinator while a transaction log was imported: remove or reset the store only after the import has finished (on NSPersistentStoreCoordinatorStoresWillChangeNotification)."),
                ("model version hash", "The managed object model gives no version hash: load the model from the app's compiled model (.momd) rather than building or merging it at run time."),
                ("file coordinator", "The importer could not coordinate access to the container's files and gave up this scan; it scans again at the next change. If it repeats, restart the device, which restarts the iCloud daemons."),
                ("migration manager", "The baseline could not be migrated to the current model: keep every shipped model version in the app so that the baseline's model can be found."),
                ("exception", "Core Data threw an exception while importing: the exception's text names what failed. If the same log fails on every launch, rebuild the cloud content from a healthy device."),
                ("*** -[", "Core Data threw an exception while importing: the exception's text names what failed. If the same log fails on every launch, rebuild the cloud content from a healthy device."),
                ("unrecognized selector", "Core Data threw an exception while importing: the exception's text names what failed. If the same log fails on every launch, rebuild the cloud content from a healthy device."),
              ]),
        .init(cocoa, 134080, "NSPersistentStoreOpenError",
              "The store could not be opened or set up for iCloud: missing container entitlement, unsupported store type, or the asynchronous iCloud set-up failed.",
              "Check the iCloud entitlements and container identifier, and that the store is SQLite."),
        .init(cocoa, 134100, "NSPersistentStoreIncompatibleVersionHashError",
              "The model used to open the store differs from the one that created it.",
              "Add a model version and migrate (NSMigratePersistentStoresAutomaticallyOption, NSInferMappingModelAutomaticallyOption)."),
        .init(cocoa, 134110, "NSMigrationError",
              "Migrating the store (or its ubiquitous content) to the new model failed.",
              "Check the mapping between model versions; every device must be able to migrate its logs."),
        .init(cocoa, 134130, "NSMigrationMissingSourceModelError",
              "The model the store was made with is not in the app, so the store cannot be migrated.",
              "Keep every shipped model version in the app's model bundle."),
        .init(cocoa, 134140, "NSMigrationMissingMappingModelError",
              "No mapping model leads from the store's model to the current one, and none could be inferred.",
              "Add a mapping model for that step or make the change one Core Data can infer."),
        .init(cocoa, 134180, "NSSQLiteError",
              "SQLite failed under Core Data; the underlying SQLite error says how (11 corrupt, 13 full, 19 constraint).",
              "Read the underlying error; a corrupt store file must be rebuilt from the cloud or a backup."),

        // Core Data's iCloud (ubiquity) codes, not in its public headers.
        .init(cocoa, 134302, "ubiquity: transaction log unreadable",
              "A transaction log could not be read or imported.",
              "If one log fails on every launch, it is corrupt: rebuild the cloud content from a healthy device."),
        .init(cocoa, 134307, "ubiquity: baseline unreadable",
              "A baseline archive could not be read.",
              "Rebuild the cloud content from a healthy device; the baseline is recreated."),
        .init(cocoa, 134311, "ubiquity: invalid options",
              "Invalid iCloud options: the content name is in use, the content URL is the store URL or inside it or a .nosync folder, or the store is not SQLite.",
              "Fix the options passed to addPersistentStore (NSPersistentStoreUbiquitousContentNameKey, ...URLKey)."),
        .init(cocoa, 134312, "ubiquity: metadata recovery failed",
              "Core Data could not recover the store's ubiquity metadata.",
              "Remove the local store and its ubiquity support files and let the store rebuild from the cloud."),
        .init(cocoa, 134315, "ubiquity: undocumented",
              "An iCloud integration error of Core Data whose meaning Apple never documented; the reason inside the error is all there is to go by.",
              "Read the reason and the event around it: the step that failed (set-up, import, baseline) says which store or file to look at."),
        .init(cocoa, 134326, "ubiquity: asynchronous set-up failed",
              "Setting the store up for iCloud in the background failed.",
              "Read the underlying error; the set-up is retried on the next addPersistentStore."),
        .init(cocoa, 134327, "ubiquity: no room for metadata",
              "There is no room, or no write access, for the ubiquity metadata beside the store.",
              "Free space on the device, or check the permissions of the store's directory."),

        // Found under Cocoa's errors (NSUnderlyingError).
        .init(posix, 1, "EPERM", "The operation is not permitted (sandbox or file flags).",
              "Check where the app reads and writes: only its container and the ubiquity container are allowed."),
        .init(posix, 2, "ENOENT", "No such file or directory: the file named in the error is not there.",
              "Look at the file the error names: a missing container file usually reappears once iCloud has synced; a missing store file means the store must be rebuilt from the cloud."),
        .init(posix, 13, "EACCES", "Permission denied.",
              "Check the file's protection class and the folder's permissions."),
        .init(posix, 28, "ENOSPC", "The device is out of space.",
              "Free space on the device."),
        .init(sqlite, 11, "SQLITE_CORRUPT", "The store's SQLite file is corrupt.",
              "Restore the store from the cloud (let Core Data rebuild it) or from a backup."),
        .init(sqlite, 13, "SQLITE_FULL", "The database could not grow: the device is out of space.",
              "Free space on the device."),
        .init(sqlite, 19, "SQLITE_CONSTRAINT", "A change broke a constraint of the store's tables (often a duplicate primary key in an import).",
              "If it repeats for the same log, rebuild this device's store from the cloud."),

        // iCloud Drive's daemon (iOS 8, OS X 10.10 and later), for the container's files.
        .init(cloudDocs, 6, "path outside any CloudDocs library",
              "iCloud Drive will never sync the path: it is outside any app library of the container (a wrong ubiquity container URL, or a store or logs placed outside it).",
              "Check the container identifier and that NSPersistentStoreUbiquitousContentURLKey points inside the ubiquity container."),
        .init(cloudDocs, 12, "not logged in",
              "iCloud Drive is not set up on the device: no account is logged in, or iCloud Drive is off.",
              "Ask the user to log into iCloud and turn iCloud Drive on for the app; the store stays local until then."),
        .init(cloudDocs, 140, "un-acked in-flight changes",
              "iCloud Drive still had changes of the container on their way when asked: a transfer was refused for now.",
              "Nothing unless it repeats; the transfer is retried."),
        .init(cloudDocs, 141, "access denied",
              "iCloud Drive refused the process access to the container.",
              "Check the app's iCloud entitlements (iCloud Documents and the container identifier)."),
    ]

    /// What to say about a code of these domains that the table does not list.
    static func ubiquityFallback(domain: String, code: Int) -> ErrorCode? {
        switch domain {
        case cloudDocs:
            ErrorCode(domain, code, "iCloud Drive error",
                      "An error of iCloud Drive's daemon about a file of the ubiquity container; its description says which.",
                      "Check the iCloud account and network; if it repeats, restart the device, which restarts the daemon.")
        case cocoa where (134300..<134400).contains(code):
            ErrorCode(domain, code, "ubiquity: undocumented",
                      "An iCloud integration error of Core Data whose code Apple never documented; the reason inside the error is all there is to go by.",
                      "Read the reason and the event around it: the step that failed (set-up, import, baseline) says which store or file to look at.")
        default:
            nil
        }
    }
}
