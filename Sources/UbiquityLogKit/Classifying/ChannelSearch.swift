// The search for the first rule of a channel that matches a record, with the matchers of
// one thread.
import PatternLeads
import PCRE2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One channel's rules with a matcher each (one match context and JIT stack between them),
/// for one thread. A rule's matcher is made, and its pattern compiled, when the search first
/// runs the rule (`matcher(_:)`): most runs meet a few of a channel's rules.
final class ChannelSearch {
    let compiled: CompiledChannel
    /// By rule number; nil until the rule first runs.
    @exclusivity(unchecked) private var matchers: [Matcher?]
    /// By rule number: each matcher's `program`, which the text rules' search runs; nil until
    /// the rule first runs.
    @exclusivity(unchecked) private var programs: [Matcher.Program?]
    /// By rule number, once its matcher is made: its named groups in the order of their
    /// numbers, a builder's fields without walking and sorting the dictionary for every record.
    @exclusivity(unchecked) private(set) var orderedGroups: [[RuleMatch.NamedGroup]]
    private let limits: MatchLimits
    /// By rule number: whether the rule's builder runs (see `Classifier.init`).
    let builds: [Bool]
    /// By rule number: whether anyone reads the details of the rule's events (see `RuleMatch.readsDetails`).
    let details: [Bool]

    init(_ compiled: CompiledChannel, limits: MatchLimits, readsFacts: (EventKind) -> Bool, readsDetails: (EventKind) -> Bool = { _ in true }) {
        self.compiled = compiled
        self.limits = limits
        builds = compiled.rules.map { !$0.buildsFactsOnly || readsFacts($0.kind) }
        details = compiled.rules.map { $0.kinds.contains(where: readsDetails) }
        matchers = Array(repeating: nil, count: compiled.rules.count)
        programs = Array(repeating: nil, count: compiled.rules.count)
        orderedGroups = Array(repeating: [], count: compiled.rules.count)
        spares = Array(repeating: nil, count: compiled.rules.count)
        lineStart = compiled.lineStart.tables
        afterObject = compiled.afterObject?.tables
        nextLineRules = compiled.rules.indices.compactMap { rule in
            guard compiled.rules[rule].position == .lineStart, let leads = LeadingBytes.nextLineLeads(of: compiled.rules[rule].pattern)
            else { return nil }
            return (rule, leads)
        }
        var nextLineFirstBytes = [Bool](repeating: false, count: 256)
        for (_, leads) in nextLineRules { for lead in leads { nextLineFirstBytes[Int(lead[0])] = true } }
        self.nextLineFirstBytes = nextLineFirstBytes
    }

    /// Rule `rule`'s matcher, made (and its pattern compiled) at the first call.
    func matcher(_ rule: Int) -> Matcher {
        if let matcher = matchers[rule] { return matcher }
        return prepare(rule)
    }

    /// Rule `rule`'s program (see `matcher(_:)`).
    @inline(__always)
    private func program(_ rule: Int) -> Matcher.Program {
        if let program = programs[rule] { return program }
        return prepare(rule).program
    }

    @inline(never)
    private func prepare(_ rule: Int) -> Matcher {
        let pattern = compiled.patterns[rule]
        // The matchers of one search share one match context and JIT stack.
        let shared = matchers.first { $0 != nil } ?? nil
        let matcher = shared.map { Matcher(pattern, sharingLimitsWith: $0) } ?? Matcher(pattern, limits: limits)
        matchers[rule] = matcher
        programs[rule] = matcher.program
        orderedGroups[rule] = pattern.groupNumbers.map { RuleMatch.NamedGroup(name: $0.key, numbers: $0.value) }
            .sorted { ($0.numbers.first ?? 0) < ($1.numbers.first ?? 0) }
        return matcher
    }

    /// What the search knows of a rule before it runs the rule's pattern, to spare runs that
    /// cannot match. Worked out when the rule is first offered (`spare(_:)`): reading every
    /// rule's pattern when a channel's search is made would cost a short run's start-up.
    private struct Spare {
        /// Whether the rule matches only at the subject's start (its pattern opens with `\A`,
        /// see `matchesOnlyAtSubjectStart`): PCRE2 finds no match of it from a later offset, so
        /// the search runs it at offset 0 alone.
        let startOnly: Bool
    }

