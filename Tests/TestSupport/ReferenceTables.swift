// The reference tables of what Core Data's ubiquity code and UbiquityStoreManager can log
// (`Tests/Reference/*.tsv`, in the repository so that the tests need nothing beside it), and
// records made from each of their rows: every format specifier filled with a realistic value,
// in several header styles.
import Foundation

/// One message format of the reference tables.
public struct ReferenceFormat: Sendable, CustomStringConvertible {
    public enum Table: String, Sendable { case apple, appleOther = "apple-other", storeManager = "usm" }

    public var table: Table
    /// The logging method (Apple) or the call (`log`, `logError`, `NSLog`, `reason`: USM).
    public var function: String
    public var line: Int?
    /// Apple's level: 0 error, 1 warning, 2 info, 3 debug.
    public var level: Int?
    /// printf-style, with `\n` and `\t` already turned into the characters.
    public var format: String
    /// For `apple-other`: which kind of string the row is (`CDLog1`, `ARGCONST`, …).
    public var otherKind: String?
    /// `function(line)`, with `#2`… for a repeated pair: the key of the expected-kinds file.
    public var key: String

    public var description: String { "\(table.rawValue) \(key): \(format.prefix(120))" }

    /// Whether the format has words enough to be told apart without the logging method that
    /// iOS 7 and later print before it (`%@`, `%@\nError: %@` have not).
    public var isRecognisableWithoutMethod: Bool {
        var words = format
        while let range = words.range(of: #"%[-0-9.#]*[lhqz]*[@dusfpcxXgeiS]"#, options: .regularExpression) {
            words.removeSubrange(range)
        }
        return words.filter(\.isLetter).count >= 8
    }

    /// The class that logs, `PFUbiquityBaseline` from `-[PFUbiquityBaseline foo:]_block_invoke`.
    public var loggingClass: String? {
        guard let open = function.firstIndex(of: "[") else { return nil }
        let rest = function[function.index(after: open)...]
        let name = rest.prefix { $0 != " " && $0 != "(" && $0 != "]" }
        return name.isEmpty ? nil : String(name)
    }
}

public enum ReferenceTables {
    /// Where the tables are: `Tests/Reference` in the package. Only there, whatever the
    /// environment, so that every run reads the same tables and a missing one fails a test.
    public static var directory: URL {
        packageRoot.appendingPathComponent("Tests/Reference")
    }

    /// Rows that are messages of their own. Left out, as the issue says: NSError reasons,
    /// object descriptions and exception reasons (they appear inside other messages).
    public static func load() throws -> [ReferenceFormat] {
        var rows: [ReferenceFormat] = []
        var seen: [String: Int] = [:]
        func key(_ base: String) -> String {
            seen[base, default: 0] += 1
            return seen[base]! == 1 ? base : "\(base)#\(seen[base]!)"
        }
        for fields in try tsv("apple-ubiquity-formats.tsv") {
            let line = Int(fields[2])
            rows.append(ReferenceFormat(table: .apple, function: fields[1], line: line, level: Int(fields[0]),
                                        format: unescape(fields[3]), otherKind: nil, key: key("\(fields[1])(\(fields[2]))")))
        }
        for fields in try tsv("apple-ubiquity-other.tsv") {
            let kind = fields[5]
            guard ["ARGCONST", "CDLog1", "CDLog17+fault", "NSLog-%@-wrapper"].contains(kind) else { continue }
            rows.append(ReferenceFormat(table: .appleOther, function: fields[1], line: Int(fields[2]), level: Int(fields[0]),
                                        format: unescape(fields[3]), otherKind: kind, key: key("\(fields[1])(\(fields[2]))\(kind)")))
        }
        for fields in try tsv("usm-log-formats.tsv") {
            rows.append(ReferenceFormat(table: .storeManager, function: fields[0], line: Int(fields[1]), level: nil,
                                        format: unescape(fields[2]), otherKind: nil, key: key("usm(\(fields[1]))")))
        }
        return rows
    }

    private static func tsv(_ name: String) throws -> [[String]] {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\n", with: "\n").replacingOccurrences(of: "\\t", with: "\t")
    }

