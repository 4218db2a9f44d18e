// Transaction logs across the devices of a run: which peer wrote each, where it was imported
// and how that went; object changes per entity; and what ties the inputs (devices) together:
// a log that failed on one and was written by another, the cloud store one device rebuilt and
// the others moved to.

/// One transaction log as the run saw it.
public struct TransactionLogStory: Sendable, Equatable {
    public struct Import: Sendable, Equatable {
        public enum Outcome: String, Sendable {
            /// An import operation began parsing it and nothing more was heard of it.
            case started
            case applied, skipped, failed
            case alreadyImported = "already-imported"
        }
        public var input: String
        /// Where the outcome was logged (where the import started, while it is `started`).
        public var line: Int
        public var outcome: Outcome
        /// Where an import operation began parsing it, when the log shows that.
        public var startLine: Int?
    }

    /// The file name, `DAC8E3F1-….1.cdt`.
    public var name: String
    /// The peer whose folder holds the log: the device that wrote it.
    public var peer: String?
    /// Where the run saw it written, when it did.
    public var writtenIn: String?
    public var writtenLine: Int?
    public var transaction: Int?
    public var imports: [Import] = []

    public var fields: [Field] {
        var fields = FieldList()
        fields.add("name", name)
        fields.add("peer", peer)
        if let writtenIn, let writtenLine {
            var written = FieldList()
            written.add("input", writtenIn)
            written.add("line", writtenLine)
            written.add("transaction", transaction)
            fields.add("written", .object(written.items))
        }
        fields.add("imports", .list(imports.map { entry in
            var fields = FieldList()
            fields.add("input", entry.input)
            fields.add("line", entry.line)
            fields.add("outcome", entry.outcome.rawValue)
            fields.add("startLine", entry.startLine)
            return .object(fields.items)
        }))
        return fields.items
    }
}

/// What the run learnt about the device behind one input.
public struct Device: Sendable, Equatable {
    public var input: String
    /// Its own peer ids (as ubiquity names it: `mobile~6F2C…`), the first
    /// `RunSummary.maxKeptFindings`; past them, each record naming one not kept is counted.
    public var peers: [String] = []
    public var morePeers = 0
    /// Cloud store UUIDs it loaded, wrote or moved to, kept and counted as `peers`.
    public var storeUUIDs: [String] = []
    public var moreStoreUUIDs = 0
    /// How UbiquityStoreManager judged its store when it found the cloud corrupt.
    public var deviceStore: String?
    /// Where it rebuilt the cloud content, and the store UUID it wrote then.
    public var rebuildLine: Int?
    public var writtenStoreUUID: (uuid: String, line: Int)?
    /// Where it moved to another cloud store, and its UUID.
    public var movedToStoreUUID: (uuid: String, line: Int)?

    public init(input: String) { self.input = input }

    public static func == (lhs: Device, rhs: Device) -> Bool {
        lhs.input == rhs.input && lhs.peers == rhs.peers && lhs.storeUUIDs == rhs.storeUUIDs && lhs.deviceStore == rhs.deviceStore
            && lhs.morePeers == rhs.morePeers && lhs.moreStoreUUIDs == rhs.moreStoreUUIDs
            && lhs.rebuildLine == rhs.rebuildLine && lhs.writtenStoreUUID?.uuid == rhs.writtenStoreUUID?.uuid
            && lhs.movedToStoreUUID?.uuid == rhs.movedToStoreUUID?.uuid
    }

    public var fields: [Field] {
        var fields = FieldList()
        fields.add("input", input)
        fields.add("peers", .list(peers.map { .string($0) }))
        fields.add("storeUUIDs", .list(storeUUIDs.map { .string($0) }))
        if morePeers > 0 { fields.add("morePeers", morePeers) }
        if moreStoreUUIDs > 0 { fields.add("moreStoreUUIDs", moreStoreUUIDs) }
        fields.add("deviceStore", deviceStore)
        fields.add("rebuildLine", rebuildLine)
        return fields.items
    }
}

/// Object changes of one entity.
public struct EntityChanges: Sendable, Equatable {
    public var exported = 0
    public var imported = 0
}