    /// By rule number, once the rule is first offered.
    @exclusivity(unchecked) private var spares: [Spare?]

    @inline(__always)
    private func spare(_ rule: Int) -> Spare {
        if let spare = spares[rule] { return spare }
        return makeSpare(rule)
    }

    @inline(never)
    private func makeSpare(_ rule: Int) -> Spare {
        let spare = Spare(startOnly: Self.matchesOnlyAtSubjectStart(compiled.rules[rule].pattern))
        spares[rule] = spare
        return spare
    }

    /// Whether every match of `pattern` starts at the subject's start: each of its alternatives
    /// opens with `\A`, or with a group (once, without a quantifier) whose alternatives all do.
    /// PCRE2's `\A` never matches when a match is tried from an offset past 0.
    static func matchesOnlyAtSubjectStart(_ pattern: String) -> Bool {
        alternativesOpenWithSubjectStart(LeadingBytes.PatternReader(bytes: Array(pattern.utf8)), from: 0)
    }

    /// Whether each alternative from `start` to the end of its group (or of the pattern) opens
    /// with `\A` (see `matchesOnlyAtSubjectStart`).
    private static func alternativesOpenWithSubjectStart(_ reader: LeadingBytes.PatternReader, from start: Int) -> Bool {
        var reader = reader
        reader.index = start
        let bytes = reader.bytes
        while true {
            let open = reader.index
            if open + 1 < bytes.count, bytes[open] == UInt8(ascii: "\\"), bytes[open + 1] == UInt8(ascii: "A"),
               reader.quantifier(at: open + 2).end == open + 2 {
                // Opens with `\A`.
            } else if open < bytes.count, bytes[open] == UInt8(ascii: "("), let group = reader.group(at: open),
                      reader.quantifier(at: group.close + 1).end == group.close + 1,
                      alternativesOpenWithSubjectStart(reader, from: group.contentStart) {
                // Opens with a group each of whose alternatives does.
            } else {
                return false
            }
            reader.skipToEndOfAlternative()
            guard reader.index < bytes.count, bytes[reader.index] == UInt8(ascii: "|") else { return true }
            reader.index += 1
        }
    }

    /// By byte: whether a text of `nextLineRules` starts with it.
    private let nextLineFirstBytes: [Bool]

    /// Line-start rules whose match may take the line before their text (`LeadingBytes.nextLineLeads`),
    /// in order, with the texts that then start the next line.
    private let nextLineRules: [(rule: Int, leads: [[UInt8]])]

    /// The first of `nextLineRules` before rule `limit` that matches at `position` taking its
    /// line: only where one of its texts starts the next line (past its blanks) does its pattern
    /// run. The next line is looked for only here, once a position's own candidates are known:
    /// a rule that comes first among them needs no look.
    /// `lineEnd`: where the line's `\n` stands (`message.count` when it has none), or -1 when
    /// the caller has not looked.
    private func firstByNextLine(before limit: Int, in message: UnsafeRawBufferPointer, at position: Int,
                                 lineEnd: Int) throws(PCRE2Error) -> Int? {
        guard let first = nextLineRules.first, first.rule < limit else { return nil }
        let newline = lineEnd >= 0 ? lineEnd : ByteSearch.firstOffset(of: 0x0A, in: message, from: position) ?? message.count
        var next = newline + 1
        while next < message.count, message[next] == 0x20 || message[next] == 0x09 { next += 1 }
        guard next < message.count, nextLineFirstBytes[Int(message[next])] else { return nil }
        let line = UnsafeRawBufferPointer(rebasing: message[next...])
        for (rule, leads) in nextLineRules where rule < limit && leads.contains(where: { line.starts(with: $0) }) {
            if position != 0, spare(rule).startOnly { continue }
            let result = program(rule).run(message, from: position)
            if result != Matcher.Program.noMatch, try matcher(rule).take(result) { return rule }
        }
        return nil
    }

    /// `compiled`'s indexes, as plain pointers (valid while `compiled` is kept): read through
    /// `compiled`, each index would be retained and released around every position looked at.
    private let lineStart: RuleIndex.Tables
    private let afterObject: RuleIndex.Tables?

