// Stores that system frameworks open inside an app's process: the keyboard's user dictionary,
// Passbook's ubiquitous store, Photos' library, Suggestions and others log their ubiquity and
// Core Data errors under the app's process name, but they live outside the app's container
// and are not the app's to fix. Their warnings and errors become `system-store` events, told
// apart by location, that name the store and what the record is (its kind and severity); each store is
// judged apart with a verdict of its own (`SystemStore`), as a system daemon's process is.

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
        var found: String?
        for path in paths(in: text) {
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
        if path.contains("/Applications/") || path.contains("/Containers/") { return .app }
        if let documents = path.firstRange(of: "/Mobile Documents/") {
            return path[documents.upperBound...].hasPrefix("com~apple~") ? .system : .app
        }
        if systemRoots.contains(where: { path.hasPrefix($0) }) || path.contains(".photoslibrary/") { return .system }
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
            if path.hasPrefix("/"), path.count > 1 { paths.append(String(path).removingPercentSpaces) }
            if end == rest.endIndex { break }
            rest = rest[end...]
        }
        return paths
    }
}

extension String {
    /// `%20` as the space it stands for (iOS 5 prints URLs with escaped spaces).
    fileprivate var removingPercentSpaces: String {
        guard contains("%20") else { return self }
        return split(separator: "%20", omittingEmptySubsequences: false).joined(separator: " ")
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
        guard let store = location(in: ByteText.string(record.text[...])) else { return nil }
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
