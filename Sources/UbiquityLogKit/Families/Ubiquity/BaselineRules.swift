// Baselines (snapshots of the whole store that replace old transaction logs) and the
// recovery of ubiquity metadata.

extension EventKind {
    public static let baselineRollResponseFailed = EventKind("baseline-roll-response-failed", .baseline, .warning, .notable,
        "This device could not adopt a baseline another device rolled; Core Data schedules a baseline recovery.")
    public static let baselineRecoveryScheduled = EventKind("baseline-recovery-scheduled", .baseline, .warning, .notable,
        "Core Data scheduled a baseline recovery: the local store will be rebuilt from the current baseline.")
    public static let baselineCheck = EventKind("baseline-check", .baseline, .debug, .routine,
        "Core Data compared the local store with the baseline in the cloud, or considered rolling a new one.")
    public static let baselineResponse = EventKind("baseline-response", .baseline, .debug, .routine,
        "Core Data is responding to a new baseline from another device.")
    public static let baselineStaging = EventKind("baseline-staging", .baseline, .debug, .routine,
        "Core Data prepared the staging area used to build or adopt a baseline.")
    public static let metadataRecoveryStarted = EventKind("metadata-recovery-started", .metadata, .warning, .notable,
        "Core Data found the store's ubiquity metadata inconsistent and is rebuilding it.")
    public static let metadataRecoveryStep = EventKind("metadata-recovery-step", .metadata, .debug, .routine,
        "A step of rebuilding the store's ubiquity metadata.")
    public static let metadataRecovered = EventKind("metadata-recovered", .metadata, .info, .detail,
        "The store's ubiquity metadata was rebuilt.")
}