    /// The rule that recognises `message`, and where its match starts: a text rule (`first`),
    /// else a rule of the logging method (`firstByMethod`); nil when none does. The method is
    /// read only when no text rule matches: reading a record's header copies it.
    func rule(in message: UnsafeRawBufferPointer, method: @autoclosure () -> String?) throws(PCRE2Error) -> (rule: Int, start: Int?)? {
        if let hit = try first(in: message) { return hit }
        let method = method()
        guard let rule = try method == nil ? firstWithoutMethod(in: message) : firstByMethod(method, in: message) else { return nil }
        return (rule, matcher(rule).range(ofGroup: 0)?.lowerBound)
    }

    /// The rule the channel's joined alternation would match in `message`, and where its match
    /// starts: the first line (after its blanks) at which any text rule matches, and there the
    /// first rule in order; nil when none does.
    func first(in message: UnsafeRawBufferPointer) throws(PCRE2Error) -> (rule: Int, start: Int?)? {
        // Rules with required texts (tried everywhere, or filed under a shorter lead that is
        // not sure) are left out where their texts are not in the message (looked for once a
        // position offers them, see `RuleIndex.Absence`).
        var absent = Absent()
        switch compiled.channel.shape {
        case .lines:
            // `^[ \t]*+` in multiline mode: every line start but the one after a final newline.
            var lineStart = 0
            while true {
                var position = lineStart
                while position < message.count, message[position] == 0x20 || message[position] == 0x09 { position += 1 }
                // The line's end is looked for before its rules: a rule whose match may take the
                // line before its text (`nextLineRules`: "Using local storage: " on the line after
                // a peer's) needs it on every line, and the next line starts there.
                let newline = ByteSearch.firstOffset(of: 0x0A, in: message, from: position)
                if let rule = try first(in: message, at: position, lineEnd: newline ?? message.count, &absent) { return (rule, lineStart) }
                guard let newline, newline + 1 < message.count else { return nil }
                lineStart = newline + 1
            }
        case .startPastLoggerTag:
            // At the start, after at most one tag an app's logger may add and its blanks, then
            // with at most `maxBlanksGivenBack` of them given back; then without the tag. Given
            // back one by one to the first, with the rules tried at each, a tag and 400,000
            // blanks took 20 s (the match limit, counted per rule, never stopped it).
            if let tag = Self.tagEnd(in: message) {
                var blanks = 0
                while tag + blanks < message.count, message[tag + blanks] == 0x20 || message[tag + blanks] == 0x09 { blanks += 1 }
                for taken in stride(from: blanks, to: max(0, blanks - Self.maxBlanksGivenBack - 1), by: -1) {
                    if let rule = try first(in: message, at: tag + taken, &absent) { return (rule, 0) }
                }
            }
            return try first(in: message, at: 0, &absent).map { ($0, 0) }
        case .linesPastDescription:
            // Each line, after its blanks: past the logging object's description first, then
            // at the line's start (as `JoinedAlternation` reads `(?:<…>(?::|[ ]-)?[ ]*)?`).
            var lineStart = 0
            while true {
                var position = lineStart
                while position < message.count, message[position] == 0x20 || message[position] == 0x09 { position += 1 }
                // The match is told from the rule's text on: the timeline shows `Executing: …`,
                // not the delegate's address before it.
                if let after = Self.afterDescription(in: message, at: position),
                   let rule = try first(in: message, at: after, &absent) { return (rule, after) }
                if let rule = try first(in: message, at: position, &absent) { return (rule, lineStart) }
                guard let newline = ByteSearch.firstOffset(of: 0x0A, in: message, from: position), newline + 1 < message.count else { return nil }
                lineStart = newline + 1
            }
        case .startPastSubsystemTag:
            // The message start, past one `[subsystem:category]` tag and its blanks first.
            if let tag = Self.subsystemTagEnd(in: message), let rule = try first(in: message, at: tag, &absent) { return (rule, tag) }
            return try first(in: message, at: 0, &absent).map { ($0, 0) }
        }
    }

