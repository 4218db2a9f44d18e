// Writes large, realistic, deterministic logs for benchmarks (scripts/gen-log): the catalogue's
// own sample records (every kind, multi-line dumps and errors included) re-timed and re-headed
// in several header styles, in proportions like a verbose session's, with app lines between.
//
// Two mixes. The default one is the benchmark's log (`scripts/gen-log 256 1`); its bytes for a
// seed must not change, since figures and comparisons are made on it
// (`LogGeneratorTests.defaultMixIsUnchanged`). The long mix (`recordBytes`) makes records of
// a chosen average length the way real sessions do: the same messages and headers, with
// the longer things real logs carry between them (userInfo dictionaries after errors, object
// and store dumps, app lines with method names and paths) on some records, drawn from a random
// stream of their own so that the default stream's draws stay as they are. The console mix
// (`console`) is a device console as a user saves it: short lines of many interleaved system
// processes, in several header styles, with the synced app's lines (the default mix's) among
// them, about one line in twenty.
import UbiquityLogKit

/// SplitMix64: the same log for the same seed on every machine.
public struct SplitMix64: Sendable {
    public var state: UInt64
    public init(state: UInt64) { self.state = state }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

public struct LogGenerator: Sendable {
    /// One record as written: `base` is its header, message and newline; `extra` the
    /// continuation lines the long mix adds (each ending in a newline; empty in the default mix).
    public struct Record: Equatable, Sendable {
        public var base: String
        public var extra: String
        /// Records parselogs reads in it: lines that carry a header of their own start one.
        public var records: Int
        /// Whether `base` is one of the app's own lines (no rule recognises it).
        public var isAppLine: Bool
        public var text: String { base + extra }
    }

    /// The long mix's app lines: what an app logs around its store, with method names, paths
    /// and object descriptions. `%A` becomes an address, `%N` a number, `%U` one of 64 UUIDs
    /// (log files, attachments, CloudKit records), `%P` one of three peers, `%S` one of two
    /// stores, `%C` the app's container. Identifiers come from small sets, as in a real
    /// session: a log that named a new peer or store on every record would measure the
    /// summary's tables of peers and stores growing, not the work a record costs.
    public static let longAppLines = [
        "-[JRNEntryListViewController controllerDidChangeContent:](212): reloading 3 sections, %N rows for predicate (journal == 0x%A <x-coredata://%S/Journal/p1>) sorted by (created DESC, title ASC)",
        "-[JRNSyncStatusView updateWithNotification:](88): NSPersistentStoreCoordinatorStoresDidChangeNotification from <NSPersistentStoreCoordinator: 0x%A>, refreshing 2 visible cells",
        "-[JRNAttachmentStore writeImageData:forEntry:](140): wrote %N KB to file:///var/mobile/Applications/%C/Library/Caches/Attachments/%U.jpg",
        "-[JRNAppDelegate application:didReceiveRemoteNotification:fetchCompletionHandler:](173): {aps = {\"content-available\" = 1;}; ck = {ce = 2; cid = \"iCloud.com.example.journal\";};}",
        "-[JRNEntryEditorViewController saveEntry:](305): saved <JRNEntry: 0x%A> (x-coredata://%S/Entry/p%N) in context <NSManagedObjectContext: 0x%A> after %N ms",
        "-[JRNSearchController updateSearchResultsForSearchController:](96): fetch request (entity: Entry; predicate: (title CONTAINS[cd] \"walk\" OR body CONTAINS[cd] \"walk\"); sortDescriptors: ((created, descending)); batch size: 20) returned %N objects",
        "-[JRNExportManager exportJournal:toURL:completion:](58): exporting %N entries to file:///var/mobile/Applications/%C/Documents/Exports/Journal-2014-03-02.pdf",
    ]

