// The error codes the catalogue's events carry, for `parselogs explain CODE` and for the hint
// under an error in the timeline. Each family declares the codes of its records
// (`Family.errorCodes`), the advice by reason it adds to a catch-all code of another family's
// table (`Family.reasonHints`) and what to say of a code it does not list
// (`Family.errorCodeFallback`); the texts are the project's own.

/// A known error code of one domain.
public struct ErrorCode: Sendable {
    public let domain: String
    public let code: Int
    public let name: String
    public let meaning: String
    public let action: String
    /// For a catch-all code, which says nothing alone of what failed: the advice for each
    /// reason Core Data puts inside it (a phrase of the reason, lowercased, and the advice). A
    /// reason none names gets `action`, which makes no guess.
    public let reasonHints: [(phrase: String, action: String)]

    public init(_ domain: String, _ code: Int, _ name: String, _ meaning: String, _ action: String,
         reasonHints: [(phrase: String, action: String)] = []) {
        self.domain = domain
        self.code = code
        self.name = name
        self.meaning = meaning
        self.action = action
        self.reasonHints = reasonHints
    }

    /// The advice for this code carrying `reason`: the first reason hint whose phrase the
    /// reason holds, else `action`.
    public func action(forReason reason: String?) -> String {
        guard !reasonHints.isEmpty, let reason = reason?.lowercased() else { return action }
        return reasonHints.first { ErrorCode.holds(reason, $0.phrase) }?.action ?? action
    }

    /// Whether `text` holds `phrase`, as `contains` tells: by their bytes where both are ASCII
    /// without a carriage return (each byte a Character of its own) and the phrase is not
    /// empty. `String.contains` makes a searcher at each call, tens of thousands of
    /// instructions on a long reason, and the timeline asks for the hint under every error.
    static func holds(_ text: String, _ phrase: String) -> Bool {
        var text = text, phrase = phrase
        let byBytes = text.withUTF8 { haystack in
            phrase.withUTF8 { needle -> Bool? in
                guard !needle.isEmpty, isPlain(haystack), isPlain(needle) else { return nil }
                return ByteSearch.firstOffset(of: UnsafeRawBufferPointer(needle), in: UnsafeRawBufferPointer(haystack)) != nil
            }
        }
        return byBytes ?? contains(text, phrase)
    }

    /// `String.contains`, Character by Character: what `holds` tells where bytes cannot.
    static func contains(_ text: String, _ phrase: String) -> Bool { text.contains(phrase) }

    /// ASCII without a carriage return (`\r\n` is one Character).
    private static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.contains { $0 >= 0x80 || $0 == 0x0D }
    }

    static let cocoa = "NSCocoaErrorDomain"

    /// How `parselogs explain` names it: the code alone for Cocoa's (Core Data's) codes,
    /// `DOMAIN:CODE` for the others (their small numbers are shared between domains).
    public var topic: String { domain == ErrorCode.cocoa ? String(code) : "\(domain):\(code)" }

    /// Every code `explain` knows: each family's, in the catalogue's order, with the reason
    /// hints every family adds to it.
    public static let all: [ErrorCode] = Catalog.families.flatMap(\.errorCodes).map { $0.adding(hintsFrom: Catalog.families) }

    /// This code with the reason hints of `families` for it appended, in their order.
    func adding(hintsFrom families: [Family]) -> ErrorCode {
        let added = families.flatMap(\.reasonHints).filter { $0.domain == domain && $0.code == code }
        guard !added.isEmpty else { return self }
        return ErrorCode(domain, code, name, meaning, action, reasonHints: reasonHints + added.map { ($0.phrase, $0.action) })
    }

    /// Every known entry with this code, Cocoa's first.
    public static func entries(for code: Int) -> [ErrorCode] { all.filter { $0.code == code } }

    /// The entry of one domain and code: the first in `all`, found among those of its code, not
    /// by a search through `all` that copies each entry: the timeline's hint under an error
    /// looks up each code of the error and those under it.
    public static func named(domain: String, code: Int) -> ErrorCode? {
        guard let indices = indicesByCode[code] else { return nil }
        for index in indices where all[index].domain == domain { return all[index] }
        return nil
    }

    /// Places in `all` by code, in order.
    private static let indicesByCode: [Int: [Int]] = Dictionary(grouping: all.indices, by: { all[$0].code })

    /// What to say about an error no entry knows: the first family's that says anything.
    static func fallback(domain: String, code: Int) -> ErrorCode? {
        for family in Catalog.families {
            if let said = family.errorCodeFallback?(domain, code) { return said }
        }
        return nil
    }
}

/// Advice one family adds to a catch-all code of another family's table, for a reason of its
/// own that Core Data puts inside it.
public struct ReasonHint: Sendable {
    public let domain: String
    public let code: Int
    /// A phrase of the reason, lowercased.
    public let phrase: String
    public let action: String

    public init(_ domain: String, _ code: Int, _ phrase: String, _ action: String) {
        self.domain = domain
        self.code = code
        self.phrase = phrase
        self.action = action
    }
}
