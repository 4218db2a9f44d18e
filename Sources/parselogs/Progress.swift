// Whether an input's read shows a progress line on standard error (README, Usage: a terminal,
// a large file, a format that is not for CI, standard output not taken by a streamed timeline).
import UbiquityLogKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether standard error is a terminal, asked once for the run rather than for each input.
private let standardErrorIsTerminal = isatty(2) == 1

extension Invocation {
    /// The progress line for reading `source`, or nil when none is shown.
    func progress(for source: LogInput, stdoutIsTerminal: Bool) -> ReadProgress? {
        guard !output.noProgress, standardErrorIsTerminal else { return nil }
        switch output.format {
        case .text, .json, .html: break
        case .jsonl, .markdown, .github, .junit, .xcode, .sarif: return nil
        }
        // A timeline streamed to the same terminal would be torn by the line.
        if stdoutIsTerminal, output.format == .text, !output.quiet, !output.unhandled { return nil }
        var info = stat()
        guard fstat(source.descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              ReadProgress.isWorthShowing(size: Int64(info.st_size), isGzip: source.isGzip) else { return nil }
        let dumb = getenv("TERM").map { String(cString: $0) == "dumb" } ?? false
        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        let style = ReadProgress.Style(escapes: !dumb, dim: !dumb && !noColor && output.color != .never)
        return ReadProgress(file: source.descriptor, size: Int64(info.st_size), name: source.name, isGzip: source.isGzip, style: style)
    }
}
