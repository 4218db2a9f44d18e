// Stores that system frameworks open inside an app's process: the keyboard's user dictionary,
// Passbook's ubiquitous store, Photos' library, Suggestions and others log their ubiquity and
// Core Data errors under the app's process name, but they live outside the app's container
// and are not the app's to fix. Their warnings and errors become `system-store` events, told
// apart by location, that name the store and what the record is (its kind and severity); each store is
// judged apart with a verdict of its own (`SystemStore`), as a system daemon's process is.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CByteScan

extension EventKind {
    public static let systemStore = EventKind("system-store", .store, .info, .notable,
        "A warning or error about a Core Data store that a system framework opened inside the app's process (the keyboard's user dictionary, Photos' library, an Apple app's ubiquitous store): the store lies outside the app's container, so it is not the app's problem and does not count toward its verdict. `kind` and `severity` say what it is; the store is judged apart with a verdict of its own (docs/verdicts.md).")
}

enum SystemStores {
    /// The store of a system framework a record is about: a path it prints that lies in a
    /// system location, when it prints no path of the app's own. Nil for most records.
    static func location(in text: String) -> String? {
        // The app's container named anywhere (even where a path cannot be cut out whole)
        // makes the record the app's.
        if text.contains("/Applications/") || text.contains("/Containers/") { return nil }
        var documents = Substring(text)
        while let found = documents.firstRange(of: "Mobile Documents/") {
            documents = documents[found.upperBound...]
            if !documents.hasPrefix("com~apple~") { return nil }
        }
        return systemStore(among: paths(in: text))
    }

    /// The first of `paths` in a system location, unless one of them is the app's.
    static func systemStore(among paths: [String]) -> String? {
        var found: String?
        for path in paths {
            switch place(of: path) {
            case .app: return nil
            case .system: if found == nil { found = path }
            case .unknown: break
            }
        }
        return found
    }

    enum Place { case app, system, unknown }

    /// Where a path lies: in an app's container (its data, an app group, an iCloud container
    /// of a developer's team), in a system location (the mobile user's Library, Apple's own
    /// iCloud containers, the system), or neither that can be told.
    static func place(of path: String) -> Place {
        if path.containsText("/Applications/") || path.containsText("/Containers/") { return .app }
        if path.containsText("/Mobile Documents/"), let documents = path.firstRange(of: "/Mobile Documents/") {
            return path[documents.upperBound...].hasPrefix("com~apple~") ? .system : .app
        }
        if systemRoots.contains(where: { path.hasPrefixText($0) }) || path.containsText(".photoslibrary/") { return .system }
        // A Mac user's Library: Apple's own folders in it (an app's own folder there is the app's).
        if path.hasPrefix("/Users/"), let library = path.firstRange(of: "/Library/"),
           appleUserFolders.contains(where: { path[library.upperBound...].hasPrefix($0) }) {
            return .system
        }
        return .unknown
    }

    /// Where the system keeps its own stores: the mobile user's Library and media, the
    /// system's folders and databases.
    static let systemRoots = ["/var/mobile/Library/", "/private/var/mobile/Library/", "/var/mobile/Media/", "/private/var/mobile/Media/",
                              "/System/Library/", "/var/root/Library/", "/var/db/", "/private/var/db/", "/Library/Application Support/com.apple."]
    /// Apple's folders in a Mac user's `~/Library/`.
    static let appleUserFolders = ["Application Support/com.apple.", "Application Support/CloudDocs/", "Caches/com.apple.",
                                   "Suggestions/", "Keyboard/", "Photos/", "Calendars/", "Mail/", "Messages/"]

