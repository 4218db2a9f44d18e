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

    @Test func stopTokensDifferBySeed() {
        #expect(GitHubEscaping.stopToken(seed: 1) != GitHubEscaping.stopToken(seed: 2))
        #expect(GitHubEscaping.stopToken(seed: 7) == GitHubEscaping.stopToken(seed: 7))
        #expect(GitHubEscaping.stopToken(seed: 7).count > 20)
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