    /// The expected kind of every row, from `Tests/UbiquityLogKitTests/ReferenceKinds.tsv`.
    public static func expectedKinds() throws -> [String: String] {
        let url = packageRoot.appendingPathComponent("Tests/UbiquityLogKitTests/ReferenceKinds.tsv")
        var kinds: [String: String] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t")
            if fields.count == 2 { kinds[String(fields[0])] = String(fields[1]) }
        }
        return kinds
    }

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}

/// Fills a format's specifiers with values of the kind the words before each one name, as
/// a real log would show them: errors, user-info dictionaries, URLs, knowledge vectors,
/// multi-line object descriptions.
public struct FormatFiller {
    /// Chooses between the variants of a value (iOS 7 or iOS 9 error style, …); variants 2
    /// and 3 fill the plain values with paths and peer ids rather than words and UUIDs.
    public var variant: Int

    /// How many variants `variant` chooses between.
    public static let variants = 4

    public init(variant: Int) { self.variant = variant }

    static let peer = "mobile~6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F11"
    static let otherPeer = "mobile~A3D19B52-7E0C-4F8A-B1D6-5C2E9F04A7B3"
    static let root = "/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs"
    static let logPath = "\(root)/\(otherPeer)/JournalStore/6F0D0A1E-8C55-4F4C-9C3A-1D2E3F4A5B6C/DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.1.cdt"
    static let storeURL = "file:///var/mobile/Applications/4C1F2B3A-5D6E-4F70-8A9B-0C1D2E3F4A5B/Documents/Journal.sqlite"
    static let kv = "<PFUbiquityKnowledgeVector: 0x15e53010>:{\(peer):12, \(otherPeer):7}"

    public func fill(_ format: ReferenceFormat) -> String {
        let text = format.format
        var out = ""
        var index = text.startIndex
        var argument = 0
        while index < text.endIndex {
            let character = text[index]
            guard character == "%" else { out.append(character); index = text.index(after: index); continue }
            var end = text.index(after: index)
            while end < text.endIndex, "-0123456789.#lhqz".contains(text[end]) { end = text.index(after: end) }
            guard end < text.endIndex else { out.append(character); break }
            let conversion = text[end]
            let before = String(out.suffix(48))
            switch conversion {
            case "%": out.append("%")
            case "@": out += object(before: before, first: argument == 0 && out.isEmpty, format: format, next: text[text.index(after: end)...])
            case "d", "i", "u": out += (argument % 2 == 0 ? "1" : "60")
            case "f": out += "416250817.318000"
            case "p": out += "0x15d5b2d0"
            case "s": out += "/Library/Caches/com.apple.xbs/Sources/Persistence/Classes/Persistency/Ubiquity/PFUbiquityBaseline.m"
            case "c": out += "A"
            default: out += "\(argument + 3)"
            }
            if conversion != "%" { argument += 1 }
            index = text.index(after: end)
        }
        return out
    }