    /// The absolute paths a text prints, as paths or `file://` URLs (without `localhost`).
    static func paths(in text: String) -> [String] {
        var paths: [String] = []
        let stops: Set<Character> = [" ", "\t", "\n", "\"", "'", ",", ";", "{", "}", "(", ")", "<", ">", "="]
        var rest = Substring(text)
        while let slash = rest.firstIndex(of: "/") {
            // A path starts at a stop or the text's start; a `file://` URL's path after its `//`.
            let before = slash > rest.startIndex ? rest[rest.index(before: slash)] : " "
            var start = slash
            if before == ":", rest[..<slash].hasSuffix("file:") {
                start = rest.index(slash, offsetBy: 2, limitedBy: rest.endIndex) ?? rest.endIndex
                if rest[start...].hasPrefix("localhost/") { start = rest.index(start, offsetBy: 9) }
            } else if !stops.contains(before) && before != ":" {
                rest = rest[rest.index(after: slash)...]
                continue
            }
            var end = rest[start...].firstIndex(where: { stops.contains($0) }) ?? rest.endIndex
            // A blank inside a path (`Mobile Documents`): the path goes on when the word after
            // the blank holds a slash.
            while end < rest.endIndex, rest[end] == " " {
                let next = rest.index(after: end)
                let wordEnd = rest[next...].firstIndex(where: { stops.contains($0) }) ?? rest.endIndex
                guard rest[next..<wordEnd].contains("/") else { break }
                end = wordEnd
            }
            var path = rest[start..<end]
            // A sentence's full stop is not the path's.
            while path.last == "." { path = path.dropLast() }
            if path.hasPrefix("/"), path.count > 1 { paths.append(String(path).removingPercentEncodedSpaces) }
            if end == rest.endIndex { break }
            rest = rest[end...]
        }
        return paths
    }
}

extension SystemStores {
    /// Whether `text` may name a system store, by `location(in:)`'s own tests done on its
    /// bytes, so that most warnings are let go without reading their text as a String: it
    /// names no app container (`/Applications/`, `/Containers/`, an iCloud container that is
    /// not Apple's), and holds `/Library/` (most system roots have it), `/var/db/`, `/Media/`,
    /// `.photoslibrary/` or `com~apple~` (Apple's iCloud containers).
    static func mayNameASystemStore(_ text: RecordText) -> Bool {
        text.withUnsafeBytes { bytes in
            func offset(_ mark: StaticString, from start: Int = 0) -> Int? {
                guard start <= bytes.count else { return nil }
                let rest = UnsafeRawBufferPointer(rebasing: bytes[start...])
                return ByteSearch.firstOffset(of: UnsafeRawBufferPointer(start: mark.utf8Start, count: mark.utf8CodeUnitCount), in: rest)
                    .map { start + $0 }
            }
            if offset("/Applications/") != nil || offset("/Containers/") != nil { return false }
            let documents: StaticString = "Mobile Documents/", apple: StaticString = "com~apple~"
            var from = 0
            while let found = offset(documents, from: from) {
                from = found + documents.utf8CodeUnitCount
                if offset(apple, from: from) != from { return false }
            }
            return offset("/Library/") != nil || offset(apple) != nil || offset("/var/db/") != nil || offset("/Media/") != nil
                || offset(".photoslibrary/") != nil
        }
    }

    /// `event` of a record as a `system-store` event when the record is a warning or error
    /// about a system framework's store, in a process that is not a system daemon (whose
    /// records are judged apart already); nil otherwise.
    static func recast(_ record: Record, _ classification: Classification) -> Event? {
        let kind = classification.event.kind
        // The bytes first: most warnings name no system store, and are let go without a String.
        guard kind.severity >= .warning, kind != .unhandled, kind != .systemStore, mayNameASystemStore(record.text),
              !SystemProcesses.isDaemon(record.string(.process)) else { return nil }
        guard let store = record.text.withUnsafeBytes({ locationAfterBytesCheck(in: $0) }) else { return nil }
        let headline = Headline.of(ClassifiedRecord(record: record, classification: classification))
        let process = record.string(.process).map { " in \($0)'s process" } ?? ""
        var fields = FieldList()
        fields.add("kind", kind.id)
        fields.add("severity", kind.severity.rawValue)
        fields.add("store", store)
        fields.add(classification.event.error)
        fields.add("causeText", "Not the app's store: a system framework's store\(process), outside the app's container (\(store)): \(headline)")
        return .message(.systemStore, fields.items)
    }

