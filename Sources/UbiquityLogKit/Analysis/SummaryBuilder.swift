/// Builds a `RunSummary` from classified records as they arrive: counts every record, keeps
/// the findings, and hands each family's tracker the records of its kinds that need more.
public struct SummaryBuilder {
    private var counts = RunSummary()
    /// The families of the run, in the catalogue's order, and each one's tracker.
    let families: [Family]
    private let trackers: [any FamilyTracker]
    /// Each kind's count of records, what the summary does with its records (`Acts`, empty for
    /// a kind not met yet), the index of its family in `families` (-1: none of them) and the
    /// kind itself, by the kind's ordinal: arrays of plain values, so that a routine record is
    /// counted without hashing or retaining anything.
    private var kindCounts: [Int] = []
    private var kindActs: [Acts] = []
    private var kindFamilies: [Int] = []
    private var kindsMet: [EventKind?] = []
    /// The trackers of other families that read a kind's records too (`FamilyTracker.reads`),
    /// by the kind's ordinal: for the few kinds whose `Acts` hold `.trackOthers`.
    private var otherReaders: [Int: [Int]] = [:]
    /// Each marker's family, by `Marker.ordinal` (-1: none of the run's families).
    private let markerFamilies: [Int]
    /// The group the trackers were last told of (`switchTrackers`): told when it changes, not
    /// for every record.
    private var trackersGroup = -1
    /// Each (input, process) pair's records; the index is the pair's group in the trackers.
    private var groups: [ProcessSummary] = []
    /// Each group's count of records, and of each family's records and unrecognised ones (by
    /// `group * families.count + family`): counted for every record, so kept as integers
    /// apart from `groups`, whose summaries take them in at the end (`countedGroups`).
    private var groupRecords: [Int] = []
    private var familyRecords: [Int] = []
    private var familyUnhandled: [Int] = []
    /// Each group's first warning or error that no entry of `BenignFindings` excuses, and its
    /// latest one that an entry excuses only once it clears: what keeps the group from being
    /// `healthy` whatever its families' trackers say (see `judge`).
    private(set) var groupUnexcused: [Finding?] = []
    private(set) var groupUncleared: [Finding?] = []
    /// Each group's records about system frameworks' stores (`system-store`): not the group's
    /// own evidence (see `judge`). Counted in the group the record is counted in, which for a
    /// line without a header is the process of the sync record before it, whatever process
    /// the store's own entry names.
    private(set) var groupStoreRecords: [Int] = []
    /// The groups of the current input, by process (`unnamedGroup`: of records whose headers
    /// name none); emptied when an input begins. Keyed by the process's name alone, the
    /// cheapest key to hash.
    private var groupIndex: [String: Int] = [:]
    private var unnamedGroup: Int?
    /// The group of the record before, and the bytes of the process it was found by (when it
    /// had one): records of one process mostly follow each other, and the next one's process
    /// is compared with these where it lies in its header (see `KeptText`) before a String is
    /// made of it. (The group's String is made only when the process changes.)
    private var group: Int?
    private var groupProcessBytes = KeptText()
    /// Groups of this input met lately, by process, each with its process's bytes (see
    /// `groupOfOther`): a switch back to one of these whose name is longer than a key of
    /// `groupsByBytes` holds is found by bytes, without hashing its name; any is found by its
    /// name as a String. A few are kept, each replaced in turn, so that a console of many
    /// processes scans no long list.
    private var recentGroups: [(process: String?, bytes: KeptText, group: Int)] = []
    /// Groups of this input found by their process's bytes (a name of up to 16 bytes, see
    /// `KeptText.Key`), with their process: a switch between interleaved processes is found
    /// without making a String. The same bytes are always the same String, so the same
    /// group. At most `maxGroups` entries, as there are at most that many groups: the
    /// processes past the cap, each of another name, would grow it without bound.
    private var groupsByBytes = GroupsByBytes()
    private var nextRecentGroup = 0
    private static let recentGroupCount = 8
    /// `groups[group].process`, kept apart: read through the array it would copy the group's
    /// summary out.
    private var groupProcess: String?
    /// Each group's last pid, by group: a group's pids are looked at only when it changes,
    /// which in a console of interleaved processes is seldom, where the pid of the record
    /// before is nearly always another's.
    private var groupLastPid: [Int?] = []
    /// The group of the last sync record in the input: a headerless line is its process's.
    private var lastSyncGroup: Int?
    /// By family: the group of the family's last sync record with a process in the input. A
    /// headerless line with a marker is its family's last process's: Core Data's record after a
    /// daemon's line (`cloudd`'s CKError) is the app's, as the records of its family before.
    private var lastFamilyGroups: [Int?]
    private var processNames: Set<String> = []
    /// Process groups kept, over every input: the records of processes met past them are
    /// counted together, one group per input (`ProcessSummary.isOtherProcesses`), so that a
    /// console of countless processes keeps this many summaries and trackers' states, and every
    /// record is still counted and judged.
    static let maxGroups = RunSummary.maxKeptFindings
    /// The current input's group of processes past `maxGroups`.
    private var pastCapGroup: Int?
    /// Groups held (for tests).
    var groupCount: Int { groups.count }
    /// Processes whose group is found by their bytes (for tests of the bound).
    var groupsFoundByBytes: Int { groupsByBytes.count }
    /// `EventKind.app`'s ordinal and the number of families, read once: a static is a
    /// `swift_once` call at each read.
    private let appOrdinal = EventKind.app.ordinal
    private let familyCount: Int

