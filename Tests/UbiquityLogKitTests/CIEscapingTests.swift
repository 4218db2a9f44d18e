import Testing
@testable import UbiquityLogKit

@Suite struct CIEscapingTests {
    @Test func githubMessagesStayOnOneLineAndCannotStartCommands() {
        let hostile = "50% done\r\n::error::pwned\nnext"
        let escaped = GitHubEscaping.message(hostile)
        #expect(escaped == "50%25 done%0D%0A::error::pwned%0Anext")
        #expect(!escaped.contains("\n") && !escaped.contains("\r"))
        #expect(GitHubEscaping.message("esc \u{1B}[31m") == "esc \\x1B[31m")
    }

    @Test func githubPropertiesAlsoEncodeColonAndComma() {
        #expect(GitHubEscaping.property("a:b,c%d\n") == "a%3Ab%2Cc%25d%0A")
    }

    /// Returns the values it was given, in turn.
    private struct ScriptedGenerator: RandomNumberGenerator {
        var values: [UInt64]
        mutating func next() -> UInt64 { values.removeFirst() }
    }

    @Test func stopTokensAre128BitsOfTheGenerator() {
        var scripted = ScriptedGenerator(values: [0x0123_4567_89AB_CDEF, 0x1])
        #expect(GitHubEscaping.stopToken(using: &scripted) == "parselogs-0123456789abcdef0000000000000001")
        let tokens = (0..<1000).map { _ in GitHubEscaping.stopToken() }
        #expect(Set(tokens).count == 1000)
        #expect(tokens.allSatisfy { $0.count == "parselogs-".count + 32 })
    }

    @Test func logTextIsMadeInertForWorkflowCommands() {
        #expect(GitHubEscaping.inertLine("a ##[error]b") == #"a \x23#[error]b"#)
        #expect(GitHubEscaping.inertLine("###[x]") == #"#\x23#[x]"#)
        #expect(GitHubEscaping.inertLine("::error::x") == #"\x3A:error::x"#)
        #expect(GitHubEscaping.inertLine(" \t::error::x") == " \t\\x3A:error::x")
        #expect(GitHubEscaping.inertLine("09:14::05 a::b") == "09:14::05 a::b", "not at a line's start")
        #expect(GitHubEscaping.inertLine("plain") == "plain")
        for text in ["a ##[b", "::x", "  ::y", "a::b", "plain", "#[x", ":x", "##[", "x##"] {
            let bytes = Array(text.utf8)
            let quick = bytes.withUnsafeBufferPointer { GitHubEscaping.mayCommand($0) }
            #expect(quick || GitHubEscaping.inertLine(text) == text, "the quick test misses nothing: \(text)")
        }
    }

    @Test func markdownBreaksAutolinksAndCapsCells() {
        #expect(MarkdownEscaping.text("https://a.example www.b.example c@d.example") == #"https\://a.example www\.b.example c\@d.example"#)
        #expect(MarkdownEscaping.code("a|b") == #"`a\|b`"#)
        let long = MarkdownEscaping.text(String(repeating: "x", count: 1_500))
        #expect(long == String(repeating: "x", count: 1_000) + " … (500 more characters cut)")
    }

    @Test func markdownSummaryIsCutToWhatAStepSummaryHolds() {
        let text = (0..<100).map { "| row \($0) | value |" }.joined(separator: "\n") + "\n"
        #expect(MarkdownSummary.capped(text, maxBytes: 10_000) == text)
        let cut = MarkdownSummary.capped(text, maxBytes: 1_000)
        #expect(cut.utf8.count <= 1_000)
        #expect(cut.hasSuffix("\n… summary cut here: it holds \(text.utf8.count) bytes, more than the 1000 a step summary may hold.\n"))
        #expect(cut.hasPrefix("| row 0 | value |\n"))
        #expect(cut.split(separator: "\n").dropLast().allSatisfy { $0.hasSuffix("| value |") }, "cut at a line's end")
    }

    @Test func markdownTextIsLiteral() {
        #expect(MarkdownEscaping.text("**bold** <script>x</script> [a](b) ![i](j) | c\nd ~~s~~ `c` a_b") ==
                #"\*\*bold\*\* &lt;script&gt;x&lt;/script&gt; \[a\](b) \!\[i\](j) \| c d \~\~s\~\~ \`c\` a\_b"#)
        #expect(MarkdownEscaping.text("\u{1B}]0;t\u{07}") == #"\\x1B\]0;t\\x07"#)
        #expect(MarkdownEscaping.text("NSCocoaErrorDomain 134302: (cause: X).") == "NSCocoaErrorDomain 134302: (cause: X).")
    }

    @Test func markdownCodeSpansFenceBackticks() {
        #expect(MarkdownEscaping.code("a`b") == "``a`b``")
        #expect(MarkdownEscaping.code("`x`") == "`` `x` ``")
        #expect(MarkdownEscaping.code("plain") == "`plain`")
    }
}
