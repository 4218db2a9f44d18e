// The one Swift layer over PCRE2's C API: compiling with JIT, reusable match data,
// named groups, marks, match limits, and errors carrying PCRE2's own message.
import CPCRE2

/// An error from PCRE2: a compile error (with the offset in the pattern) or a match error.
public struct PCRE2Error: Error, CustomStringConvertible, Sendable, Equatable {
    public let code: Int32
    public let message: String
    /// For compile errors: the byte offset in the pattern where PCRE2 stopped.
    public let offset: Int?

    init(code: Int32, offset: Int? = nil) {
        self.code = code
        self.offset = offset
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBufferPointer {
            pcre2_get_error_message_8(code, $0.baseAddress, $0.count)
        }
        self.message = length > 0 ? String(decoding: buffer[0..<Int(length)], as: UTF8.self) : "PCRE2 error \(code)"
    }

    /// True when a match was abandoned because it hit a resource limit (match, depth,
    /// heap or JIT stack): the pattern backtracked too much on this subject.
    public var isResourceLimit: Bool {
        code == PCRE2_ERROR_MATCHLIMIT || code == PCRE2_ERROR_DEPTHLIMIT
            || code == PCRE2_ERROR_HEAPLIMIT || code == PCRE2_ERROR_JIT_STACKLIMIT
    }

    public var description: String {
        if let offset { return "\(message) (at offset \(offset))" }
        return message
    }
}

/// Compile options, a small subset of PCRE2's that the project uses.
public struct CompileOptions: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let anchored = CompileOptions(rawValue: UInt32(PCRE2_ANCHORED))
    public static let caseless = CompileOptions(rawValue: UInt32(PCRE2_CASELESS))
    public static let multiline = CompileOptions(rawValue: UInt32(PCRE2_MULTILINE))
    public static let dotAll = CompileOptions(rawValue: UInt32(PCRE2_DOTALL))
    public static let duplicateNames = CompileOptions(rawValue: UInt32(PCRE2_DUPNAMES))
}

/// Bounds on the work one match may do, so that a hostile subject cannot stall a run.
public struct MatchLimits: Sendable {
    /// PCRE2's match limit: how many times its internal match function may be called.
    public var matchLimit: UInt32
    /// Largest JIT stack in bytes.
    public var jitStackSize: Int

    public init(matchLimit: UInt32 = 200_000, jitStackSize: Int = 1 << 20) {
        self.matchLimit = matchLimit
        self.jitStackSize = jitStackSize
    }

    public static let standard = MatchLimits()
}

/// A compiled pattern. Immutable once compiled; PCRE2 documents compiled code (JIT
/// included) as safe to share between threads, each using its own `Matcher`.
public final class Regex: @unchecked Sendable {
    @usableFromInline let code: OpaquePointer
    public let pattern: String
    /// Number of capturing groups.
    public let captureCount: Int
    /// Named groups and their numbers; with `.duplicateNames` a name can have several.
    public let groupNumbers: [String: [Int]]
    /// Whether PCRE2's JIT compiled this pattern (it is unavailable on some platforms).
    public let isJITCompiled: Bool
    /// Whether the pattern was compiled anchored (it then matches only at the start position).
    public let isAnchored: Bool

    public init(_ pattern: String, options: CompileOptions = []) throws(PCRE2Error) {
        var compiled = try Regex.compile(pattern, options: options.rawValue)
        // A pattern in UTF mode (`(*UTF)` inside it, which no option here can turn off) assumes
        // valid UTF-8 subjects: the JIT reads past the end of the subject on a byte such as 0xFD.
        // Logs are any bytes, so such a pattern is compiled again with PCRE2_MATCH_INVALID_UTF,
        // under which invalid sequences simply never match. A pattern in byte mode stays as it
        // is (the option would force UTF mode and change what `.` and `\xFF` match).
        var allOptions: UInt32 = 0
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_ALLOPTIONS), &allOptions)
        if allOptions & UInt32(PCRE2_UTF) != 0, allOptions & UInt32(PCRE2_MATCH_INVALID_UTF) == 0 {
            pcre2_code_free_8(compiled)
            compiled = try Regex.compile(pattern, options: options.rawValue | UInt32(PCRE2_MATCH_INVALID_UTF))
        }
        self.code = compiled
        self.pattern = pattern
        self.isAnchored = options.contains(.anchored)
        self.isJITCompiled = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0

        var count: UInt32 = 0
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_CAPTURECOUNT), &count)
        self.captureCount = Int(count)
        self.groupNumbers = Regex.readNameTable(compiled)
    }

    deinit { pcre2_code_free_8(code) }

    private static func compile(_ pattern: String, options: UInt32) throws(PCRE2Error) -> OpaquePointer {
        var errorCode: Int32 = 0
        var errorOffset: Int = 0
        let compiled: OpaquePointer? = pattern.utf8CString.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UInt8.self) { bytes in
                pcre2_compile_8(bytes.baseAddress, bytes.count - 1, options, &errorCode, &errorOffset, nil)
            }
        }
        guard let compiled else { throw PCRE2Error(code: errorCode, offset: errorOffset) }
        return compiled
    }

    private static func readNameTable(_ code: OpaquePointer) -> [String: [Int]] {
        var nameCount: UInt32 = 0
        var entrySize: UInt32 = 0
        var table: UnsafePointer<UInt8>? = nil
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMECOUNT), &nameCount)
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMEENTRYSIZE), &entrySize)
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMETABLE), &table)
        guard let table, nameCount > 0 else { return [:] }
        var names: [String: [Int]] = [:]
        for index in 0..<Int(nameCount) {
            let entry = table + index * Int(entrySize)
            let number = Int(entry[0]) << 8 | Int(entry[1])
            var end = 2
            while end < Int(entrySize), entry[end] != 0 { end += 1 }
            let name = String(decoding: UnsafeBufferPointer(start: entry + 2, count: end - 2), as: UTF8.self)
            names[name, default: []].append(number)
        }
        return names
    }
}