    public init(families: [Family] = Catalog.families) {
        self.families = families
        trackers = families.map { $0.makeTracker() }
        familyCount = families.count
        lastFamilyGroups = Array(repeating: nil, count: families.count)
        // Every ordinal a marker can have: no bounds to check for a record's.
        var markerFamilies = Array(repeating: -1, count: Int(UInt8.max) + 1)
        for (index, family) in families.enumerated() {
            for marker in family.markers.map(\.marker) + family.channels.compactMap(\.marker) where markerFamilies[Int(marker.ordinal)] < 0 {
                markerFamilies[Int(marker.ordinal)] = index
            }
        }
        self.markerFamilies = markerFamilies
    }

    public var summary: RunSummary {
        var summary = counts
        for (count, kind) in zip(kindCounts, kindsMet) where count > 0 { if let kind { summary.countsByKind[kind.id] = count } }
        let endings = trackers.map { $0.ending(inputs: counts.inputs) }
        summary.processCount = processNames.count
        judge(&summary, endings)
        for (index, family) in families.enumerated() {
            var records = 0, unhandled = 0
            for group in groups.indices {
                records += familyRecords[group * familyCount + index]
                unhandled += familyUnhandled[group * familyCount + index]
            }
            if records > 0 {
                summary.families.append(FamilySummary(id: family.id, records: records, unhandled: unhandled, story: endings[index].story))
            }
        }
        return summary
    }

    /// Whether the summary reads the facts of events of `kind`: the families' trackers read
    /// those of a few kinds; findings (warnings and errors) cite an event by its `Headline`,
    /// which shows the error the event carries.
    public static func readsFacts(of kind: EventKind, families: [Family] = Catalog.families) -> Bool {
        kind.severity >= .warning || families.contains { $0.factKinds.contains(kind) }
    }
    /// Whether the summary reads what only a reporter prints of events of `kind`
    /// (`RuleMatch.readsDetails`): never. The trackers count dumped objects by entity and
    /// operation, without their attributes, and no finding cites a resolved relationship.
    public static func readsDetails(of kind: EventKind) -> Bool { false }

