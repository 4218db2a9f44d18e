// Facts cut from ASCII text on its bytes (`Extract.fileName`, `Extract.knowledgeVector`)
// say what the same cut on Characters says: the byte paths are
// only taken where each byte is a Character, and any other text goes the Character way.
import PCRE2
import Testing
@testable import UbiquityLogKit
import TestSupport

@Suite struct FactBytesTests {
    static let locations = [
        "/var/mobile/Library/Mobile Documents/ABC~com~x/CoreDataLogs/DAC8E3F1-2B4A.1.cdt",
        "  \t/var/tmp/store.sqlite/ \t", "store.sqlite", "///", "", " \t ", "a/", "abc /", "/a b/c d ",
        "<PFUbiquityLocation: 0x15e53120>: /var/mobile/x.1.cdt", "file:///private/var/Recipes.sqlite",
        "x/\r\n", "dir/Ünïcode.sqlite", "dir/e\u{301}/", "/\u{0600}/name",
    ]

    @Test func aFileNameIsTheSameReadOnBytes() {
        for location in Self.locations {
            expectEqual(Extract.fileName(location), Extract.fileNameByCharacters(location), "\(location.debugDescription)")
        }
        expectEqual(Extract.fileName("  /var/tmp/store.sqlite// "), "store.sqlite")
        expectEqual(Extract.fileName("abc /"), "abc ", "trailing slashes go, not the blank before them")
        expect(Extract.fileName(" \t ") == nil)
        expect(Extract.fileName(nil) == nil)
    }

    @Test func aKnowledgeVectorIsTheSameReadOnBytes() {
        let vectors = [
            "<PFUbiquityKnowledgeVector: 0x15e53010>:{mobile~6F2C:12, mobile~A3D1:7}",
            " \t<PFUbiquityKnowledgeVector: 0x1>: {a:1} \t", "{a:1, b:2}", "<open", "<x>", "<x>:", "<x>: \t",
            "", "  ", "<x>:\r\n{a:1}", "<Ü>:{ä:1}", "<x>\t: {a:1}",
        ]
        for vector in vectors {
            expectEqual(Extract.knowledgeVector(vector), Extract.knowledgeVectorByCharacters(vector), "\(vector.debugDescription)")
        }
        expectEqual(Extract.knowledgeVector("<PFUbiquityKnowledgeVector: 0x1e5c>:{a:1, b:2}"), "{a:1, b:2}")
        expectEqual(Extract.knowledgeVector("<x>:\t{a:1} "), "\t{a:1}", "only blanks are trimmed after the description")
    }
}

@Suite struct UnderlyingEntryTests {
    /// Where PCRE2 finds `NSUnderlyingError[ ]?=[ ]?` from `start`, as the error parser
    /// looked for it before it searched bytes.
    static func byPattern(_ text: String, from start: Int) throws -> Range<Int>? {
        let matcher = Matcher(try Regex(#"NSUnderlyingError[ ]?=[ ]?"#))
        return try Array(text.utf8).withUnsafeBytes { bytes in
            try matcher.matches(bytes, from: start) ? matcher.range(ofGroup: 0) : nil
        }
    }

    @Test func theEntryIsWherePCRE2FindsIt() throws {
        let texts = [
            "UserInfo={NSUnderlyingError=0x1 {Error Domain=NSPOSIXErrorDomain Code=2}}",
            "UserInfo={NSUnderlyingError = 0x1 {…}}", "NSUnderlyingError =x", "NSUnderlyingError  = two blanks, then NSUnderlyingError=",
            "NSUnderlyingErrorKey=1; NSUnderlyingError= 0x2", "NSUnderlyingError", "NSUnderlyingError ", "xNSUnderlyingError=",
            "no entry at all", "", "NSUnderlyingError=NSUnderlyingError=",
        ]
        for text in texts {
            for start in [0, 1, 5, text.utf8.count] where start <= text.utf8.count {
                let found = Array(text.utf8).withUnsafeBytes { Extract.underlyingEntry(in: $0, from: start) }
                expectEqual(found, (try Self.byPattern(text, from: start)), "\(text.debugDescription) from \(start)")
            }
        }
    }
}