    /// After a logged object's description at `position`: `<` up to 200 bytes `>`, then `:`
    /// or ` -`, then blanks; nil when none starts there.
    static func afterDescription(in message: UnsafeRawBufferPointer, at position: Int) -> Int? {
        guard position < message.count, message[position] == UInt8(ascii: "<") else { return nil }
        var end = position + 1
        let limit = min(message.count, position + 202)
        while end < limit, message[end] != UInt8(ascii: ">"), message[end] != 0x0A { end += 1 }
        guard end < limit, message[end] == UInt8(ascii: ">"), end >= position + 2 else { return nil }
        end += 1
        if end < message.count, message[end] == UInt8(ascii: ":") {
            end += 1
        } else if end + 1 < message.count, message[end] == 0x20, message[end + 1] == UInt8(ascii: "-") {
            end += 2
        }
        while end < message.count, message[end] == 0x20 { end += 1 }
        return end
    }

    /// Where a leading `[subsystem:category]` tag (up to 80 bytes) and its blanks end.
    static func subsystemTagEnd(in message: UnsafeRawBufferPointer) -> Int? {
        guard message.first == UInt8(ascii: "[") else { return nil }
        var end = 1
        while end < min(message.count, 82), message[end] != UInt8(ascii: "]"), message[end] != 0x0A { end += 1 }
        guard end >= 2, end < message.count, message[end] == UInt8(ascii: "]") else { return nil }
        end += 1
        guard end < message.count, message[end] == 0x20 || message[end] == 0x09 else { return nil }
        while end < message.count, message[end] == 0x20 || message[end] == 0x09 { end += 1 }
        return end
    }

    /// What one message's search knows of its rules tried everywhere, for each index.
    private struct Absent {
        var lineStart = RuleIndex.Absence()
        var afterObject = RuleIndex.Absence()
    }

    /// The first text rule that matches at `position`: line-start rules there, then the
    /// after-object phrases after each of the line's first 40 blanks or colons.
    /// `lineEnd`: as for `firstByNextLine`.
    private func first(in message: UnsafeRawBufferPointer, at position: Int, lineEnd: Int = -1,
                       _ absent: inout Absent) throws(PCRE2Error) -> Int? {
        let found = lineStart.mayStart(in: message, at: position) ? try first(of: lineStart, in: message, at: position, &absent.lineStart) : nil
        if !nextLineRules.isEmpty,
           let rule = try firstByNextLine(before: found ?? Int.max, in: message, at: position, lineEnd: lineEnd) { return rule }
        if let found { return found }
        guard let afterObject else { return nil }
        // `(?:[^ :\n]*+[ :]){0,40}?[ ]?`: fewest separators first; at each, with a blank, then without.
        var scan = position
        for separators in 0...40 {
            if scan < message.count, message[scan] == 0x20, afterObject.mayStart(in: message, at: scan + 1),
               let rule = try first(of: afterObject, in: message, at: scan + 1, &absent.afterObject) { return rule }
            if afterObject.mayStart(in: message, at: scan),
               let rule = try first(of: afterObject, in: message, at: scan, &absent.afterObject) { return rule }
            guard separators < 40 else { break }
            scan = Self.separator(in: message, from: scan)
            guard scan < message.count, message[scan] != 0x0A else { break }
            scan += 1
        }
        return nil
    }

    /// The first rule of `index` that matches at `position`. Most positions of the after-object
    /// scan hold a byte no rule starts with: the caller tells them (`mayStart`) before calling.
    private func first(of index: RuleIndex.Tables, in message: UnsafeRawBufferPointer, at position: Int,
                       _ absence: inout RuleIndex.Absence) throws(PCRE2Error) -> Int? {
        var cursor = index.cursor(in: message, at: position)
        while let candidate = index.next(&cursor, in: message, at: position, &absence) {
            let rule = candidate.rule
            let spare = spare(rule)
            if position != 0, spare.startOnly { continue }
            // Where the text a rule was found by is enough for a match, its pattern runs only
            // for a builder that reads the match (with `-q`, about half the runs are spared).
            if candidate.sure, !builds[rule] {
                assert(program(rule).run(message, from: position) >= 0, "\(compiled.rules[rule].id): a sure text without a match")
                return rule
            }
            // Most runs match; the matcher is told of a match only then.
            let result = program(rule).run(message, from: position)
            if result != Matcher.Program.noMatch, try matcher(rule).take(result) { return rule }
        }
        return nil
    }