    public mutating func beginInput(_ name: String) {
        for tracker in trackers { tracker.beginInput(name) }
        counts.inputs.append(name)
        group = nil
        groupProcessBytes = KeptText()
        recentGroups.removeAll(keepingCapacity: true)
        groupsByBytes.removeAll()
        nextRecentGroup = 0
        groupIndex.removeAll(keepingCapacity: true)
        unnamedGroup = nil
        pastCapGroup = nil
        lastSyncGroup = nil
        for family in lastFamilyGroups.indices { lastFamilyGroups[family] = nil }
    }
    public mutating func inputFailed(_ error: InputError) { counts.unreadableInputs.append(error) }
    public mutating func countLines(_ count: Int) {
        counts.lines += count
        if let input = counts.inputs.last { counts.linesPerInput[input, default: 0] += count }
    }
    /// `--process`: the processes a run reads.
    public mutating func select(processes: [String]) { counts.selectedProcesses = processes }

    public mutating func countOutsideWindow(_ records: Int = 1) {
        counts.records += records
        counts.outsideTimeWindow += records
    }

    public mutating func countOtherProcess() {
        counts.records += 1
        counts.otherProcesses += 1
    }

    /// The process group of `record`: its header's process, or for a record whose header
    /// names none (a line pasted without its header, a logger's own timestamp) the process of
    /// the last sync record of its marker's family before it in the same input, else of the
    /// last sync record, else of the record before it.
    ///
    /// The usual cases, a record of the same process as the one before or of one met before,
    /// are answered here, inlined into `count`: by the process's bytes where they lie
    /// (`groupOf(metProcess:)`), with no call on the way.
    @inline(__always)
    private mutating func groupOf(_ record: borrowing Record) -> Int {
        if let range = record.head?.process.range,
           let known = record.text.withUnsafeBytes({ groupOf(metProcess: UnsafeRawBufferPointer(rebasing: $0[range])) }) {
            return known
        }
        return groupOfOther(record)
    }

    /// The group of a process met before in the input, by its bytes where the record holds
    /// them: the same process as the record before by its bytes compared (three integers for a
    /// name of up to 16 bytes, nearly every one), another by one look-up of its key
    /// (`groupsByBytes`), with nothing retained or made. Nil when it is not found so
    /// (`groupOfOther` then finds it).
    @inline(__always)
    private mutating func groupOf(metProcess bytes: UnsafeRawBufferPointer) -> Int? {
        guard let key = KeptText.Key(bytes) else {
            if let group, groupProcessBytes.matches(bytes) { return group }
            return nil
        }
        if let group, groupProcessBytes.matches(key) { return group }
        guard let known = groupsByBytes.find(key) else { return nil }
        groupProcessBytes = KeptText(key)
        return switchGroup(to: known.group, process: known.process)
    }

    /// `groupOf` for a record of another process than the one before, or of none.
    @inline(never)
    private mutating func groupOfOther(_ record: Record) -> Int {
        record.withBytes(of: .process) { bytes in groupOfOther(process: bytes, marker: record.marker) { record.string(.process) } }
    }

    /// `groupOfOther` for a record whose process's bytes are `bytes` (nil: its header names
    /// none), whose marker is `marker`, and whose process as a String is `name()`.
    @inline(__always)
    private mutating func groupOfOther(process bytes: UnsafeRawBufferPointer?, marker: Marker?, name: () -> String?) -> Int {
        // The process's bytes looked at once, where the record holds them: a process met
        // before is found by them (`groupsByBytes`, or for a name longer than a key holds, the
        // recent groups), with no String made at a switch between interleaved processes.
        guard let bytes else {
            if let marker, case let family = markerFamilies[Int(marker.ordinal)], family >= 0,
               let owner = lastFamilyGroups[family] { return owner }
            if let owner = lastSyncGroup ?? group { return owner }
            groupProcessBytes = KeptText()
            return groupNamed(nil, bytes: KeptText())
        }
        if let group, groupProcessBytes.matches(bytes) { return group }
        groupProcessBytes = KeptText(bytes)
        if let key = groupProcessBytes.key {
            if let known = groupsByBytes.find(key) { return switchGroup(to: known.group, process: known.process) }
        } else if let recent = recentGroups.indices.first(where: { recentGroups[$0].bytes.matches(bytes) }) {
            // Bytes that match no recent process's are looked up by their String (two texts
            // can be equal as Strings and not as bytes).
            return switchGroup(to: recentGroups[recent].group, process: recentGroups[recent].process)
        }
        let found = groupNamed(name(), bytes: groupProcessBytes)
        if let key = groupProcessBytes.key, groupsByBytes.count < SummaryBuilder.maxGroups {
            groupsByBytes.insert(key, group: found, process: groupProcess)
        }
        return found
    }