    private func object(before: String, first: Bool, format: ReferenceFormat, next: Substring) -> String {
        let lower = before.lowercased()
        if format.table == .storeManager, let value = storeManagerValue(before: before, first: first, format: format, next: next) {
            return value
        }
        if first, format.otherKind == "NSLog-%@-wrapper" {
            return wrapped(format)
        }
        if first {
            let loggingClass = format.loggingClass ?? "PFUbiquitySetupAssistant"
            // `%@:%@`: the local peer and the store name, as the switchboard prints them.
            if next.hasPrefix(":%@") { return Self.peer }
            // The logging object itself. A class that describes itself prints its fields (older
            // OS versions put that first); any other prints its class and address.
            if variant % 2 == 0, Self.describedClasses.contains(loggingClass) { return description(of: loggingClass) }
            return "<\(loggingClass): 0x15d5a2c0>"
        }
        if lower.hasSuffix("userinfo: ") || lower.hasSuffix("user info: ") || lower.hasSuffix("with userinfo ") || lower.hasSuffix("userinfo = ") {
            return variant % 2 == 0
                ? "{\n    NSFilePath = \"\(Self.logPath)\";\n    reason = \"Could not read the transaction log\";\n}"
                : "{\n    NSUnderlyingError = \"Error Domain=NSPOSIXErrorDomain Code=2 \\\"No such file or directory\\\"\";\n}"
        }
        if lower.hasSuffix("(cause:") {
            return ["UbiquityStoreErrorCauseOpenActiveStore", "UbiquityStoreErrorCauseClearStore", "UbiquityStoreErrorCauseCorruptionDetected", "UbiquityStoreErrorCauseNoAccount"][variant % 4]
        }
        if ["error: ", "error ", "error = ", "error, ", "errors: ", "): "].contains(where: lower.hasSuffix) {
            return error()
        }
        if lower.hasSuffix("vector: ") || lower.hasSuffix("kv: ") || lower.hasSuffix("score: ") || lower.hasSuffix("before ") {
            return Self.kv
        }
        if lower.hasSuffix("peer: ") || lower.hasSuffix("peerid: ") || lower.hasSuffix("peer ") || lower.hasSuffix("peer id: ") {
            return Self.otherPeer
        }
        if lower.hasSuffix("token: ") || lower.hasSuffix("token ") || lower.hasSuffix("-> ") && lower.contains("token") {
            return "<_NSUbiquityIdentityToken: 0x15d4a0c0>"
        }
        if lower.hasSuffix("uuid:") || lower.hasSuffix("uuid: ") || lower.contains("storeuuid") {
            return "6F0D0A1E-8C55-4F4C-9C3A-1D2E3F4A5B6C"
        }
        if lower.hasSuffix("url: ") || lower.hasSuffix("url ") || lower.hasSuffix("url (") || lower.hasSuffix("urls: ") || lower.hasSuffix("at: ") {
            return "file://" + Self.logPath
        }
        if lower.hasSuffix("location: ") || lower.hasSuffix("log: ") || lower.hasSuffix("file: ") || lower.hasSuffix("path: ") || lower.hasSuffix("from: ") || lower.hasSuffix("to: ") || lower.hasSuffix("log ") {
            return "<PFUbiquityLocation: 0x15e53120>: " + Self.logPath
        }
        if lower.hasSuffix("store: ") || lower.hasSuffix("store ") || lower.hasSuffix("stores: ") {
            return "<NSSQLCore: 0x15d52f60> (URL: \(Self.storeURL))"
        }
        if lower.hasSuffix("name: ") || lower.hasSuffix("named: ") || lower.hasSuffix("for '") {
            return "JournalStore"
        }
        if lower.hasSuffix("baseline: ") || lower.hasSuffix("baseline ") {
            return "<PFUbiquityBaseline: 0x15eb5e60>\n\tpermanentLocation: <PFUbiquityLocation: 0x15eb6f70>: \(Self.root)/baseline.zip"
        }
        if lower.hasSuffix("changes:\n") || next.hasPrefix("\n\tupdated") || next.hasPrefix("\n\tdeleted") || next.hasPrefix(".") && lower.hasSuffix("deleted: ") {
            return "{(\n    <Entry: 0x15f1a2b0> (entity: Entry; id: 0x15f1c3d0 <x-coredata://8F3A1C2B-6D4E-4F50-9B7A-1C2D3E4F5A6B/Entry/p31> ; data: <fault>)\n)}"
        }
        if lower.hasSuffix("operation: ") {
            return "<_PFUbiquityRecordImportOperation: 0x15e9c0d0>\n\ttransactionLogLocation: <PFUbiquityLocation: 0x15e53120>: \(Self.logPath)"
        }
        if lower.hasSuffix(" -> ") || lower.hasSuffix("cloud ") {
            return variant % 2 == 0 ? "on" : "off"
        }
        if lower.hasSuffix("will ") { return "enable" }
        if lower.hasSuffix("status: ") { return ["downloaded", "pending", "current", "uploading"][variant % 4] }
        if lower.hasSuffix("object: ") || lower.hasSuffix("objectid: ") || lower.hasSuffix("object ") {
            return "0x15f1c3d0 <x-coredata://8F3A1C2B-6D4E-4F50-9B7A-1C2D3E4F5A6B/Entry/p31>"
        }
        // Anything else: a short word, a UUID, a path or a peer id, never an object's description.
        return ["JournalStore", "6F0D0A1E-8C55-4F4C-9C3A-1D2E3F4A5B6C", Self.root + "/" + Self.otherPeer, Self.otherPeer][variant % 4]
    }