/// A match context with its limits and JIT stack, shared by the matchers of one thread: a JIT
/// stack is an mmap of its own, and a classifier holds a matcher for each of its rules.
final class MatchResources {
    let context: OpaquePointer
    let jitStack: OpaquePointer?

    init(limits: MatchLimits) {
        // Allocation failures here mean the process is out of memory; nothing sensible remains.
        guard let context = pcre2_match_context_create_8(nil) else { fatalError("PCRE2 could not allocate a match context") }
        self.context = context
        pcre2_set_match_limit_8(context, limits.matchLimit)
        if let stack = pcre2_jit_stack_create_8(32 * 1024, limits.jitStackSize, nil) {
            pcre2_jit_stack_assign_8(context, nil, UnsafeMutableRawPointer(stack))
            self.jitStack = stack
        } else {
            self.jitStack = nil
        }
    }

    deinit {
        pcre2_match_context_free_8(context)
        if let jitStack { pcre2_jit_stack_free_8(jitStack) }
    }
}

/// Matches one `Regex` against byte subjects, reusing its match data and context.
/// One per thread: it holds the state of the last match.
public final class Matcher {
    public let regex: Regex
    private let matchData: OpaquePointer
    private let resources: MatchResources
    private var ovector: UnsafeMutablePointer<Int>
    private var matchedPairs = 0
    /// What `program` runs (see `Program`).
    public let program: Program

    public convenience init(_ regex: Regex, limits: MatchLimits = .standard) {
        self.init(regex, resources: MatchResources(limits: limits))
    }

    /// A matcher for `regex` with the limits and JIT stack of `other`: for the many matchers
    /// one thread uses in turn (never two matches at once).
    public convenience init(_ regex: Regex, sharingLimitsWith other: Matcher) {
        self.init(regex, resources: other.resources)
    }

    private init(_ regex: Regex, resources: MatchResources) {
        self.regex = regex
        guard let data = pcre2_match_data_create_from_pattern_8(regex.code, nil) else {
            fatalError("PCRE2 could not allocate match data")
        }
        self.matchData = data
        self.resources = resources
        self.ovector = pcre2_get_ovector_pointer_8(data)
        self.program = Program(code: regex.code, matchData: data, context: resources.context, isJIT: regex.isJITCompiled)
    }

    /// A matcher's pattern, match data and context as plain pointers, for the one loop that
    /// runs thousands of anchored patterns a second (the classifier's rule search): `run` is
    /// inlined there and calls PCRE2's JIT entry point straight away, with nothing to retain:
    /// through `matches`, each call would pay the wrapper's own checks and a retain and release
    /// of the matcher.
    /// A match it makes is the matcher's last match only once handed to `take`.
    public struct Program {
        @usableFromInline let code: OpaquePointer
        @usableFromInline let matchData: OpaquePointer
        @usableFromInline let context: OpaquePointer
        @usableFromInline let isJIT: Bool

        init(code: OpaquePointer, matchData: OpaquePointer, context: OpaquePointer, isJIT: Bool) {
            self.code = code
            self.matchData = matchData
            self.context = context
            self.isJIT = isJIT
        }

        /// Searches `subject` from `start` as `Matcher.matches(_:from:)` does, and returns
        /// PCRE2's result: `PCRE2_ERROR_NOMATCH` (`noMatch`), another negative error, or the
        /// match for `Matcher.take`.
        @inlinable @inline(__always)
        public func run(_ subject: UnsafeRawBufferPointer, from start: Int) -> Int32 {
            if isJIT, let base = subject.baseAddress, start <= subject.count {
                return pcre2_jit_match_8(code, base.assumingMemoryBound(to: UInt8.self), subject.count, start, 0, matchData, context)
            }
            return interpreted(subject, from: start)
        }

        @usableFromInline func interpreted(_ subject: UnsafeRawBufferPointer, from start: Int) -> Int32 {
            if let base = subject.baseAddress {
                return pcre2_match_8(code, base.assumingMemoryBound(to: UInt8.self), subject.count, start, 0, matchData, context)
            }
            var empty: UInt8 = 0
            return pcre2_match_8(code, &empty, 0, 0, 0, matchData, context)
        }