    /// Counts `count` plain records in a row (`RecordEntry.isPlain`, each classified as the
    /// app's line) where their entries lie, as `count` counts each, without a `Record`: the
    /// app's kind, the records, their process groups and pids. (The app's kind asks nothing of
    /// the trackers: `meet`. An entry is never a preview: a preview comes as an object.)
    mutating func countPlain(_ entries: UnsafePointer<RecordEntry>, count: Int) {
        let ordinal = appOrdinal
        if ordinal >= kindActs.count { meetKinds(upTo: ordinal) }
        if kindActs[ordinal].isEmpty { _ = meet(.app) }
        kindCounts[ordinal] += count
        counts.records += count
        for index in 0..<count {
            let entry = entries + index
            if entry.pointee.isTruncated { counts.truncatedRecords += 1 }
            let group = groupOf(plain: entry)
            groupRecords[group] += 1
            notePid(entry.pointee.head?.pid, group: group)
        }
    }

    /// `groupOf` for a plain entry.
    @inline(__always)
    private mutating func groupOf(plain entry: UnsafePointer<RecordEntry>) -> Int {
        let process = entry.pointee.processBytes
        if let process, let known = groupOf(metProcess: process) { return known }
        return groupOfOther(process: process, marker: entry.pointee.head?.marker) { process.map { ByteText.string($0) } }
    }

    /// Keeps `pid` among `group`'s (its first 8), when it is not the last one the group's
    /// records had.
    @inline(__always)
    private mutating func notePid(_ pid: Int?, group: Int) {
        guard let pid, pid != groupLastPid[group] else { return }
        groupLastPid[group] = pid
        guard group != pastCapGroup else { return }
        if !groups[group].pids.contains(pid), groups[group].pids.count < 8 { groups[group].pids.append(pid) }
    }

    /// The group of a process found by its bytes, `found`, made the current one.
    @inline(__always)
    private mutating func switchGroup(to found: Int, process: String?) -> Int {
        if let group, found == group { return group }
        group = found
        groupProcess = process
        return found
    }

    /// The group of `process` (made into a String), when it is not the last record's bytes.
    private mutating func groupNamed(_ process: String?, bytes: KeptText) -> Int {
        if let group, process == groupProcess { return group }
        if let recent = recentGroups.first(where: { $0.process == process }) {
            group = recent.group
        } else {
            if let known = process.map({ groupIndex[$0] }) ?? unnamedGroup {
                group = known
            } else if process != nil, groups.count >= SummaryBuilder.maxGroups {
                group = otherProcessesGroup()
            } else {
                // A process's name is new to the run only with a group new to it.
                if let process {
                    processNames.insert(process)
                    groupIndex[process] = groups.count
                } else {
                    unnamedGroup = groups.count
                }
                group = appendGroup(ProcessSummary(input: counts.inputs.last ?? "", process: process))
            }
            if recentGroups.count < SummaryBuilder.recentGroupCount {
                recentGroups.append((process, bytes, group ?? 0))
            } else {
                recentGroups[nextRecentGroup] = (process, bytes, group ?? 0)
                nextRecentGroup = (nextRecentGroup + 1) % SummaryBuilder.recentGroupCount
            }
        }
        groupProcess = process
        return group ?? 0
    }

    /// The current input's group of the processes past `maxGroups`, made when first needed.
    private mutating func otherProcessesGroup() -> Int {
        if let pastCapGroup { return pastCapGroup }
        var summary = ProcessSummary(input: counts.inputs.last ?? "", process: ProcessSummary.otherProcessesName)
        summary.isOtherProcesses = true
        let group = appendGroup(summary)
        pastCapGroup = group
        return group
    }