struct TransactionLogTracker {
    /// Each log's story, in the order the run first met the log.
    private(set) var stories: [TransactionLogStory] = []
    /// Where each log's story is in `stories`. A record finds its log's story with one lookup
    /// and changes it in place, hashing the log's name once, not at each of the three to five
    /// things it asks of the story (is it there, its peer, the update, …).
    private var storyIndex: [String: Int] = [:]
    private(set) var entities: [String: EntityChanges] = [:]
    private(set) var devices: [Device] = []
    /// The log each import operation of the current input is parsing (and the peer its path
    /// names), by thread; emptied when an input begins (`beginInput`, which `add` calls for a
    /// record of another input). Keyed by the thread's name alone, not by a struct of input
    /// and thread, whose `Hashable` conformance is looked up at the table's first entry.
    private var parsing: [String: (log: String, peer: String?)] = [:]
    /// The input of `devices.last`, asked for every record: reading it through `devices.last`
    /// would copy the whole device, retaining and releasing each of its texts and lists.
    private var currentInput: String?
    /// The current device's peers and store UUIDs, as sets: each new one is looked up, not
    /// compared with every one before it.
    private var devicePeers: Set<String> = []
    private var deviceStoreUUIDs: Set<String> = []

    /// Logs followed at most; counts elsewhere stay exact.
    static let maxLogs = RunSummary.maxKeptFindings

    mutating func beginInput(_ name: String) {
        devices.append(Device(input: name))
        currentInput = name
        parsing = [:]
        devicePeers = []
        deviceStoreUUIDs = []
    }

    /// The `.message` kinds whose facts `add` reads.
    static let factKinds: [EventKind] = [.importProgress, .storeLoadDetails, .storeUUIDWritten, .storeUUIDChanged]

    /// Every kind `add` acts on: the summary passes the others over without calling it.
    static let kinds = KindSet([.transactionLogWritten, .logAlreadyImported, .importFailed, .incompatibleOperationSkipped,
                                .changesImported, .objectsExported, .usingLocalStorage, .cloudCorruptionDetected,
                                .cloudContentRebuild] + factKinds)

    /// A record of input `input` follows: a new input gets a device of its own.
    mutating func noteInput(_ input: String) {
        if currentInput != input { beginInput(input) }
    }

    mutating func add(_ record: Record, _ event: Event) {
        let input = record.input
        noteInput(input)
        switch event {
        case .transactionLogWritten(let transaction, let log?):
            let index = story(log, record) { story in
                story.writtenIn = input
                story.writtenLine = record.firstLine
                story.transaction = transaction
            }
            if let index, let peer = stories[index].peer { addPeer(peer) }
        case .logAlreadyImported(let log?):
            imported(log, record, .alreadyImported)
        case .importFailed(let log?, _):
            imported(log, record, .failed)
        case .incompatibleOperationSkipped(_, let log?, _):
            imported(log, record, .skipped)
        case .changesImported(let changes):
            for change in changes { entities[change.entity, default: EntityChanges()].imported += 1 }
            if let parsed = parsing.removeValue(forKey: threadKey(record)) { imported(parsed.log, record, .applied, peer: parsed.peer) }
        case .objectsExported(let changes):
            for change in changes { entities[change.entity, default: EntityChanges()].exported += 1 }
        case .usingLocalStorage(_, let peer?, _):
            addPeer(peer)
        case .cloudCorruptionDetected(let deviceStore):
            devices[devices.count - 1].deviceStore = deviceStore
        case .message(let kind, let fields):
            let value = { (name: String) -> String? in
                fields.first { $0.name == name }?.value.text
            }
            switch kind {
            case .importFailed:
                // Stopped by an exception (`import-failed-exception`): the log its operation named.
                if let log = value("log") { imported(log, record, .failed) }
            case .importProgress:
                if let log = value("log") {
                    // The path is in this record only: find the peer now if the log is new.
                    let peer = storyIndex[log].map { stories[$0].peer } ?? TransactionLogTracker.peer(holding: log, in: record)
                    parsing[threadKey(record)] = (log, peer)
                    imported(log, record, .started, peer: peer)
                }
            case .storeLoadDetails:
                if let uuid = value("storeUUID") { addStoreUUID(uuid) }
            case .storeUUIDWritten:
                if let uuid = value("storeUUID") {
                    addStoreUUID(uuid)
                    devices[devices.count - 1].writtenStoreUUID = (uuid, record.firstLine)
                }
            case .storeUUIDChanged:
                if let uuid = value("to") {
                    addStoreUUID(uuid)
                    devices[devices.count - 1].movedToStoreUUID = (uuid, record.firstLine)
                }
            case .cloudContentRebuild:
                if devices[devices.count - 1].rebuildLine == nil { devices[devices.count - 1].rebuildLine = record.firstLine }
            default:
                break
            }
        default:
            break
        }
    }