    /// What the long mix adds after an error or a failure: the NSError's userInfo, as Core Data
    /// and UbiquityStoreManager print it.
    public static let userInfoDumps = [
        "{\n    NSFilePath = \"/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs/mobile~%P/JournalStore/%U/%U.%N.cdt\";\n    NSUnderlyingError = \"Error Domain=NSPOSIXErrorDomain Code=2 \\\"The operation couldn\\U2019t be completed. No such file or directory\\\"\";\n}\n",
        "userInfo: {\n    NSLocalizedDescription = \"The operation couldn\\U2019t be completed. (Cocoa error 134302.)\";\n    NSPersistentStoreFileURL = \"file:///var/mobile/Applications/%C/Documents/UbiquityStore.sqlite\";\n    NSSQLiteErrorDomain = 11;\n    reason = \"The database disk image is malformed\";\n}\n",
        "    NSUnderlyingException = \"Error validating url for store\";\n    URL = \"file:///var/mobile/Library/Mobile%20Documents/ABCDE12345~com~example~journal/CoreDataLogs/mobile~%P/JournalStore/%U/\";\n    retryCount = %N;\n",
    ]

    /// What the long mix adds after other sync records: store options, metadata and objects.
    public static let storeDumps = [
        "\tstoreOptions: {\n\t    NSInferMappingModelAutomaticallyOption = 1;\n\t    NSMigratePersistentStoresAutomaticallyOption = 1;\n\t    NSPersistentStoreUbiquitousContentNameKey = JournalStore;\n\t    NSPersistentStoreUbiquitousContentURLKey = \"file:///var/mobile/Library/Mobile%20Documents/ABCDE12345~com~example~journal/CoreDataLogs/\";\n\t}\n",
        "\tmetadata: {\n\t    NSPersistenceFrameworkVersion = 479;\n\t    NSStoreModelVersionHashesVersion = 3;\n\t    NSStoreType = SQLite;\n\t    NSStoreUUID = \"%S\";\n\t    \"_NSAutoVacuumLevel\" = 2;\n\t}\n",
        "\tinsertedObjects: {(\n\t    <JRNEntry: 0x%A> (entity: Entry; id: 0x%A <x-coredata://%S/Entry/p%N> ; data: <fault>),\n\t    <JRNTag: 0x%A> (entity: Tag; id: 0x%A <x-coredata://%S/Tag/p%N> ; data: <fault>)\n\t)}\n",
        "\tlocalPeerID: mobile~%P\n\tubiquityRootLocation: <PFUbiquityLocation: 0x%A>: /var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs\n",
    ]

    /// What the long mix adds after CloudKit mirroring records: errors with their partial
    /// failures, and the zones, records and options they print.
    public static let cloudKitErrorDumps = [
        "<CKError 0x%A: \"Partial Failure\" (2/1011); \"Failed to modify some records\"; partial errors: {\n\t%U:(com.apple.coredata.cloudkit.zone:__defaultOwner__) = <CKError 0x%A: \"Server Record Changed\" (14/2004); server message = \"record to insert already exists\"; op = %A; uuid = %U>\n}>\n",
        "<CKError 0x%A: \"Network Unavailable\" (3/NSURLErrorDomain:-1009); \"The Internet connection appears to be offline.\"; Retry after %N.0 seconds>\n",
    ]
    public static let cloudKitDumps = [
        "<CKRecordZoneID: 0x%A; zoneName=com.apple.coredata.cloudkit.zone, ownerName=__defaultOwner__>\n<CKServerChangeToken: 0x%A; data=AQAAAAAAAA%NAAAAAAAAAAAB/////////////9w==>\n",
        "<CKRecord: 0x%A; recordID=%U:(com.apple.coredata.cloudkit.zone:__defaultOwner__), recordChangeTag=%N, values={\n    \"CD_entityName\" = Recipe;\n    \"CD_title\" = \"Lemon tart\";\n    \"CD_rating\" = %N;\n}, recordType=CD_Recipe>\n",
    ]

