// Escaping for the formats CI systems interpret. Log text is untrusted: in a GitHub Actions
// annotation it must not end the annotation or start a workflow command of its own, and in
// Markdown it must not become markup, links or HTML.

public enum GitHubEscaping {
    /// The message part of `::error title=…::MESSAGE`: `%`, CR and LF are encoded, so the
    /// text stays on the annotation's one line and cannot start a new `::command::`; other
    /// control characters are shown as `\xNN`.
    public static func message(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": result += "%25"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result += ByteText.terminalSafe(String(scalar))
            }
        }
        return result
    }

    /// A property value (`title=…`, `file=…`): as `message`, and `:` and `,` too, which end
    /// a property.
    public static func property(_ text: String) -> String {
        var result = ""
        for scalar in message(text).unicodeScalars {
            switch scalar {
            case ":": result += "%3A"
            case ",": result += "%2C"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A token for `::stop-commands::TOKEN`, which turns off command processing until the
    /// same token is echoed again: a log line cannot guess it, so it cannot resume commands.
    public static func stopToken(seed: UInt64) -> String {
        var state = seed
        var token = "parselogs-"
        for _ in 0..<4 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            token += String(state >> 32, radix: 16)
        }
        return token
    }
}

public enum MarkdownEscaping {
    /// Text shown literally inside a Markdown line (GitHub flavoured): punctuation that can
    /// start inline markup is backslash-escaped, `<` and `>` become entities (no HTML), control characters are
    /// shown as `\xNN`, and line ends become spaces so a table cell stays one line.
    public static func text(_ text: String) -> String {
        var result = ""
        for scalar in ByteText.terminalSafe(text.replacing("\r\n", with: " ").replacing("\n", with: " ").replacing("\r", with: " ")).unicodeScalars {
            switch scalar {
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            // What can open emphasis, code, links, images, strikethrough or a table cell, and
            // the escape character itself. Text never starts a line here, so block markers
            // (`#`, `-`, `1.`) are inert.
            case "\\", "`", "*", "_", "[", "]", "!", "|", "~":
                result += "\\"
                result.unicodeScalars.append(scalar)
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Text in a code span: backticks can only be fenced by a longer run of backticks.
    public static func code(_ text: String) -> String {
        let safe = ByteText.terminalSafe(text.replacing("\n", with: " ").replacing("\r", with: " "))
        var longest = 0
        var run = 0
        for character in safe {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = safe.hasPrefix("`") || safe.hasSuffix("`") ? " " : ""
        return fence + pad + safe + pad + fence
    }
}