        /// What `run` returns when the pattern does not match.
        @inlinable public static var noMatch: Int32 { PCRE2_ERROR_NOMATCH }
    }

    /// Makes `result`, what this matcher's `program` returned, its last match: whether it
    /// matched; an error throws.
    public func take(_ result: Int32) throws(PCRE2Error) -> Bool {
        if result == PCRE2_ERROR_NOMATCH { matchedPairs = 0; return false }
        if result < 0 { matchedPairs = 0; throw PCRE2Error(code: result) }
        matchedPairs = result == 0 ? regex.captureCount + 1 : Int(result)
        return true
    }

    deinit { pcre2_match_data_free_8(matchData) }

    /// Searches `subject` from byte `start` (only at `start` when `anchored`). Returns whether
    /// it matched; a resource limit or other match error throws.
    ///
    /// PCRE2's JIT does not take PCRE2_ANCHORED at match time: passing it makes PCRE2 fall back
    /// to its interpreter, several times slower. A pattern compiled anchored needs no such
    /// option, so it is passed only for patterns that were not; hot paths compile anchored.
    public func matches(_ subject: UnsafeRawBufferPointer, from start: Int = 0, anchored: Bool = false) throws(PCRE2Error) -> Bool {
        let options: UInt32 = anchored && !regex.isAnchored ? UInt32(PCRE2_ANCHORED) : 0
        let result: Int32
        if let base = subject.baseAddress, regex.isJITCompiled, options == 0, start <= subject.count {
            // JIT's own entry point: pcre2_match's checks (option bits, offset, UTF validity,
            // which a pattern without UTF mode never needs and one in UTF mode is compiled not to
            // need, see `init`) would be paid on every call, and the checks that apply here are
            // the ones the condition makes.
            result = pcre2_jit_match_8(regex.code, base.assumingMemoryBound(to: UInt8.self), subject.count, start, 0, matchData, resources.context)
        } else if let base = subject.baseAddress {
            result = pcre2_match_8(regex.code, base.assumingMemoryBound(to: UInt8.self), subject.count, start, options, matchData, resources.context)
        } else {
            var empty: UInt8 = 0
            result = pcre2_match_8(regex.code, &empty, 0, 0, options, matchData, resources.context)
        }
        if result == PCRE2_ERROR_NOMATCH { matchedPairs = 0; return false }
        if result < 0 { matchedPairs = 0; throw PCRE2Error(code: result) }
        // result == 0 means the ovector was too small; it never is, being sized from the pattern.
        matchedPairs = result == 0 ? regex.captureCount + 1 : Int(result)
        return true
    }

    /// Convenience for tests and cold paths: matches a string's UTF-8 bytes.
    public func matches(_ subject: String, from start: Int = 0, anchored: Bool = false) throws(PCRE2Error) -> Bool {
        let bytes = Array(subject.utf8)
        let result: Result<Bool, PCRE2Error> = bytes.withUnsafeBytes { buffer in
            Result { () throws(PCRE2Error) in try matches(buffer, from: start, anchored: anchored) }
        }
        return try result.get()
    }

    /// The byte range of group `number` in the last successful match (0 = whole match), or
    /// nil when the group did not take part.
    public func range(ofGroup number: Int) -> Range<Int>? {
        guard number >= 0, number < matchedPairs else { return nil }
        let start = ovector[2 * number]
        let end = ovector[2 * number + 1]
        if start == cpcre2_unset() || end < start { return nil }
        return start..<end
    }

    /// The range of a named group in the last match; of several groups of that name, the
    /// first that took part.
    public func range(ofGroup name: String) -> Range<Int>? {
        guard let numbers = regex.groupNumbers[name] else { return nil }
        return range(ofFirstOf: numbers)
    }

    /// The range of the first of `numbers` that took part in the last match (hot paths look
    /// group numbers up once, not by name per match).
    public func range(ofFirstOf numbers: [Int]) -> Range<Int>? {
        for number in numbers {
            if let range = range(ofGroup: number) { return range }
        }
        return nil
    }

    /// The `(*MARK:n)` of the last match read as a decimal number, or nil when there is
    /// none or it is not a number. Reads bytes: no String is made.
    public var numericMark: Int? {
        guard let mark = pcre2_get_mark_8(matchData) else { return nil }
        // PCRE2 stores the mark's length in the code unit before it.
        let length = Int((mark - 1).pointee)
        guard length > 0, length <= 9 else { return nil }
        var value = 0
        for index in 0..<length {
            let digit = Int(mark[index]) - 48
            guard digit >= 0, digit <= 9 else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// The `(*MARK:name)` of the last match, as text.
    public var mark: String? {
        guard let mark = pcre2_get_mark_8(matchData) else { return nil }
        let length = Int((mark - 1).pointee)
        return String(decoding: UnsafeBufferPointer(start: mark, count: length), as: UTF8.self)
    }
}