    /// What the long mix adds after app lines: an object's description.
    public static let objectDumps = [
        "\t<JRNEntry: 0x%A> (entity: Entry; id: 0x%A <x-coredata://%S/Entry/p%N> ; data: {\n\t    body = \"Walked along the river to the old mill and back, about five kilometres.\";\n\t    created = \"2014-03-02 08:51:12 +0000\";\n\t    journal = \"0x%A <x-coredata://%S/Journal/p1>\";\n\t    tags = \"<relationship fault: 0x%A 'tags'>\";\n\t    title = Walk;\n\t})\n",
        "\t<JRNJournal: 0x%A> (entity: Journal; id: 0x%A <x-coredata://%S/Journal/p1> ; data: {\n\t    entries = \"<relationship fault: 0x%A 'entries'>\";\n\t    name = \"Spring 2014\";\n\t})\n",
    ]

    typealias Message = (text: String, weight: Int, isAppLine: Bool)

    /// The console mix's system processes, each with its pid, and what they log: short lines
    /// (`%N` a number, `%A` an address), as a device console holds thousands of.
    public static let consoleProcesses = [("SpringBoard", 57), ("backboardd", 62), ("locationd", 71), ("kernel", 0), ("wifid", 88),
                                          ("mediaserverd", 43), ("apsd", 91), ("assertiond", 66), ("searchd", 133), ("CommCenter", 80),
                                          ("lsd", 112), ("UserEventAgent", 25), ("dasd", 119)]
    public static let consoleLines = [
        "Received memory pressure notification, level %N",
        "<SBApplication: 0x%A; com.example.journal> state changed to 3",
        "WiFi: link quality %N, rssi -%N dBm",
        "Entering background for app com.example.journal",
        "assertion 0x%A released for pid %N",
        "AppleBCMWLANCore: powering on, %N ms",
        "Location icon should now be in state 'Inactive'",
        "Forcing display update for brightness %N",
        "Connection to APNS established, %N topics",
        "Scheduling activity com.apple.searchd.index in %N s",
        "CTServerConnection: registration status changed to Home",
        "-[LSApplicationWorkspace openURL:] opened %N",
        "Sandbox: deny file-read-data /private/var/mobile/Library/Caches/%N",
        "task_for_pid(%N) succeeded",
        "BKSHIDEvent: touch down at (%N, %N)",
        "Audio session 0x%A became active",
    ]

    private var random: SplitMix64
    /// The console mix's own draws (nil: another mix), so that its synced app's lines are the
    /// default stream's.
    private var consoleRandom: SplitMix64?
    /// The long mix's choices: a stream of their own, so that the default stream is unchanged.
    private var extraRandom: SplitMix64
    private let recordBytes: Int?
    private let messages: [Message]
    private let total: Int
    /// The long mix: by message (and for `longAppLines`), the dumps that may follow it.
    private var dumpsAfterMessage: [[String]] = []
    /// `%U`'s UUIDs, the same for every seed.
    private let uuids: [String] = {
        var random = SplitMix64(state: 0x5555_4944)  // "UUID"
        return (0..<64).map { _ in
            let digits = Array(String(random.next(), radix: 16, uppercase: true).leftPadded(16) + String(random.next(), radix: 16, uppercase: true).leftPadded(16))
            return "\(String(digits[0..<8]))-\(String(digits[8..<12]))-\(String(digits[12..<16]))-\(String(digits[16..<20]))-\(String(digits[20..<32]))"
        }
    }()
    public static let peers = ["6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F11", "A3D19B52-7E0C-4F8A-B1D6-5C2E9F04A7B3", "0E4B7C21-9D3A-4F68-8B15-6A2C9E1F3D70"]
    public static let stores = ["8F3A1C2B-6D4E-4F50-9B7A-1C2D3E4F5A6B", "6F0D0A1E-8C55-4F4C-9C3A-1D2E3F4A5B6C"]
    private var dumpsAfterLongAppLine: [[String]] = []
    private var clock = 9 * 3_600_000 + 14 * 60_000  // milliseconds of the day
    private var bytesSoFar = 0
    private var recordsSoFar = 0