enum BaselineRules {
    static let all: [Rule] = [
        Rule("baseline-roll-response-failed", .ubiquity, .baselineRollResponseFailed,
             PatternPiece.objectPrefix + #"Encountered an error while trying to respond to the roll of baseline:"#,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordsImporter rollResponseOperation:encounteredAnError:whileTryingToAdoptBaseline:]", 1683,
                            "<PFUbiquityBaselineRollResponseOperation: 0x15eb4d50>\nEncountered an error while trying to respond to the roll of baseline: <PFUbiquityBaseline: 0x15eb5e60>\nError: Error Domain=NSCocoaErrorDomain Code=134307 \"The operation couldn’t be completed. (Cocoa error 134307.)\" UserInfo=0x15eb6f70 {reason=Could not read the baseline archive}\nuserInfo: {\n    reason = \"Could not read the baseline archive\";\n}"),
             ]) { match in
            .baselineRollResponseFailed(error: match.error(from: match.matchEnd))
        },

        Rule.message("baseline-recovery-scheduled", .ubiquity, .baselineRecoveryScheduled,
             PatternPiece.objectPrefix + #"Scheduling baseline recovery operation on behalf of:"#,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordsImporter scheduleBaselineRecoveryOperationWithActiveBaselineOperation:]", 1723,
                            "\(Sample.importer)\nScheduling baseline recovery operation on behalf of: <PFUbiquityBaselineRollResponseOperation: 0x15eb4d50>"),
             ]),

        Rule.message("baseline-check", .ubiquity, .baselineCheck,
             PatternPiece.objectPrefix + #"(?:Checking to see if it can replace store with knowledge vector|Local store is current with the baseline|Local store has a zero vector|Local store is an ancestor of the baseline|Baseline is an ancestor of the local store|Beginning knowledge vector inspection|Finished check: (?<result>-?\d+)|Can adopt: (?<adopt>\d+) replace: (?<replace>\d+)|Baseline exists in the cloud, will evaluate other criteria|(?i:not enough (?:log bytes|transactions) to roll))"#,
             numeric: ["result", "adopt", "replace"],
             samples: [
                Sample.ios6("<PFUbiquityBaseline: 0x1d5d1f40>\n\tpermanentLocation: \(Sample.root)/baseline.zip\nChecking to see if it can replace store with knowledge vector: \(Sample.knowledgeVector)"),
                Sample.ios6("<PFUbiquityBaseline: 0x1d5d1f40>\nFinished check: 0"),
                Sample.ios6("Can adopt: 0 replace: 0\nkv: \(Sample.knowledgeVector)"),
                Sample.ios7("-[PFUbiquityBaselineRollOperation main]", 211, "Baseline exists in the cloud, will evaluate other criteria to see if a new one can be rolled."),
                Sample.ios7("-[PFUbiquityBaselineRollOperation main]", 236, "Not enough log bytes to roll: 10240 < 1048576"),
             ]),

        Rule.message("baseline-response", .ubiquity, .baselineResponse,
             #"(?:Scheduling response to baseline:|Responding to baseline:|Registered coordinators:|store name: (?<storeName>[^\n]*?)(?: - |$)|Store: )"#,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordsImporter scheduleBaselineRollResponseOperationForBaselineAtLocation:]", 1590, "Scheduling response to baseline: \(Sample.location("\(Sample.root)/baseline.zip"))\n"),
                Sample.ios6("Registered coordinators: {(\n    <NSPersistentStoreCoordinator: 0x1d5a0b20>\n)}"),
                Sample.ios6("store name: JournalStore - {\n    NSPersistentStoreUbiquitousContentNameKey = JournalStore;\n}\n<NSSQLCore: 0x1d5a1c30>"),
             ]),

        Rule.message("baseline-staging", .ubiquity, .baselineStaging,
             PatternPiece.objectPrefix + #"(?:Successfully removed contents of staging area|Successfully created staging directory:|Successfully copied store to staging directory:|Removing identifiers from:?)"#,
             samples: [
                Sample.ios6("<PFUbiquityBaseline: 0x1d5d1f40> Successfully removed contents of staging area."),
                Sample.ios7("+[PFUbiquityBaseline removePeerSpecificIdentifiersFromStore:withLocalPeerID:]_block_invoke", 1256, "Removing identifiers from: <NSSQLCore: 0x15eb7a80>"),
                Sample.ios7("-[PFUbiquityBaseline clearOutStagingLocationWithError:]", 198, "<PFUbiquityBaseline: 0x15eb5e60>\nSuccessfully created staging directory: /var/mobile/Applications/4C1F/Library/CoreDataUbiquitySupport/staging"),
             ]),

        Rule.message("metadata-recovery-started", .ubiquity, .metadataRecoveryStarted,
             #"Beginning metadata recovery for store: (?<store>[^\n]*)"#,
             samples: [
                Sample.ios7("-[PFUbiquityStoreMetadataMedic recoverMetadataWithError:]", 143, "Beginning metadata recovery for store: <NSSQLCore: 0x15d52f60> (URL: file:///var/mobile/Applications/4C1F/Documents/Journal.sqlite)"),
             ]),

        Rule.message("metadata-recovery-step", .ubiquity, .metadataRecoveryStep,
             PatternPiece.objectPrefix + #"(?:Metadata recovery for store: (?<store>[^\n]*)\n[ \t]*(?<step>[^\n]*)|(?<step>Moving on to recreating the peer ranges|Finished creating new peer ranges)[^\n]*)"#,
             samples: [
                Sample.ios7("-[PFUbiquityStoreMetadataMedic recoverMetadataWithError:]", 151, "Metadata recovery for store: <NSSQLCore: 0x15d52f60>\nCreating new store metadata."),
                Sample.ios6("<PFUbiquityStoreMetadataMedic: 0x1e5d8290> Moving on to recreating the peer ranges."),
                Sample.ios7("-[PFUbiquityStoreMetadataMedic recoverMetadataWithError:]", 214, "<PFUbiquityStoreMetadataMedic: 0x15ec0a80>\nMetadata recovery for store: <NSSQLCore: 0x15d52f60>\nFinished."),
             ]),

        Rule.message("metadata-recovered", .ubiquity, .metadataRecovered,
             PatternPiece.objectPrefix + #"Successfully recovered metadata(?: for store: (?<store>[^\n]*))?"#,
             samples: [
                Sample.ios7("-[PFUbiquitySetupAssistant attemptMetadataRecoveryForStore:error:]", 1210, "<PFUbiquitySetupAssistant: 0x15d4e0a0>\nSuccessfully recovered metadata"),
             ]),
    ]
}

// The baseline lifecycle beyond the original script's messages: making, rolling, adopting,
// migrating and reading baselines, with failures split by whether the step was lost.

extension EventKind {
    public static let baselineFailed = EventKind("baseline-failed", .baseline, .error, .notable,
        "A baseline could not be created, written, read or adopted: the step that failed is in `what`.")
    public static let baselineProblem = EventKind("baseline-problem", .baseline, .warning, .notable,
        "Something about a baseline was not as expected (missing parts in its archive, an older one, an unreadable peer copy); Core Data carries on without it.")
    public static let baselineAdopted = EventKind("baseline-adopted", .baseline, .info, .notable,
        "This device adopted a baseline: its local store was replaced by, or matched to, the snapshot in the cloud.")
    public static let baselineRolled = EventKind("baseline-rolled", .baseline, .info, .notable,
        "This device rolled a new baseline: a snapshot of the store that lets old transaction logs be deleted.")
}