    /// The first blank, colon or line end in `message` at or after `start`; `message.count` when
    /// there is none. Eight bytes a step, not byte by byte: the after-object scan reads every
    /// description's tail.
    @inline(__always)
    static func separator(in message: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard let base = message.baseAddress else { return message.count }
        var index = start
        while index + 8 <= message.count {
            let word = (base + index).loadUnaligned(as: UInt64.self)
            let found = zeroBytes(word ^ 0x2020_2020_2020_2020) | zeroBytes(word ^ 0x3A3A_3A3A_3A3A_3A3A) | zeroBytes(word ^ 0x0A0A_0A0A_0A0A_0A0A)
            // The lowest flag marks the first such byte (little-endian); flags above it may be false.
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < message.count, base.load(fromByteOffset: index, as: UInt8.self) != 0x20,
              base.load(fromByteOffset: index, as: UInt8.self) != 0x3A, base.load(fromByteOffset: index, as: UInt8.self) != 0x0A {
            index += 1
        }
        return index
    }

    /// The high bit of each byte of `word` that is zero, and perhaps of bytes above the first such.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// How many of the blanks after a logger's tag the search gives back to the rules (as
    /// `JoinedAlternation` reads `[ \t]+(?=[ \t]{0,2}(?![ \t]))`).
    static let maxBlanksGivenBack = 2

    /// Where the tag before a store manager message ends: `[` up to 40 characters `]`, or a
    /// letter, up to 40 of `[\w.-]` and a colon; nil when there is none.
    static func tagEnd(in message: UnsafeRawBufferPointer) -> Int? {
        guard let first = message.first else { return nil }
        var end = 1
        if first == UInt8(ascii: "[") {
            while end <= 41, end < message.count, message[end] != UInt8(ascii: "]"), message[end] != 0x0A { end += 1 }
            guard end >= 2, end <= 41, end < message.count, message[end] == UInt8(ascii: "]") else { return nil }
            return end + 1
        }
        guard isLetter(first) else { return nil }
        while end <= 41, end < message.count, isLetter(message[end]) || isDigit(message[end])
                || message[end] == UInt8(ascii: "_") || message[end] == UInt8(ascii: ".") || message[end] == UInt8(ascii: "-") {
            end += 1
        }
        guard end <= 41, end < message.count, message[end] == UInt8(ascii: ":") else { return nil }
        return end + 1
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The first `.withoutMethod` rule whose pattern matches.
    func firstWithoutMethod(in message: UnsafeRawBufferPointer) throws(PCRE2Error) -> Int? {
        for rule in compiled.withoutMethodRules where try matcher(rule).matches(message) { return rule }
        return nil
    }

    /// The first `.method` rule of the record's logging method whose pattern matches.
    func firstByMethod(_ method: String?, in message: UnsafeRawBufferPointer) throws(PCRE2Error) -> Int? {
        guard !compiled.methodRules.isEmpty, let method else { return nil }
        guard let candidates = methodRules(of: method) else { return nil }
        for rule in candidates where try matcher(rule).matches(message) { return rule }
        return nil
    }

    /// The `.method` rules of `method`, as last looked up for the same text: a log's records
    /// come from a few dozen methods, so a method's base name is worked out (Character by
    /// Character) and hashed only when it changes.
    /// (Used by the one thread this search belongs to: no run-time exclusivity check.)
    @exclusivity(unchecked) private var lastMethod: (method: String, rules: [Int]?)?

    private func methodRules(of method: String) -> [Int]? {
        if let lastMethod, lastMethod.method == method { return lastMethod.rules }
        let base = CompiledChannel.baseMethod(method)
        // A method pasted without its `-` (`[PFUbiquityFilePresenter processPendingURLs]`): the
        // rules name instance methods.
        let rules = compiled.methodRules[base.hasPrefix("[") ? "-" + base : String(base)]
        lastMethod = (method, rules)
        return rules
    }
}