    /// Adds a group and its entry in every table kept by group (they stay the same length).
    private mutating func appendGroup(_ summary: ProcessSummary) -> Int {
        groups.append(summary)
        groupRecords.append(0)
        groupLastPid.append(nil)
        familyRecords.append(contentsOf: repeatElement(0, count: familyCount))
        familyUnhandled.append(contentsOf: repeatElement(0, count: familyCount))
        groupUnexcused.append(nil)
        groupUncleared.append(nil)
        groupStoreRecords.append(0)
        return groups.count - 1
    }

    /// What the summary does with a kind's records, worked out once, when the run first meets
    /// the kind (see `kindActs`).
    fileprivate struct Acts: OptionSet {
        let rawValue: UInt8
        /// A warning or error: a finding.
        static let warning = Acts(rawValue: 1 << 0)
        /// The app's own lines (`Event.app`): no family's.
        static let app = Acts(rawValue: 1 << 1)
        /// Set for every kind the run has met: an entry of 0 is a kind not met yet.
        static let met = Acts(rawValue: 1 << 2)
        /// Its family's tracker reads every record of it (`TrackerInterest.every`), or decides
        /// for each (`.some`).
        static let trackEvery = Acts(rawValue: 1 << 3)
        static let trackSome = Acts(rawValue: 1 << 4)
        /// Another family's tracker reads every record of it (`otherReaders`).
        static let trackOthers = Acts(rawValue: 1 << 5)

        /// Whatever asks for more than the counts every record gets (see `count`).
        static let tracked: Acts = [.warning, .trackEvery, .trackSome, .trackOthers]

        init(rawValue: UInt8) { self.rawValue = rawValue }
    }

    /// A record's kind's ordinal, read without taking the kind: a `.message` (most records)
    /// carries its kind, and `Event.kind` would retain and release it (and, for the typed
    /// cases, run a `swift_once` for the static kind). `borrowing`, so that matching does not
    /// copy the case out.
    @inline(__always)
    private func ordinal(of event: borrowing Event) -> Int {
        switch event {
        case .message(let kind, _): return kind.ordinal
        case .app: return appOrdinal
        default: return (copy event).kind.ordinal
        }
    }

    /// Counts `record`, and has its family's tracker read it when it needs to.
    public mutating func add(_ record: Record, _ event: Event, message: @autoclosure () -> String) {
        if let tracked = count(record, event) { track(record, event, tracked, message: message) }
    }

    /// What `track` needs of a record that `count` found to need more than counts.
    struct Tracked {
        fileprivate var acts: Acts
        fileprivate var family: Int
        fileprivate var group: Int
    }

    /// Counts every record; for the few that need more, what `track` then needs.
    ///
    /// Most records are routine and need nothing but counts: of their kind, of their process
    /// group and its family. Those counts are integers in flat arrays indexed by the kind's
    /// ordinal and the group's number, and nothing else is touched. Apart from `track`, and
    /// inlined into the summarising stage: the message's closure is made only for the records
    /// `track` reads.
    @inline(__always)
    mutating func count(_ record: borrowing Record, _ event: borrowing Event) -> Tracked? {
        counts.records += 1
        let ordinal = ordinal(of: event)
        if ordinal >= kindActs.count { meetKinds(upTo: ordinal) }
        var acts = kindActs[ordinal]
        if acts.isEmpty { acts = meet((copy event).kind) }
        kindCounts[ordinal] += 1
        if record.isTruncated { counts.truncatedRecords += 1 }
        let group = groupOf(record)
        groupRecords[group] += 1
        notePid(record.pid, group: group)
        if !acts.contains(.app) {
            counts.syncRecords += 1
            // A record's family is its marker's; a record without one (a framework's line) is
            // its kind's.
            let family = record.marker.map { markerFamilies[Int($0.ordinal)] } ?? kindFamilies[ordinal]
            if lastSyncGroup != group || (family >= 0 && lastFamilyGroups[family] != group), record.has(.process) {
                lastSyncGroup = group
                if family >= 0 { lastFamilyGroups[family] = group }
            }
            if family >= 0 {
                familyRecords[group &* familyCount &+ family] += 1
                if acts.contains(.warning), SummaryBuilder.isUnhandled(event) { familyUnhandled[group &* familyCount &+ family] += 1 }
            }
        }
        if acts.isDisjoint(with: .tracked) { return nil }
        // The trackers learn of a group only from a record they may read: the lines of other
        // processes between two of one process's sync records switch nothing.
        if group != trackersGroup { switchTrackers(to: group) }
        let family = kindFamilies[ordinal]
        if !acts.contains(.warning), !acts.contains(.trackEvery),
           !(acts.contains(.trackSome) && trackers[family].wants(record, event, ordinal: ordinal)) {
            // Its own tracker does not want it; another family's may read it all the same.
            guard acts.contains(.trackOthers) else { return nil }
            acts.remove(.trackSome)
        }
        return Tracked(acts: acts, family: family, group: group)
    }