enum BaselineLifecycleRules {
    static let all: [Rule] = [
        Rule.phrases("baseline-failed", .baselineFailed, [
            #"Couldn't load model at url:"#, #"Failed to baseline metadata:"#, #"Unable to open store file:"#,
            #"Error while preparing for baseline roll:"#, #"Unable to create staging directory path"#,
            #"Unable to crate compressed archive of baseline contents:"#, #"Got nil model for baseline:"#,
            #"Failed to read gc model data:"#, #"Got nil data for staged store file at path:"#,
            #"No store file found at url:"#, #"Error initializing the baseline:"#, #"Failed to decode model from archive:"#,
            #"Error attempting to create the (?:stores )?directory for the current baseline:"#,
            #"Error cleaning out current baseline directory:"#, #"Unable to open staging store as URL is nil"#,
            #"Error removing the orphaned -shm file:"#, #"Error connecting to the staged baseline store file:"#,
            #"Unable to copy store file to staging directory:"#, #"Didn't get persistent store from the baseline coordinator:"#,
            #"Error creating directory for baseline file:"#, #"Error writing new baseline file to URL:"#,
            #"Not sure what to do with baseline metadata knowledge vector object:"#,
            #"Error trying to load the baseline archive:"#, #"Unable to resolve conflicts for baseline:"#,
            #"Unable to adopt older baseline:"#, #"Encountered an error trying to replace the local store file with a baseline:"#,
            #"Got nil for current baseline metadata"#, #"Error attempting to initialize baseline:"#,
            #"Got an unknown error back from canRollBaseline:"#, #"Error removing unused external data references:"#,
            #"Unable to delete transaction log for peer:"#, #"Unable to remove logs from peer:"#,
            #"Error trying to load the current metadata:"#,
            #"Error while attempting to load the baseline in response to a baseline roll:"#,
            #"Unable to load baseline:"#, #"Error checking uploaded status of baseline file:"#,
            #"Couldn't load baseline metadata from baseline:"#, #"Baseline migration failed for store with ubiquity name:"#,
            #"Can't perform migration because there is no previous baseline file"#,
            #"The baseline file exists, but could not be read:"#, #"Unable to create store for baseline:"#,
        ], samples: [
            Sample.ios7("-[PFUbiquityBaselineRecoveryOperation main]", 311,
                        "<PFUbiquityBaselineRecoveryOperation: 0x15eb4d50>\nUnable to adopt older baseline: <PFUbiquityBaseline: 0x15eb5e60>\nError: \(Sample.error134302)\nuserInfo: {\n    reason = \"Could not read the baseline archive\";\n}\n"),
        ]),

        Rule.phrases("baseline-failed-after-object", .baselineFailed, [
            #"successfully rolled baseline but encountered an error trying to make it the current baseline:"#,
            #"encountered an error trying to write the baseline archive to disk:"#,
            #"Error encountered trying to roll baseline:"#,
        ], position: .afterObject, samples: [
            Sample.ios7("-[PFUbiquityBaselineRollOperation rollBaselineWithError:]", 402,
                        "<PFUbiquityBaselineRollOperation: 0x15eb4d50> Error encountered trying to roll baseline: <PFUbiquityBaseline: 0x15eb5e60>\nError: \(Sample.error134302)\nuserInfo: {\n}"),
        ]),

        Rule.phrases("baseline-problem", .baselineProblem, [
            #"Cannot find (?:optimized )?model at URL:"#, #"Couldn't load optimized model at url:"#,
            #"Receipt file has no write date:"#, #"Didn't get baseline metadata back from metadata url:"#,
            #"Got more than one path component for subpath:"#, #"Unable to load log: (?s:.*?) while checking for baseline adoption:"#,
            #"Didn't find all the required logs for baseline adoption, giving up"#,
            #"Coordinated read of baseline archive file: (?s:.*?) did not succed:"#,
            #"Encountered baseline without any (?:metadata|model data|filenames? data|file data) in it's archive"#,
            #"Failed to clear out staging directory after store replacement:"#,
            #"Error attempting to write new baseline archive to url:"#, #"Error getting the size of a file \(-?\d+\):"#,
            #"This is confusing, baseline"#, #"Current baseline directory exists however an error was encountered"#,
            #"Unable to safe save peer baseline file:"#, #"Error trying to read peer baseline file:"#,
            #"Got nil store metadata for store named:"#, #"Error removing version:"#,
            #"Didn't download latest version:"#, #"Got nil metadata for current baseline in operation:"#,
            #"Didn't get latest version:"#, #"Error encountered making this baseline:"#,
            #"Error getting data for (?:optimized|regular) encoding:"#,
            #"Unable to find a previous baseline file to use for migration\."#,
            #"The baseline file exists but could not be downloaded:"#,
            #"we found some logs but the peer is still behind"#,
            // iOS 5: the check for a baseline in the cloud could not read it (often not downloaded yet).
            #"Error attempting to read baseline:"#,
        ], samples: [
            Sample.ios7("-[PFUbiquityBaseline loadFileFromLocation:error:]", 914,
                        "Encountered baseline without any metadata in it's archive: \(Sample.location("\(Sample.root)/baseline.zip"))"),
            Sample.ios7("-[PFUbiquityBaseline existsInCloud]", 83,
                        "Error attempting to read baseline: <PFUbiquityBaseline: 0x2c4b10>\nubiquityRootURL: file://localhost/private/var/mobile/Library/Mobile%20Documents/QW12ER34TY~org~example~diary/Diary\nstoreName: DiaryStore\nbaselineFileURL: file://localhost/private/var/mobile/Library/Mobile%20Documents/QW12ER34TY~org~example~diary/Diary/.baseline/DiaryStore/baseline.zip\n.\nError: Error Domain=NSCocoaErrorDomain Code=256 \"The operation couldn’t be completed. (Cocoa error 256 - The item failed to download.)\" UserInfo=0x2c5d80 {NSDescription=The item failed to download.}"),
        ]),

        Rule.phrases("baseline-adopted", .baselineAdopted, [
            #"Adopted older baseline:"#, #"Successfully adopted baseline:"#, #"Successfully resolved conflicts for baseline:"#,
            #"Adopted: (?<adopted>\d+)"#, #"Made current w/o replace: (?<madeCurrent>\d+)"#,
            #"Current baseline matches the baseline archive, returning\."#,
        ], numeric: ["adopted", "madeCurrent"], samples: [
            Sample.ios7("-[_PFUbiquityRecordsImporter rollResponseOperation:successfullyAdoptedBaseline:]", 1702,
                        "\(Sample.importer)\nSuccessfully adopted baseline: <PFUbiquityBaseline: 0x15eb5e60>"),
        ]),

        Rule.phrases("baseline-rolled", .baselineRolled, [
            #"successfully rolled baseline:"#,
        ], position: .afterObject, samples: [
            Sample.ios7("-[PFUbiquityBaselineRollOperation rollBaselineWithError:]", 377,
                        "<PFUbiquityBaselineRollOperation: 0x15eb4d50> successfully rolled baseline: <PFUbiquityBaseline: 0x15eb5e60>"),
        ]),

        Rule.phrases("baseline-rolled-step", .baselineRolled, [
            #"Successfully initialized baseline:"#, #"Making current:"#,
        ], samples: [
            Sample.ios7("-[PFUbiquityBaselineRollOperation haveConsistentStateForBaselineRoll]", 151,
                        "Successfully initialized baseline: <PFUbiquityBaseline: 0x15eb5e60>"),
        ]),

        Rule.phrases("baseline-check-more", .baselineCheck, [
            #"Need logs for peer (?<peer>\S+) between (?<from>\d+) and (?<to>\d+) to adopt"#,
            #"We are forked from baseline\.\.\.force it"#, #"Tried to stat missing file:"#,
            #"Enough transactions have passed to roll baseline:"#,
            #"Asked if rolling the baseline is possible, but the root location does not appear to exist:"#,
            #"Asked to roll baseline(?:, enough disk space has been consumed by logs\.| but not enough space has been consumed yet)"#,
            #"Found conflicts for baseline:"#, #"Will attempt to adopt existing baseline:"#,
            #"Removed unused external data references"#, #"Baseline exists(?:: (?<exists>\d+)| in the cloud, the current baseline cache will be created)"#,
            #"Found existing baseline file that needs to upload"#, #"Baseline file is still uploading:"#,
        ], numeric: ["from", "to", "exists"], samples: [
            Sample.ios7("-[PFUbiquityBaselineHeuristics logsConsumeEnoughDiskSpace]", 122,
                        "Asked to roll baseline but not enough space has been consumed yet by the transaction logs.\n\tStore Bytes: 1048576\n\tLog Bytes: 20480"),
        ]),

        Rule.phrases("baseline-response-more", .baselineResponse, [
            #"Unable to schedule (?:baseline )?roll response operation for location \((?<reason>[^)\n]*)\):"#,
        ], samples: [
            Sample.ios7("-[_PFUbiquityRecordsImporter scheduleBaselineRollResponseOperationForBaselineAtLocation:]", 1620,
                        "\(Sample.importer)\nUnable to schedule roll response operation for location (store not active): \(Sample.location("\(Sample.root)/baseline.zip"))"),
        ]),

        Rule.phrases("baseline-staging-after-object", .baselineStaging, [
            #"Successfully removed contents of staging area\."#,
        ], position: .afterObject, samples: [
            Sample.ios7("-[PFUbiquityBaseline clearOutStagingLocationWithError:]", 190,
                        "<PFUbiquityBaseline: 0x15eb5e60>\n\tstoreName: JournalStore Successfully removed contents of staging area."),
        ]),
    ]
}