    /// Sentences that tie the inputs together, each naming inputs and lines. The devices are
    /// found through `DeviceIndex`, not by a scan of every device for each failure and each
    /// device: a run of many inputs has as many devices, and such scans would make its end
    /// quadratic in the inputs.
    func correlations() -> [String] {
        var sentences: [String] = []
        var index: DeviceIndex?
        func devices() -> DeviceIndex {
            if let index { return index }
            let made = DeviceIndex(self.devices)
            index = made
            return made
        }
        for story in stories {
            for failure in story.imports where failure.outcome == .failed {
                if let writer = story.writtenIn, let line = story.writtenLine, writer != failure.input {
                    sentences.append("\(story.name) failed to import on \(failure.input):\(failure.line); \(writer) wrote it (\(writer):\(line))")
                } else if let peer = story.peer, let owner = devices().first(holding: peer, notIn: failure.input) {
                    sentences.append("\(story.name) failed to import on \(failure.input):\(failure.line); it comes from \(owner) (peer \(peer))")
                } else if let peer = story.peer, !devices().firstOf(input: failure.input, holds: peer) {
                    sentences.append("\(story.name) failed to import on \(failure.input):\(failure.line); peer \(peer) wrote it, which no input shows")
                }
            }
        }
        for device in self.devices {
            if let line = device.rebuildLine {
                let health = device.deviceStore.map { "its store was \($0); " } ?? ""
                sentences.append("\(device.input): \(health)it rebuilt the cloud content (\(device.input):\(line))")
            }
            guard let moved = device.movedToStoreUUID else { continue }
            if let builder = devices().first(writing: moved.uuid, notIn: device.input),
               let written = builder.writtenStoreUUID {
                sentences.append("\(device.input) moved to the cloud store \(builder.input) rebuilt, \(moved.uuid) (\(device.input):\(moved.line), \(builder.input):\(written.line))")
            }
        }
        return sentences
    }

    /// The run's devices looked up by what `correlations` asks of them, each answer the first
    /// device in the run's order that a scan of `devices` would find.
    private struct DeviceIndex {
        let devices: [Device]
        /// By peer, the devices that hold it; by input, its first device; by store UUID, the
        /// devices that wrote it (`writtenStoreUUID`), each list in the run's order.
        private var byPeer: [String: [Int]] = [:]
        private var byInput: [String: Int] = [:]
        private var byWrittenUUID: [String: [Int]] = [:]

        init(_ devices: [Device]) {
            self.devices = devices
            for (index, device) in devices.enumerated() {
                if byInput[device.input] == nil { byInput[device.input] = index }
                for peer in device.peers { byPeer[peer, default: []].append(index) }
                if let written = device.writtenStoreUUID { byWrittenUUID[written.uuid, default: []].append(index) }
            }
        }

        /// The input of the first device of another input than `input` that holds `peer`.
        func first(holding peer: String, notIn input: String) -> String? {
            byPeer[peer]?.lazy.map { devices[$0].input }.first { $0 != input }
        }

        /// Whether the first device of `input` holds `peer`.
        func firstOf(input: String, holds peer: String) -> Bool {
            byInput[input].map { devices[$0].peers.contains(peer) } ?? false
        }

        /// The first device of another input than `input` that wrote the store UUID `uuid`.
        func first(writing uuid: String, notIn input: String) -> Device? {
            byWrittenUUID[uuid]?.lazy.map { devices[$0] }.first { $0.input != input }
        }
    }

    private mutating func imported(_ log: String, _ record: Record, _ outcome: TransactionLogStory.Import.Outcome, peer: String? = nil) {
        story(log, record, peer: peer) { story in
            // An outcome completes the import of this log that started in this input.
            if outcome != .started, let index = TransactionLogTracker.lastStarted(in: story.imports, input: record.input) {
                story.imports[index].startLine = story.imports[index].line
                story.imports[index].line = record.firstLine
                story.imports[index].outcome = outcome
            } else if story.imports.count < 100 {
                story.imports.append(.init(input: record.input, line: record.firstLine, outcome: outcome))
            }
        }
    }

    /// Where the last import still `started` in `input` is. Each import's fields are read in
    /// place, not through `lastIndex(where:)`, which hands each import to its closure as a
    /// copy, retaining and releasing its texts, over a log's up to 100 imports.
    private static func lastStarted(in imports: [TransactionLogStory.Import], input: String) -> Int? {
        var index = imports.count
        while index > 0 {
            index -= 1
            if imports[index].outcome == .started, imports[index].input == input { return index }
        }
        return nil
    }