    /// Whether `record` was written at error or fault level: its header's level (`Error`,
    /// `Fault` in `log show` and NDJSON, `E`, `F`, `Fa` in its compact style, `<Error>` in
    /// syslog) or, where the header gives none (Xcode's console has no header), the level word
    /// Core Data prints before the marker (`hasLevelWord`).
    static func isErrorLevel(_ record: borrowing Record) -> Bool {
        let level = record.withBytes(of: .level) { bytes -> Bool? in
            guard let first = bytes?.first else { return nil }
            return first | 0x20 == UInt8(ascii: "e") || first | 0x20 == UInt8(ascii: "f")
        }
        if let level { return level }
        let bodyStart = record.bodyStart
        return record.text.withUnsafeBytes { text in
            let end = bodyStart > 0 ? min(bodyStart, text.count) : (text.firstIndex(of: 0x0A) ?? text.count)
            return hasLevelWord(UnsafeRawBufferPointer(rebasing: text[..<end]))
        }
    }

    /// Whether `prefix`, a record's first line up to its message, holds Core Data's `error` or
    /// `fault` word: after `CoreData: ` (`CoreData: error: CoreData+CloudKit: …`, `CoreData:
    /// fault: …`, Xcode's copy of the record from standard error) or, at the line's start or
    /// after a blank, right before `CoreData+CloudKit:` (`error: CoreData+CloudKit: …`, its
    /// os_log copy; see `CloudKitEcho`). An app's own `error:` is no level: its line has no
    /// marker after the word.
    static func hasLevelWord(_ prefix: UnsafeRawBufferPointer) -> Bool {
        let bytes = Array(prefix)
        for word in ["error: ", "fault: "].map({ Array($0.utf8) }) {
            var at = 0
            while at + word.count <= bytes.count {
                defer { at += 1 }
                guard bytes[at..<at + word.count].elementsEqual(word) else { continue }
                let coreData = Array("CoreData: ".utf8)
                if at >= coreData.count, bytes[(at - coreData.count)..<at].elementsEqual(coreData) { return true }
                if at == 0 || bytes[at - 1] == 0x20 || bytes[at - 1] == 0x09,
                   bytes[(at + word.count)...].starts(with: "CoreData+CloudKit:".utf8) { return true }
            }
        }
        return false
    }

    private static func isUnhandled(_ event: borrowing Event) -> Bool {
        switch event {
        case .unhandled: true
        default: false
        }
    }

    /// Tells the trackers that the records that follow are `group`'s.
    @inline(never)
    private mutating func switchTrackers(to group: Int) {
        trackersGroup = group
        let input = groups[group].input
        for tracker in trackers { tracker.switchGroup(to: group, input: input) { groups[group].process } }
    }