    /// Ubiquity classes that describe themselves with their fields (the `description` rows of
    /// the tables); others print `<Class: 0x…>`.
    static let describedClasses: Set<String> = [
        "PFUbiquityExportContext", "PFUbiquityFilePresenter", "PFUbiquityRecordImportConflict",
        "PFUbiquityRecordsImporterSchedulingContext", "PFUbiquitySQLCorePeerRange", "PFUbiquitySafeSaveFile",
        "PFUbiquitySaveSnapshot", "PFUbiquityStoreExportContext", "PFUbiquitySwitchboardEntry",
        "PFUbiquityToManyConflictDiff", "PFUbiquityTransactionEntryLight", "PFUbiquityTransactionHistoryCache",
        "_PFUbiquityRecordImportOperation", "_PFUbiquityRecordsExporter", "_PFUbiquityRecordsImporter",
        "PFUbiquitySetupAssistant",
    ]

    /// UbiquityStoreManager's own arguments: words, UUIDs and states rather than objects.
    private func storeManagerValue(before: String, first: Bool, format: ReferenceFormat, next: Substring) -> String? {
        if format.format == "UbiquityStoreManager: %@" { return "Will load cloud store." }
        // The store UUID a change starts from is nil before the first one.
        if before.hasSuffix("StoreUUID changed "), variant >= 2 { return variant == 2 ? "(null)" : "6f0d0a1e-8c55-4f4c-9c3a-1d2e3f4a5b6c" }
        if next.hasPrefix(" store...") { return variant % 2 == 0 ? "Loading" : "Reloading" }
        if first { return variant % 2 == 0 ? "Stores changed" : "Will clear stores" }
        if before.hasSuffix("store: ") || before.hasSuffix("StoreUUID: ") { return "6F0D0A1E-8C55-4F4C-9C3A-1D2E3F4A5B6C" }
        if before.hasSuffix(" (") { return variant % 2 == 0 ? "tentative" : "definite" }
        if before.hasSuffix("store is ") { return variant % 2 == 0 ? "healthy" : "corrupt" }
        return nil
    }

    /// An NSError as iOS 7 (one line, `UserInfo=0x… {…}`) or iOS 9 (`UserInfo={…}`, nested) prints it.
    private func error() -> String {
        variant % 2 == 0
            ? #"Error Domain=NSCocoaErrorDomain Code=134302 "The operation couldn’t be completed. (Cocoa error 134302.)" UserInfo=0x15e9a2c0 {reason=Could not read the transaction log}"#
            : "Error Domain=NSCocoaErrorDomain Code=134080 \"The operation couldn’t be completed. (Cocoa error 134080.)\" UserInfo={NSUnderlyingError=0x15ea1b20 {Error Domain=NSPOSIXErrorDomain Code=13 \"Permission denied\"}, reason=Unable to create the ubiquity metadata directory}"
    }

    /// How the logging object prints itself: its class and address, then its fields.
    private func description(of loggingClass: String) -> String {
        "<\(loggingClass): 0x15d5a2c0>\n\tlocalPeerID: \(Self.peer)\n\tstoreName: JournalStore\n\tubiquityRootLocation: <PFUbiquityLocation: 0x15e53120>: \(Self.root)"
    }

    /// What an NSLog(@"%@") wrapper row prints: a message its method formatted beforehand.
    private func wrapped(_ format: ReferenceFormat) -> String {
        return "CoreData: Ubiquity: Error reading the log file at location: <PFUbiquityLocation: 0x15e53120>: \(Self.logPath)\nuserInfo: {\n}"
    }
}

/// The header styles the reference records are made in: how Xcode, device consoles, `log
/// show`, loggers and pastes put a record's header, method and marker.
public enum ReferenceStyle: String, CaseIterable, Sendable {
    /// Xcode's console, iOS 7 and later: `2014-… Journal[412:60b] -[Class method](12): CoreData: Ubiquity:  …`.
    case xcode
    /// A device console, another OS version's source line, one space after the marker.
    case deviceConsole
    /// iOS 5 and 6: no method before the marker.
    case ios6
    /// `log show`'s default style, with the subsystem in parentheses.
    case logShow
    /// `log show --style syslog`.
    case logShowSyslog
    /// CocoaLumberjack's time, two blanks, a thread id; the method as `[Class method]:line`.
    case lumberjack
    /// Pasted without a header, the method without its `-`.
    case pasted
    /// A tab between the header and the method.
    case tabbed
    /// An app's logger tag before the marker, no header.
    case loggerTag
}

