import Testing
@testable import UbiquityLogKit
import TestSupport

@Suite struct CIEscapingTests {
    @Test func githubMessagesStayOnOneLineAndCannotStartCommands() {
        let hostile = "50% done\r\n::error::pwned\nnext"
        let escaped = GitHubEscaping.message(hostile)
        expectEqual(escaped, "50%25 done%0D%0A::error::pwned%0Anext")
        expect(!escaped.contains("\n") && !escaped.contains("\r"))
        expectEqual(GitHubEscaping.message("esc \u{1B}[31m"), "esc \\x1B[31m")
    }

    @Test func githubPropertiesAlsoEncodeColonAndComma() {
        expectEqual(GitHubEscaping.property("a:b,c%d\n"), "a%3Ab%2Cc%25d%0A")
    }

    /// Returns the values it was given, in turn.
    private struct ScriptedGenerator: RandomNumberGenerator {
        var values: [UInt64]
        mutating func next() -> UInt64 { values.removeFirst() }
    }

    @Test func stopTokensAre128BitsOfTheGenerator() {
        var scripted = ScriptedGenerator(values: [0x0123_4567_89AB_CDEF, 0x1])
        expectEqual(GitHubEscaping.stopToken(using: &scripted), "parselogs-0123456789abcdef0000000000000001")
        let tokens = (0..<1000).map { _ in GitHubEscaping.stopToken() }
        expectEqual(Set(tokens).count, 1000)
        expect(tokens.allSatisfy { $0.count == "parselogs-".count + 32 })
    }

    @Test func logTextIsMadeInertForWorkflowCommands() {
        expectEqual(GitHubEscaping.inertLine("a ##[error]b"), #"a \x23#[error]b"#)
        expectEqual(GitHubEscaping.inertLine("###[x]"), #"#\x23#[x]"#)
        expectEqual(GitHubEscaping.inertLine("::error::x"), #"\x3A:error::x"#)
        expectEqual(GitHubEscaping.inertLine(" \t::error::x"), " \t\\x3A:error::x")
        expectEqual(GitHubEscaping.inertLine("09:14::05 a::b"), "09:14::05 a::b", "not at a line's start")
        expectEqual(GitHubEscaping.inertLine("plain"), "plain")
        for text in ["a ##[b", "::x", "  ::y", "a::b", "plain", "#[x", ":x", "##[", "x##"] {
            let bytes = Array(text.utf8)
            let quick = bytes.withUnsafeBufferPointer { GitHubEscaping.mayCommand($0) }
            expect(quick || GitHubEscaping.inertLine(text) == text, "the quick test misses nothing: \(text)")
        }
    }

    @Test func markdownBreaksAutolinksAndCapsCells() {
        expectEqual(MarkdownEscaping.text("https://a.example www.b.example c@d.example"), #"https\://a.example www\.b.example c\@d.example"#)
        expectEqual(MarkdownEscaping.code("a|b"), #"`a\|b`"#)
        let long = MarkdownEscaping.text(String(repeating: "x", count: 1_500))
        expectEqual(long, String(repeating: "x", count: 1_000) + " … (500 more characters cut)")
    }

    @Test func markdownSummaryIsCutToWhatAStepSummaryHolds() {
        let text = (0..<100).map { "| row \($0) | value |" }.joined(separator: "\n") + "\n"
        expectEqual(MarkdownSummary.capped(text, maxBytes: 10_000), text)
        let cut = MarkdownSummary.capped(text, maxBytes: 1_000)
        expect(cut.utf8.count <= 1_000)
        expect(cut.hasSuffix("\n… summary cut here: it holds \(text.utf8.count) bytes, more than the 1000 a step summary may hold.\n"))
        expect(cut.hasPrefix("| row 0 | value |\n"))
        expect(cut.split(separator: "\n").dropLast().allSatisfy { $0.hasSuffix("| value |") }, "cut at a line's end")
    }

    @Test func markdownTextIsLiteral() {
        expectEqual(MarkdownEscaping.text("**bold** <script>x</script> [a](b) ![i](j) | c\nd ~~s~~ `c` a_b"), #"\*\*bold\*\* &lt;script&gt;x&lt;/script&gt; \[a\](b) \!\[i\](j) \| c d \~\~s\~\~ \`c\` a\_b"#)
        expectEqual(MarkdownEscaping.text("\u{1B}]0;t\u{07}"), #"\\x1B\]0;t\\x07"#)
        expectEqual(MarkdownEscaping.text("NSCocoaErrorDomain 134302: (cause: X)."), "NSCocoaErrorDomain 134302: (cause: X).")
    }

    @Test func markdownCodeSpansFenceBackticks() {
        expectEqual(MarkdownEscaping.code("a`b"), "``a`b``")
        expectEqual(MarkdownEscaping.code("`x`"), "`` `x` ``")
        expectEqual(MarkdownEscaping.code("plain"), "`plain`")
    }

    /// The quick tests in front of the escapers say "changes" exactly where the escaper
    /// changes the text: `containsCommandMarks` for `inertLine` (a `::` counts only after
    /// nothing but blanks since a line's start) and `hasControl` for `terminalSafe`, on texts
    /// made of the bytes and characters that matter, every arrangement up to four of them.
    @Test func quickTestsSayWhereTheEscapersChangeText() {
        let pieces = ["#", "[", ":", " ", "\t", "\n", "\r", "a", "é", "\u{85}", "\u{9F}", "\u{A0}", "\u{7F}", "\u{1B}", "\u{100}"]
        var texts = [""]
        for _ in 0..<4 { texts = texts.flatMap { text in pieces.map { text + $0 } } }
        for text in texts {
            expectEqual(GitHubEscaping.containsCommandMarks(text, colons: true), GitHubEscaping.inertLine(text) != text, "\(Array(text.unicodeScalars))")
            expectEqual(ByteText.hasControl(text), text.unicodeScalars.contains(where: ByteText.isControl), "\(Array(text.unicodeScalars))")
        }
        expectEqual(GitHubEscaping.inertLine("a::b"), "a::b")
        expectEqual(GitHubEscaping.inertLine(" \t::b\nc"), " \t\\x3A:b\nc")
        expectEqual(ByteText.terminalSafe("a\u{1B}[0m"), "a\\x1B[0m")
    }
}