    /// The first record of `kind`: what the summary does with its records.
    @inline(never)
    private mutating func meet(_ kind: EventKind) -> Acts {
        var acts: Acts = .met
        let family = families.firstIndex { $0.id == kind.family } ?? -1
        if kind == .app {
            acts.insert(.app)
        } else if family >= 0 {
            switch trackers[family].interest(in: kind) {
            case .every: acts.insert(.trackEvery)
            case .some: acts.insert(.trackSome)
            case .none: break
            }
        }
        if kind.severity >= .warning { acts.insert(.warning) }
        if kind != .app {
            let readers = trackers.indices.filter { $0 != family && trackers[$0].reads(other: kind) }
            if !readers.isEmpty {
                acts.insert(.trackOthers)
                otherReaders[kind.ordinal] = readers
            }
        }
        kindActs[kind.ordinal] = acts
        kindFamilies[kind.ordinal] = acts.contains(.app) ? -1 : family
        kindsMet[kind.ordinal] = kind
        return acts
    }

    /// Grows the tables by kind to hold `ordinal`.
    @inline(never)
    private mutating func meetKinds(upTo ordinal: Int) {
        let more = ordinal + 1 - kindActs.count
        kindActs += Array(repeating: [], count: more)
        kindCounts += Array(repeating: 0, count: more)
        kindFamilies += Array(repeating: -1, count: more)
        kindsMet += Array(repeating: nil, count: more)
    }

    /// The record's part in its family's tracker, findings and their counts: for the records
    /// `count` said need more than counts.
    @inline(never)
    mutating func track(_ record: Record, _ event: Event, _ tracked: Tracked, message: () -> String) {
        let kind = event.kind
        if case .unhandled(let limitHit) = event {
            counts.unhandled += 1
            if limitHit { counts.matchLimitHits += 1 }
        }
        // A finding (its message is costly) is made once, for whoever keeps one.
        var made: Finding?
        let group = tracked.group
        func finding() -> Finding {
            if let made { return made }
            let finding = Finding(kind: kind, input: record.input, line: record.firstLine, time: record.time, message: message(),
                                  process: groups[group].process, pid: record.pid ?? groups[group].pids.first)
            made = finding
            return finding
        }
        if tracked.family >= 0, !tracked.acts.isDisjoint(with: [.trackEvery, .trackSome]) {
            trackers[tracked.family].add(record, event, finding: finding)
        }
        if tracked.acts.contains(.trackOthers) {
            for reader in otherReaders[kind.ordinal] ?? [] { trackers[reader].add(record, event, finding: finding) }
        }
        // A record no rule knows is weighed by the unknown check alone, unless its logger wrote
        // it at error or fault level: then it is a warning no entry of the benign list
        // excuses, and its process is not `healthy` (docs/verdicts.md).
        if case .unhandled = event, groupUnexcused[group] == nil, SummaryBuilder.isErrorLevel(record) {
            groupUnexcused[group] = finding()
        }
        if kind == .systemStore { groupStoreRecords[group].saturatingAdd(1) }
        guard kind.severity >= .warning, kind != .unhandled else { return }
        // Made only where the list keeps it: past the cap, a log of many warnings would
        // otherwise compose each one's headline (its error whole) for nothing.
        if kind.severity == .error { counts.errors += 1 } else { counts.warnings += 1 }
        let kept = counts.findings.count < RunSummary.maxKeptFindings
        if kept { counts.findings.append(finding()) }
        switch BenignFindings.entry(for: kind)?.condition {
        case .always?:
            break
        case .cleared?:
            // The latest one decides; past the cap its sentence is the kind's, not composed.
            groupUncleared[group] = kept ? finding()
                : Finding(kind: kind, input: record.input, line: record.firstLine, time: record.time, message: kind.summary)
        case nil:
            if groupUnexcused[group] == nil { groupUnexcused[group] = finding() }
        }
    }

    /// The groups with their counts of records and of each family's (kept apart while the run
    /// goes, see `groupRecords`).
    var countedGroups: [ProcessSummary] {
        groups.indices.map { index in
            var group = groups[index]
            group.records = groupRecords[index]
            group.families = families.indices.map { family in
                FamilyRecords(family: families[family].id, recordNoun: families[family].recordNoun,
                              records: familyRecords[index * familyCount + family], unhandled: familyUnhandled[index * familyCount + family])
            }
            return group
        }
    }
}
