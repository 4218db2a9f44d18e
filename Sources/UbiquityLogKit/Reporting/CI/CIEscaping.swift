#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// same token is echoed again: 128 bits from the system's generator (getrandom(2) on
    /// Linux), so no log line can guess it and resume commands, whatever it knows of the
    /// run (its pid, its time).
    public static func stopToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return stopToken(using: &generator)
    }

    /// `stopToken()` from a given generator (tests).
    public static func stopToken<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        let high = generator.next()
        let low = generator.next()
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return "parselogs-" + hex(high) + hex(low)
    }

    /// A line of log text shown while workflow commands are stopped, made inert for any
    /// reader of commands: the runner's older parser finds `##[command]` anywhere in a line,
    /// and `::command::` at a line's start (after blanks). The first character of each is
    /// written `\xNN`, as the output shows other bytes it cannot show as they are.
    public static func inertLine(_ text: String) -> String {
        guard containsCommandMarks(text, colons: true) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        let scalars = Array(text.unicodeScalars)
        var atLineStart = true  // only blanks since the line began
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if scalar == "#", next == "#", index + 2 < scalars.count, scalars[index + 2] == "[" {
                result += "\\x23"
            } else if scalar == ":", next == ":", atLineStart {
                result += "\\x3A"
            } else {
                result.unicodeScalars.append(scalar)
            }
            if scalar == "\n" || scalar == "\r" {
                atLineStart = true
            } else if scalar != " " && scalar != "\t" {
                atLineStart = false
            }
            index += 1
        }
        return result
    }

    /// `##[` in a line of JSON, made inert the JSON way: the first `#` as `\u0023`, which
    /// any JSON reader reads back as `#`. (A JSON line starts with `{`, never with `::`.)
    public static func inertJSONLine(_ text: String) -> String {
        containsCommandMarks(text, colons: false) ? text.replacing("##[", with: "\\u0023#[") : text
    }

    /// Whether `text` holds `##[` anywhere (or, with `colons`, `::` after nothing but blanks
    /// since a line's start): whether `inertLine` (`inertJSONLine`) changes it. On the UTF-8
    /// bytes: `String.contains` with a string searches generically, too slow for every line
    /// of the text timeline and the JSON summary (one long line).
    static func containsCommandMarks(_ text: String, colons: Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= 2 else { return false }
            var atLineStart = true  // as `inertLine` tells it
            for index in 0..<(bytes.count - 1) {
                let byte = bytes[index]
                if byte == 0x23, bytes[index + 1] == 0x23, index + 2 < bytes.count, bytes[index + 2] == 0x5B { return true }
                if colons, atLineStart, byte == 0x3A, bytes[index + 1] == 0x3A { return true }
                if byte == 0x0A || byte == 0x0D {
                    atLineStart = true
                } else if byte != 0x20 && byte != 0x09 {
                    atLineStart = false
                }
            }
            return false
        }
    }

    /// Whether `inertLine` could change `bytes`, one line without line ends (the text and
    /// JSON reporters escape those): a quick test, a look at the line's start and a memchr
    /// for `#`, so that lines without either pattern are copied as they are.
    static func mayCommand(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var index = 0
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        if index + 1 < bytes.count, bytes[index] == 0x3A, bytes[index + 1] == 0x3A { return true }
        var from = 0
        while from + 2 < bytes.count, let hash = memchr(base + from, 0x23, bytes.count - from - 2) {
            let offset = UnsafePointer<UInt8>(hash.assumingMemoryBound(to: UInt8.self)) - base
            if bytes[offset + 1] == 0x23, bytes[offset + 2] == 0x5B { return true }
            from = offset + 1
        }
        return false
    }
}

public enum StreamEscaping {
    /// Text from outside (a file name, an option's value, a message quoting them) as one line
    /// on a terminal or a CI log, on any stream: control characters (line ends and escape
    /// sequences among them) as `\xNN`, and nothing a CI runner reads as a command.
    public static func line(_ text: String) -> String {
        GitHubEscaping.inertLine(ByteText.terminalSafe(text))
    }
}

public enum MarkdownEscaping {
    /// Characters of outside text a table cell shows at most; the rest is cut, and the cell
    /// says how much (a log record can be megabytes long).
    public static let maxCellCharacters = 1_000

    /// Text shown literally inside a Markdown line (GitHub flavoured): punctuation that can
    /// start inline markup is backslash-escaped, `<` and `>` become entities (no HTML), control
    /// characters are shown as `\xNN`, line ends become spaces so a table cell stays one line,
    /// and what GitHub would turn into a link by itself (`https://…`, `www.…`, an e-mail
    /// address) is broken with an escape that does not show. At most `maxCellCharacters`.
    public static func text(_ text: String) -> String {
        let scalars = Array(ByteText.terminalSafe(capped(text).replacing("\r\n", with: " ").replacing("\n", with: " ").replacing("\r", with: " ")).unicodeScalars)
        var result = ""
        result.unicodeScalars.reserveCapacity(scalars.count + 16)
        for (index, scalar) in scalars.enumerated() {
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
            // Autolinks (GFM's extension): a scheme's `://`, the `.` after `www`, and every
            // `@` are escaped, so that no run of plain text forms a link.
            case ":" where index + 2 < scalars.count && scalars[index + 1] == "/" && scalars[index + 2] == "/",
                 "@":
                result += "\\"
                result.unicodeScalars.append(scalar)
            case "." where index >= 3 && scalars[(index - 3)..<index].map { Character($0).lowercased() }.joined() == "www":
                result += "\\."
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Text in a code span: backticks can only be fenced by a longer run of backticks, and a
    /// `|` is escaped even here, where GitHub's tables would end the cell on it.
    /// At most `maxCellCharacters`.
    public static func code(_ text: String) -> String {
        // No escape works inside a code span: a `##[` (a workflow command where this is
        // printed in a CI log) is shown with its first `#` as `\x23`, as the text output does.
        let safe = ByteText.terminalSafe(capped(text).replacing("\n", with: " ").replacing("\r", with: " "))
            .replacing("|", with: "\\|").replacing("##[", with: "\\x23#[")
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

    /// `text`, cut to `maxCellCharacters` with a note of how many were left out.
    static func capped(_ text: String) -> String {
        guard text.unicodeScalars.count > maxCellCharacters else { return text }
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.prefix(maxCellCharacters)))
        return kept + " … (\(text.unicodeScalars.count - maxCellCharacters) more characters cut)"
    }
}