    /// Updates the story of `log`, starting one (with the peer its path names) if need be;
    /// where the story is in `stories` (nil when the run follows no more logs).
    @discardableResult
    private mutating func story(_ log: String, _ record: Record, peer: String? = nil, _ update: (inout TransactionLogStory) -> Void) -> Int? {
        let index: Int
        if let known = storyIndex[log] {
            index = known
            if let peer, stories[index].peer == nil { stories[index].peer = peer }
        } else {
            guard stories.count < TransactionLogTracker.maxLogs else { return nil }
            // The peer is looked for once, when the run first meets the log (it costs a scan of the record).
            index = stories.count
            storyIndex[log] = index
            stories.append(TransactionLogStory(name: log, peer: peer ?? TransactionLogTracker.peer(holding: log, in: record)))
        }
        update(&stories[index])
        return index
    }

    private mutating func addPeer(_ peer: String) {
        TransactionLogTracker.add(peer, seen: &devicePeers, to: &devices[devices.count - 1], \.peers, more: \.morePeers)
    }

    private mutating func addStoreUUID(_ uuid: String) {
        TransactionLogTracker.add(uuid, seen: &deviceStoreUUIDs, to: &devices[devices.count - 1], \.storeUUIDs, more: \.moreStoreUUIDs)
    }

    /// Adds `name` to a device's `list` unless `seen` (the list's names) holds it; past
    /// `maxKeptFindings` names it is counted in `more` instead.
    private static func add(_ name: String, seen: inout Set<String>, to device: inout Device,
                            _ list: WritableKeyPath<Device, [String]>, more: WritableKeyPath<Device, Int>) {
        guard !seen.contains(name) else { return }
        if seen.count < RunSummary.maxKeptFindings {
            seen.insert(name)
            device[keyPath: list].append(name)
        } else {
            device[keyPath: more] += 1
        }
    }

    private func threadKey(_ record: Record) -> String { record.string(.thread) ?? "" }

    /// The peer folder in the path that leads to `log` in the record:
    /// `…/CoreDataLogs/mobile~A3D1…/JournalStore/<store UUID>/<log>` → `mobile~A3D1…`.
    static func peer(holding log: String, in record: Record) -> String? {
        // On the bytes where text and name are ASCII (see `PeerSearch`).
        let needle = Array(("/" + log).utf8)
        let found = record.text.withUnsafeBufferPointer { bytes -> String?? in
            guard PeerSearch.isPlainASCII(bytes), needle.withUnsafeBufferPointer(PeerSearch.isPlainASCII), !needle.contains(0x0A), !needle.contains(0x0D) else { return nil }
            guard let at = PeerSearch.first(needle, in: bytes) else { return .some(nil) }
            return .some(PeerSearch.peer(in: bytes, PeerSearch.lastLine(in: bytes, before: at)))
        }
        if let found { return found }
        return peerByCharacters(holding: log, in: record)
    }

    /// `peer(holding:in:)` by Characters: for text the bytes cannot stand for.
    static func peerByCharacters(holding log: String, in record: Record) -> String? {
        let text = ByteText.string(record.text[...])
        guard let at = text.firstRange(of: "/" + log) else { return nil }
        let path = text[..<at.lowerBound].split(separator: "\n").last ?? ""
        return path.split(separator: "/").reversed().first(where: isPeerID).map(String.init)
    }

    /// The peer whose folder a path lies in: the last component that is a peer ID.
    static func peer(inPath path: String) -> String? {
        let found = path.utf8.withContiguousStorageIfAvailable { bytes -> String?? in
            PeerSearch.isPlainASCII(bytes) ? .some(PeerSearch.peer(in: bytes, 0..<bytes.count)) : nil
        }
        if case .some(.some(let peer)) = found { return peer }
        return peerByCharacters(inPath: path)
    }

    /// `peer(inPath:)` by Characters: for text the bytes cannot stand for.
    static func peerByCharacters(inPath path: String) -> String? {
        path.split(separator: "/").reversed().first(where: isPeerID).map(String.init)
    }

    /// `mobile~6F2C0E8A-1B7D-…`, `mobile.6F2C0E8A1B7D…`: a name, then `~` or `.`, then 32 hex digits.
    static func isPeerID(_ component: Substring) -> Bool {
        guard let separator = component.firstIndex(where: { $0 == "~" || $0 == "." }), separator > component.startIndex else { return false }
        let id = component[component.index(after: separator)...]
        return id.filter(\.isHexDigit).count == 32 && id.allSatisfy { $0.isHexDigit || $0 == "-" }
    }
}