    /// `recordBytes`: the average length, in bytes, of the records of the long mix; nil for
    /// the default mix. It cannot go below the default mix's own average (about 300 bytes).
    /// Throws only for the long mix, when the catalogue does not compile.
    public init(seed: UInt64, recordBytes: Int? = nil, console: Bool = false) throws {
        random = SplitMix64(state: seed)
        consoleRandom = console ? SplitMix64(state: seed ^ 0x434F_4E53_4F4C_4531) : nil  // "CONSOLE1"
        extraRandom = SplitMix64(state: seed ^ 0x4C4F_4E47_5245_4353)  // "LONGRECS"
        self.recordBytes = recordBytes
        var messages: [Message] = []
        for rule in Catalog.standardRules {
            for sample in rule.samples { messages.append((Self.message(of: sample), Self.weight(rule.kind), false)) }
        }
        let appLines = ["Showing 14 entries", "User saved entry \"Walk\"", "Sync status: waiting", "Did receive memory warning",
                        "Reloading table view with 3 sections", "Analytics: flushed 12 events"]
        messages += appLines.map { ($0, 30, true) }
        self.messages = messages
        total = messages.reduce(0) { $0 + $1.weight }
        if recordBytes != nil {
            let catalog = try Catalog.standard()
            let header = "2014-03-02 09:14:07.318 Journal[412:60b] "
            dumpsAfterMessage = messages.map { message in
                let base = Self.leadingTime(Substring(message.text)) != nil ? message.text + "\n" : header + message.text + "\n"
                return Self.dumps(keepingWhatIsMadeOf: base, pool: Self.pool(for: message), catalog: catalog)
            }
            dumpsAfterLongAppLine = Self.longAppLines.map {
                Self.dumps(keepingWhatIsMadeOf: header + $0 + "\n", pool: Self.objectDumps, catalog: catalog)
            }
        }
    }

    /// The kind of dump that follows such a message in real logs.
    static func pool(for message: Message) -> [String] {
        if message.isAppLine { return objectDumps }
        let failing = message.text.contains("rror") || message.text.contains("ailed") || message.text.contains("orrupt")
        if message.text.contains("CloudKit") { return failing ? cloudKitErrorDumps : cloudKitDumps }
        return failing ? userInfoDumps : storeDumps
    }

    /// The dumps of `pool` that leave what a run makes of `record` as it is (its kind, and
    /// whether it is an app line or recognised at all). Many rules describe their record to
    /// its end, so a dump after it would turn a known record into an unhandled one: a
    /// benchmark of records nobody recognises would measure the wrong thing.
    static func dumps(keepingWhatIsMadeOf record: String, pool: [String], catalog: Catalog) -> [String] {
        let alone = madeOf(record, catalog: catalog)
        return pool.filter { template in
            let dump = template.replacing("%A", with: "15e53120").replacing("%N", with: "12")
                .replacing("%U", with: "2E4F6A8C-0B1D-4E3F-9A5B-7C9D1E3F5A7B").replacing("%P", with: peers[0])
                .replacing("%S", with: stores[0]).replacing("%C", with: "4C1F2E3D-5A6B-4C7D-8E9F-0A1B2C3D4E5F")
            return madeOf(record + dump, catalog: catalog) == alone
        }
    }

