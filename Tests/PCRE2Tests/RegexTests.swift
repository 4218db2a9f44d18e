import Testing
@testable import PCRE2

@Suite struct RegexTests {
    @Test func namedGroupsAndRanges() throws {
        let regex = try Regex(#"Code=(?<code>\d+)"#)
        #expect(regex.captureCount == 1)
        #expect(regex.groupNumbers["code"] == [1])
        let matcher = Matcher(regex)
        let subject = "Error Domain=NSCocoaErrorDomain Code=134302 \"x\""
        #expect(try matcher.matches(subject))
        let range = try #require(matcher.range(ofGroup: "code"))
        #expect(Array(subject.utf8)[range] == Array("134302".utf8)[...])
        #expect(matcher.range(ofGroup: "missing") == nil)
    }

    @Test func noMatchAndOptionalGroup() throws {
        let matcher = Matcher(try Regex(#"a(?<b>b)?c"#))
        #expect(try matcher.matches("ac"))
        #expect(matcher.range(ofGroup: "b") == nil)
        #expect(try !matcher.matches("xyz"))
        #expect(matcher.range(ofGroup: 0) == nil)
    }

    @Test func marksIdentifyTheAlternativeThatMatched() throws {
        let matcher = Matcher(try Regex(#"(?:(*MARK:0)alpha|(*MARK:17)beta|(*MARK:x)gamma)"#))
        #expect(try matcher.matches("-- beta --"))
        #expect(matcher.numericMark == 17)
        #expect(try matcher.matches("alpha"))
        #expect(matcher.numericMark == 0)
        #expect(try matcher.matches("gamma"))
        #expect(matcher.numericMark == nil)
        #expect(matcher.mark == "x")
    }

    @Test func compileErrorsCarryMessageAndOffset() {
        #expect {
            _ = try Regex("abc(def")
        } throws: { error in
            guard let error = error as? PCRE2Error else { return false }
            return error.offset == 7 && error.message.contains("missing closing parenthesis")
        }
    }

    @Test func duplicateNamesResolveToTheGroupThatTookPart() throws {
        let matcher = Matcher(try Regex(#"(?:a(?<x>1)|b(?<x>2))"#, options: .duplicateNames))
        #expect(try matcher.matches("b2"))
        #expect(matcher.range(ofGroup: "x") == 1..<2)
        #expect(matcher.regex.groupNumbers["x"] == [1, 2])
    }

    @Test func anchoredAndStartOffset() throws {
        let matcher = Matcher(try Regex("b"))
        #expect(try !matcher.matches("ab", anchored: true))
        #expect(try matcher.matches("ab", from: 1, anchored: true))
    }

    @Test func catastrophicBacktrackingHitsTheLimitInsteadOfStalling() throws {
        let matcher = Matcher(try Regex(#"^(a+)+$"#), limits: MatchLimits(matchLimit: 10_000))
        let subject = String(repeating: "a", count: 40) + "!"
        #expect {
            _ = try matcher.matches(subject)
        } throws: { error in
            (error as? PCRE2Error)?.isResourceLimit == true
        }
    }

    @Test func bytesThatAreNotUTF8AreMatchedAsBytes() throws {
        let matcher = Matcher(try Regex(#"x(?<raw>[\x80-\xff]+)y"#))
        let bytes: [UInt8] = [0x78, 0xff, 0xfe, 0x79]
        let matched = try bytes.withUnsafeBytes { try matcher.matches($0) }
        #expect(matched)
        #expect(matcher.range(ofGroup: "raw") == 1..<3)
    }

    /// Patterns that switch on UTF mode themselves must not crash on bytes that are not UTF-8
    /// (the JIT assumes valid UTF-8 unless told otherwise); invalid sequences simply do not match.
    @Test(arguments: [#"(*UTF)\p{L}"#, #"(*UTF)(*UCP)\w"#, #"(*UTF)\X"#, #"(*UTF)\p{Han}"#, #"(*UTF)."#])
    func utfModePatternsSurviveInvalidUTF8(pattern: String) throws {
        let matcher = Matcher(try Regex(pattern, options: .multiline))
        let subjects: [[UInt8]] = [
            [0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0x0A], [0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0x41, 0xF8, 0x88, 0x80, 0x80, 0x80],
        ]
        for subject in subjects {
            _ = try subject.withUnsafeBytes { try matcher.matches($0) }
        }
        let mixed: [UInt8] = [0xFD, 0xBF, 0x20] + Array("é漢".utf8)
        #expect(try mixed.withUnsafeBytes { try matcher.matches($0) }, "valid text after invalid bytes still matches")
    }
}