    /// What a `system-store` event's message says of the record itself: its text after the
    /// store it names (see `recast`).
    static func ownMessage(_ message: String, store: String) -> String {
        guard let named = message.firstRange(of: "(\(store)): ") else { return message }
        return String(message[named.upperBound...])
    }

    /// Whether an entry of `BenignFindings` excuses records of the kind `id` whatever follows.
    static func isAlwaysBenign(_ id: String) -> Bool {
        BenignFindings.all.contains { $0.kind.id == id && $0.condition == .always }
    }
}

extension SystemStores {
    /// `location(in:)` of a text `mayNameASystemStore` let through (which found no app
    /// container named in it, the first of `location(in:)`'s tests). Where every byte the path
    /// search compares is a Character of its own, the paths are found on the bytes, with a
    /// String made of each path alone: in valid UTF-8 with no carriage return (`\r\n` is one
    /// Character), every scalar one Character, and no U+037E (a Character equal to `;`). Any
    /// other text is read as a String.
    static func locationAfterBytesCheck(in bytes: UnsafeRawBufferPointer) -> String? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        if memchr(base, 0x0D, bytes.count) != nil { return location(in: ByteText.string(bytes)) }
        if cbytescan_non_ascii(base, bytes.count) != bytes.count {
            let text = ByteText.string(bytes)
            let byteWise = text.utf8.count == bytes.count && !text.unicodeScalars.contains("\u{037E}")
                && text.count == text.unicodeScalars.count
            if !byteWise { return location(in: text) }
        }
        return systemStore(among: asciiPaths(in: bytes))
    }

    /// Whether `byte` ends a path (`paths(in:)`'s stops).
    private static func isStop(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "{"),
             UInt8(ascii: "}"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "="): true
        default: false
        }
    }

    /// `paths(in:)` of a text whose bytes the search compares are Characters of their own (see
    /// `locationAfterBytesCheck`), read on its bytes: the same steps.
    static func asciiPaths(in bytes: UnsafeRawBufferPointer) -> [String] {
        var paths: [String] = []
        let count = bytes.count
        func stop(from start: Int) -> Int {
            var index = start
            while index < count, !isStop(bytes[index]) { index += 1 }
            return index
        }
        func has(_ text: StaticString, at offset: Int) -> Bool {
            let length = text.utf8CodeUnitCount
            return offset >= 0 && offset + length <= count && memcmp(bytes.baseAddress! + offset, text.utf8Start, length) == 0
        }
        var rest = 0
        while let slash = ByteSearch.firstOffset(of: UInt8(ascii: "/"), in: bytes, from: rest) {
            let before = slash > rest ? bytes[slash - 1] : 0x20
            var start = slash
            if before == UInt8(ascii: ":"), slash - 5 >= rest, has("file:", at: slash - 5) {
                start = min(slash + 2, count)
                if has("localhost/", at: start) { start += 9 }
            } else if !isStop(before) && before != UInt8(ascii: ":") {
                rest = slash + 1
                continue
            }
            var end = stop(from: start)
            while end < count, bytes[end] == 0x20 {
                let wordEnd = stop(from: end + 1)
                guard memchr(bytes.baseAddress! + end + 1, Int32(UInt8(ascii: "/")), wordEnd - end - 1) != nil else { break }
                end = wordEnd
            }
            var pathEnd = end
            while pathEnd > start, bytes[pathEnd - 1] == UInt8(ascii: ".") { pathEnd -= 1 }
            if pathEnd - start > 1, bytes[start] == UInt8(ascii: "/") {
                paths.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<pathEnd]), as: UTF8.self).removingPercentEncodedSpaces)
            }
            if end == count { break }
            rest = end
        }
        return paths
    }
}