    /// What a run on one thread makes of `text`: records, sync records, unhandled, kinds.
    static func madeOf(_ text: String, catalog: Catalog) -> [String] {
        let run = LogRun(catalog: catalog, reporters: [])
        run.usesThreads = false
        var source = MemorySource(text)
        try? run.process(&source, name: "sample")
        let summary = run.finish()
        return ["\(summary.records)", "\(summary.syncRecords)", "\(summary.unhandled)"]
            + summary.countsByKind.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    /// A sample's message without the header it was written with.
    static func message(of sample: String) -> String {
        let prefixes = ["2014-03-02 09:14:07.318 Journal[412:60b] ", "2012-11-20 18:02:41.770 Journal[233:1303] ",
                        "Mar  2 09:14:07 Joes-iPad Journal[412] <Warning>: "]
        for prefix in prefixes where sample.hasPrefix(prefix) { return String(sample.dropFirst(prefix.count)) }
        return sample
    }

    /// How often a kind's records appear, relative to each other: chatter is common, failures rare.
    static func weight(_ kind: EventKind) -> Int {
        switch (kind.tier, kind.severity) {
        case (_, .error): 1
        case (_, .warning): 3
        case (.routine, _): 40
        case (.detail, _): 20
        case (.notable, _): 8
        }
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    static func three(_ value: Int) -> String { value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)" }

    public mutating func next() -> Record {
        if consoleRandom != nil, let line = nextConsoleLine() { return line }
        // The default stream: its draws, in this order, make the benchmark's log.
        var pick = random.below(total)
        var chosenIndex = 0
        for (index, message) in messages.enumerated() {
            if pick < message.weight { chosenIndex = index; break }
            pick -= message.weight
        }
        let chosen = messages[chosenIndex]
        clock += random.below(40) + (random.below(100) == 0 ? 3_000 : 0)  // now and then a pause
        let day = 2 + clock / 86_400_000
        let ms = clock % 86_400_000
        let (hour, minute, second, milli) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
        let date = "2014-03-\(Self.two(day)) \(Self.two(hour)):\(Self.two(minute)):\(Self.two(second))"
        let header: String
        switch random.below(10) {
        case 0..<7: header = "\(date).\(Self.three(milli)) Journal[412:60b] "
        case 7..<9: header = "\(Self.months[2]) \(day < 10 ? " " : "")\(day) \(Self.two(hour)):\(Self.two(minute)):\(Self.two(second)) Joes-iPad Journal[412] <Warning>: "
        default: header = "\(date).\(Self.three(milli))000+0100 0x2f1c     Default     0x0                  412    0    Journal: "
        }
        guard let recordBytes else {
            return Record(base: header + chosen.text + "\n", extra: "", records: 1, isAppLine: chosen.isAppLine)
        }
        var (record, dumps) = longRecord(chosenIndex, header: header, time: date,
                                         syslogTime: "Mar \(day < 10 ? " " : "")\(day) \(Self.two(hour)):\(Self.two(minute)):\(Self.two(second))")
        // Continuation lines go on while the records so far fall short of the average asked
        // for, on half of the records that could take them: which records carry dumps varies.
        var deficit = recordBytes * (recordsSoFar + record.records) - (bytesSoFar + record.base.utf8.count)
        var added = 0
        while deficit > 0, added < 2, !dumps.isEmpty, extraRandom.below(2) == 0 {
            let dump = fill(dumps[extraRandom.below(dumps.count)])
            record.extra += dump
            deficit -= dump.utf8.count
            added += 1
        }
        bytesSoFar += record.base.utf8.count + record.extra.utf8.count
        recordsSoFar += record.records
        return record
    }

    /// The console mix's next line when it is a system process's (19 lines in 20): nil when
    /// it is the synced app's turn (the default stream's next record).
    private mutating func nextConsoleLine() -> Record? {
        guard var draws = consoleRandom else { return nil }
        defer { consoleRandom = draws }
        guard draws.below(20) != 0 else { return nil }
        clock += draws.below(6)
        // Thirteen processes interleaved at random; the addresses and numbers come from
        // `extraRandom` (see `fill`).
        let (process, pid) = Self.consoleProcesses[draws.below(Self.consoleProcesses.count)]
        let text = fill(Self.consoleLines[draws.below(Self.consoleLines.count)])
        let day = 2 + clock / 86_400_000
        let ms = clock % 86_400_000
        let (hour, minute, second, milli) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
        let header: String
        switch draws.below(10) {
        case 0..<6:  // idevicesyslog, Console.app
            header = "\(Self.months[2]) \(day < 10 ? " " : "")\(day) \(Self.two(hour)):\(Self.two(minute)):\(Self.two(second)) Joes-iPad \(process)[\(pid)] <Notice>: "
        case 6..<8:  // log show, a sysdiagnose
            header = "2014-03-\(Self.two(day)) \(Self.two(hour)):\(Self.two(minute)):\(Self.two(second)).\(Self.three(milli))000+0100 0x\(String(pid * 31 + 4096, radix: 16))     Default     0x0                  \(pid)    0    \(process): "
        default:  // NSLog
            header = "2014-03-\(Self.two(day)) \(Self.two(hour)):\(Self.two(minute)):\(Self.two(second)).\(Self.three(milli)) \(process)[\(pid):\(String(pid * 7 + 0x303, radix: 16))] "
        }
        return Record(base: header + text + "\n", extra: "", records: 1, isAppLine: false)
    }

    /// A record of the long mix before its continuation lines, and the dumps that may follow
    /// it: an app line is one of the longer ones half the time, and a sample that carries a
    /// header of its own (the CloudKit family's `log show` and sysdiagnose lines) keeps it,
    /// re-timed, instead of getting a second one.
    private mutating func longRecord(_ index: Int, header: String, time: String, syslogTime: String) -> (Record, [String]) {
        let chosen = messages[index]
        if chosen.isAppLine, extraRandom.below(2) == 0 {
            let line = extraRandom.below(Self.longAppLines.count)
            return (Record(base: header + fill(Self.longAppLines[line]) + "\n", extra: "", records: 1, isAppLine: true),
                    dumpsAfterLongAppLine[line])
        }
        let lines = chosen.text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, Self.leadingTime(first) != nil else {
            return (Record(base: header + chosen.text + "\n", extra: "", records: 1, isAppLine: chosen.isAppLine),
                    dumpsAfterMessage[index])
        }
        var records = 0
        var text = ""
        for line in lines {
            if let length = Self.leadingTime(line) {
                records += 1
                text += (length == 19 ? time : syslogTime) + line.dropFirst(length) + "\n"
            } else {
                text += line + "\n"
            }
        }
        return (Record(base: text, extra: "", records: records, isAppLine: chosen.isAppLine), dumpsAfterMessage[index])
    }

    /// How many bytes of `line` are a time that starts a header of its own: `2025-03-14
    /// 09:27:09` (`log show`, sysdiagnose and NSLog lines; 19) or `Mar 14 09:27:09` (the device
    /// console; 15), nil for none.
    static func leadingTime(_ line: Substring) -> Int? {
        let bytes = Array(line.utf8.prefix(20))
        func matches(_ shape: String, then next: String) -> Bool {
            let shape = Array(shape.utf8)
            guard bytes.count > shape.count, next.utf8.contains(bytes[shape.count]) else { return false }
            for (byte, expected) in zip(bytes, shape) {
                switch expected {
                case UInt8(ascii: "9"): if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { return false }
                case UInt8(ascii: "A"): if !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) { return false }
                case UInt8(ascii: "a"): if !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) { return false }
                case UInt8(ascii: "_"): if byte != UInt8(ascii: " ") && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { return false }
                default: if byte != expected { return false }
                }
            }
            return true
        }
        if matches("9999-99-99 99:99:99", then: ". ") { return 19 }
        if matches("Aaa _9 99:99:99", then: " ") { return 15 }
        return nil
    }

    /// A template with its placeholders replaced: addresses, UUIDs and numbers vary from record
    /// to record, as they do in real logs.
    private mutating func fill(_ template: String) -> String {
        var out = ""
        out.reserveCapacity(template.utf8.count + 64)
        var iterator = template.makeIterator()
        while let character = iterator.next() {
            guard character == "%" else { out.append(character); continue }
            switch iterator.next() {
            case "A":
                let value = 0x1000_0000 + extraRandom.below(0x6FFF_FFFF)
                out += String(value, radix: 16)
            case "U":
                out += uuids[extraRandom.below(uuids.count)]
            case "P":
                out += Self.peers[extraRandom.below(Self.peers.count)]
            case "S":
                out += Self.stores[extraRandom.below(Self.stores.count)]
            case "C":
                out += "4C1F2E3D-5A6B-4C7D-8E9F-0A1B2C3D4E5F"
            case "N":
                out += String(1 + extraRandom.below(999))
            case let other?:
                out.append("%")
                out.append(other)
            case nil:
                out.append("%")
            }
        }
        return out
    }
}

extension String {
    /// The string with zeros in front up to `width` characters.
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