extension ReferenceFormat {
    /// The header styles this row is made in: every one. A message with no words of its own
    /// (`%@`, `%@\nError: %@`) is told without its method by the object it starts with.
    public var styles: [ReferenceStyle] { ReferenceStyle.allCases }

    /// The record a log would hold for this row, in header style `style` (see `ReferenceStyle`,
    /// by its index) or `referenceStyle`.
    public func record(style: Int, filler: FormatFiller) -> String {
        record(ReferenceStyle.allCases[style % ReferenceStyle.allCases.count], filler: filler)
    }

    public func record(_ style: ReferenceStyle, filler: FormatFiller) -> String {
        var message = filler.fill(self)
        switch table {
        case .storeManager:
            if function == "reason" { message = "\(message).  Notifying application to reset its UI." }
            if message.hasPrefix("UbiquityStoreManager: ") { message.removeFirst("UbiquityStoreManager: ".count) }
            // NSLog rows print the prefix themselves; the rest reach logs through the manager's
            // delegate, which an app may hand to its own logger without the prefix.
            let prefixed = "UbiquityStoreManager: " + message
            switch style {
            case .xcode: return "2014-03-02 09:14:07.318 Journal[412:60b] " + prefixed
            case .deviceConsole: return "Mar  2 09:14:07 Joes-iPad Journal[412] <Warning>: " + prefixed
            case .ios6: return "2014/03/02 09:14:07:318 [USM] " + message
            case .logShow: return "2016-09-30 10:01:02.123456+0200 0x2f1c     Default     0x0                  412    0    Journal: " + prefixed
            case .logShowSyslog: return "2016-09-30 10:01:02.123456+0200  localhost Journal[412]: " + prefixed
            case .lumberjack:
                return function == "NSLog" ? "2014/03/02 09:14:07:318  [60b] " + prefixed
                    : "2014/03/02 09:14:07:318  [60b] [AppDelegate ubiquityStoreManager:log:]:123 " + message
            case .pasted: return prefixed
            case .tabbed:
                return function == "NSLog" ? "2014-03-02 09:14:07.318 Journal[412:60b]\t" + prefixed
                    : "2014-03-02 09:14:07.318 Journal[412:60b] -[AppDelegate ubiquityStoreManager:log:](201): " + message
            case .loggerTag: return "2014-03-02 09:14:07.318 Journal[412:60b] StoreManager: " + message
            }
        case .appleOther where otherKind == "CDLog1":
            message = "CoreData: error: " + message
        case .appleOther where otherKind == "CDLog17+fault":
            break
        default:
            message = "CoreData: Ubiquity:  " + message
        }
        let hasMethod = function.hasPrefix("-[") || function.hasPrefix("+[")
        let method = hasMethod ? "\(function)(\(line ?? 0)): " : ""
        let oneSpace = message.replacingOccurrences(of: "CoreData: Ubiquity:  ", with: "CoreData: Ubiquity: ")
        switch style {
        case .xcode: return "2014-03-02 09:14:07.318 Journal[412:60b] \(method)\(message)"
        case .deviceConsole:
            let other = hasMethod ? "\(function)(\((line ?? 0) + 17)): " : ""
            return "Mar  2 09:14:07 Joes-iPad Journal[412] <Warning>: \(other)" + oneSpace
        case .ios6: return "2012-11-20 18:02:41.770 Journal[233:1303] \(message)"
        case .logShow:
            return "2016-09-30 10:01:02.123456+0200 0x2f1c     Default     0x0                  412    0    Journal: (CoreData) \(method)\(message)"
        case .logShowSyslog: return "2016-09-30 10:01:02.123456+0200  localhost Journal[412]: (CoreData) \(method)\(message)"
        case .lumberjack:
            let lumberjackMethod = hasMethod ? "\(function.dropFirst()):\(line ?? 0) " : ""
            return "2014/03/02 09:14:07:318  [60b] \(lumberjackMethod)\(message)"
        case .pasted: return "\(method.dropFirst())\(oneSpace)"
        case .tabbed: return "2014-03-02 09:14:07.318 Journal[412:60b]\t\(method)\(message)"
        case .loggerTag: return "[Journal] <Debug> \(method)\(message)"
        }
    }
}
