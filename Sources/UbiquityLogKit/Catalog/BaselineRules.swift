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
             Piece.objectPrefix + #"Encountered an error while trying to respond to the roll of baseline:"#,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordsImporter rollResponseOperation:encounteredAnError:whileTryingToAdoptBaseline:]", 1683,
                            "<PFUbiquityBaselineRollResponseOperation: 0x15eb4d50>\nEncountered an error while trying to respond to the roll of baseline: <PFUbiquityBaseline: 0x15eb5e60>\nError: Error Domain=NSCocoaErrorDomain Code=134307 \"The operation couldn’t be completed. (Cocoa error 134307.)\" UserInfo=0x15eb6f70 {reason=Could not read the baseline archive}\nuserInfo: {\n    reason = \"Could not read the baseline archive\";\n}"),
             ]) { match in
            .baselineRollResponseFailed(error: Extract.error(in: match.rest))
        },

        Rule.message("baseline-recovery-scheduled", .ubiquity, .baselineRecoveryScheduled,
             Piece.objectPrefix + #"Scheduling baseline recovery operation on behalf of:"#,
             samples: [
                Sample.ios7("-[_PFUbiquityRecordsImporter scheduleBaselineRecoveryOperationWithActiveBaselineOperation:]", 1723,
                            "\(Sample.importer)\nScheduling baseline recovery operation on behalf of: <PFUbiquityBaselineRollResponseOperation: 0x15eb4d50>"),
             ]),

        Rule.message("baseline-check", .ubiquity, .baselineCheck,
             Piece.objectPrefix + #"(?:Checking to see if it can replace store with knowledge vector|Local store is current with the baseline|Local store has a zero vector|Local store is an ancestor of the baseline|Baseline is an ancestor of the local store|Beginning knowledge vector inspection|Finished check: (?<result>-?\d+)|Can adopt: (?<adopt>\d+) replace: (?<replace>\d+)|Baseline exists in the cloud, will evaluate other criteria|(?i:not enough (?:log bytes|transactions) to roll))"#,
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
             Piece.objectPrefix + #"(?:Successfully removed contents of staging area|Successfully created staging directory:|Successfully copied store to staging directory:|Removing identifiers from:?)"#,
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
             Piece.objectPrefix + #"(?:Metadata recovery for store: (?<store>[^\n]*)\n[ \t]*(?<step>[^\n]*)|(?<step>Moving on to recreating the peer ranges|Finished creating new peer ranges)[^\n]*)"#,
             samples: [
                Sample.ios7("-[PFUbiquityStoreMetadataMedic recoverMetadataWithError:]", 151, "Metadata recovery for store: <NSSQLCore: 0x15d52f60>\nCreating new store metadata."),
                Sample.ios6("<PFUbiquityStoreMetadataMedic: 0x1e5d8290> Moving on to recreating the peer ranges."),
                Sample.ios7("-[PFUbiquityStoreMetadataMedic recoverMetadataWithError:]", 214, "<PFUbiquityStoreMetadataMedic: 0x15ec0a80>\nMetadata recovery for store: <NSSQLCore: 0x15d52f60>\nFinished."),
             ]),

        Rule.message("metadata-recovered", .ubiquity, .metadataRecovered,
             Piece.objectPrefix + #"Successfully recovered metadata(?: for store: (?<store>[^\n]*))?"#,
             samples: [
                Sample.ios7("-[PFUbiquitySetupAssistant attemptMetadataRecoveryForStore:error:]", 1210, "<PFUbiquitySetupAssistant: 0x15d4e0a0>\nSuccessfully recovered metadata"),
             ]),
    ]
}
