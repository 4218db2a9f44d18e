// The reader that `LeadingBytes` works a pattern's leads and required texts out with: one
// pass over the pattern's text, item by item.

extension LeadingBytes {
    package struct PatternReader {
        package let bytes: [UInt8]
        package var index = 0
        /// Inside `(?i:…)`: a letter stands for both its cases.
        package var caseless = false
        /// Letters read in both cases so far: past a few, the prefix ends (each doubles them).
        package var caselessLetters = 0
        /// For `prefixesPastSeparators`: whether an alternative starting here leaves out its
        /// leading colon-and-blank items (true only while nothing of the match is read yet).
        package var skipsSeparators = false
        /// Whether what follows the group being read, to the end of the pattern, is a safe
        /// tail (`isSafeTail`): only then can a prefix read inside it be sure.
        package var tailIsSafe = true
        /// The longest prefix worked out: `prefixLimit`, or 1 where only first bytes count.
        package var limit = prefixLimit

        /// A reader at the start of `bytes`, a pattern's text.
        package init(bytes: [UInt8]) { self.bytes = bytes }

        /// Alternatives up to the end or the `)` that closes the enclosing group.
        package mutating func alternation() -> [PatternLead] {
            var result: [PatternLead] = []
            // What trying the alternatives before this one costs PCRE2 where they fail.
            var before = Attempt.nothing
            while true {
                let start = index
                result += alternative(after: before)
                skipToEndOfAlternative()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "|") else { return bounded(result, limit: limit) }
                before = before.then(attempt(of: start..<index))
                index += 1
            }
        }

        /// The prefixes of one alternative, item by item while they are exact, leaving `index`
        /// somewhere inside it. `before`: what PCRE2 tried at its start first.
        package mutating func alternative(after before: Attempt = .nothing) -> [PatternLead] {
            var result = [before.passed(PatternLead.empty)]
            let skipping = skipsSeparators
            defer { skipsSeparators = skipping }
            while result.contains(where: \.exact) {
                // A literal byte that must match (most of a pattern) extends each exact prefix;
                // what follows it is no safe tail, as it cannot match nothing.
                if !skipping, let byte = plainLiteral(at: index) {
                    append(byte, to: &result, limit: limit)
                    index += 1
                    continue
                }
                // All that is left matches nothing or more, cheaply: where the bytes read stand,
                // the alternative matches.
                if tailIsSafe, isSafeTail(from: index) {
                    return result.map { prefix in
                        guard prefix.exact else { return prefix }
                        return PatternLead(bytes: prefix.bytes, exact: false, sure: prefix.reachable && prefix.pending.isEmpty)
                    }
                }
                guard index < bytes.count, bytes[index] != UInt8(ascii: "|"), bytes[index] != UInt8(ascii: ")") else { break }
                // Nothing read yet: a colon-or-blank item is left out, and a group here starts
                // the match too.
                let atStart = skipping && result.allSatisfy { $0.bytes.isEmpty && $0.exact }
                if atStart, let optional = skipSeparatorItem() {
                    // Where the text is looked up, the colon may be missing.
                    if !optional { result = result.map { var passed = $0; passed.reachable = false; return passed } }
                    continue
                }
                skipsSeparators = atStart
                let itemStart = index
                guard var options = item() else { return concatenate(result, [.anything], limit: limit) }
                let itemEnd = index
                skipsSeparators = skipping
                let (optional, repeated, lazy) = skipQuantifierAndLaziness()
                // Repeated: the first time starts the match, what comes after is unknown.
                if repeated { options = options.map { PatternLead(bytes: $0.bytes, exact: false) } }
                // Lazy: PCRE2 first tries what follows without the item, at any cost.
                if lazy { options = options.map { var taken = $0; taken.reachable = false; return taken } }
                // Left out, the item was tried first (unless lazy).
                if optional { options.append(lazy ? .empty : attempt(of: itemStart..<itemEnd).passed(.empty)) }
                if options.count == 1, options[0].exact, options[0].bytes.count == 1, options[0].reachable, options[0].pending.isEmpty {
                    append(options[0].bytes[0], to: &result, limit: limit)
                } else {
                    result = concatenate(result, options, limit: limit)
                }
            }
            return result
        }

        /// The prefixes of the item at `index` (a group, an escaped or plain character, or a
        /// class of plain characters), moving past it; nil when it cannot tell.
        package mutating func item() -> [PatternLead]? {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "("):
                // A prefix read inside the group is sure only if what follows the group is a
                // safe tail too.
                let groupStart = index
                skipItem()
                let outerTail = tailIsSafe
                tailIsSafe = tailIsSafe && isSafeTail(from: index)
                defer { tailIsSafe = outerTail }
                index = groupStart
                // Only plain and named groups, and `(?s:` (which changes only what `.` means);
                // other options, lookarounds and verbs are "anything".
                var start = index + 1
                if start < bytes.count, bytes[start] == UInt8(ascii: "?") {
                    guard start + 1 < bytes.count else { return nil }
                    if bytes[start + 1] == UInt8(ascii: ":") {
                        start += 2
                    } else if bytes[start + 1] == UInt8(ascii: "s"), start + 2 < bytes.count, bytes[start + 2] == UInt8(ascii: ":") {
                        start += 3
                    } else if bytes[start + 1] == UInt8(ascii: "i"), start + 2 < bytes.count, bytes[start + 2] == UInt8(ascii: ":") {
                        index = start + 3
                        let outer = caseless
                        caseless = true
                        defer { caseless = outer }
                        let inner = alternation()
                        guard index < bytes.count, bytes[index] == UInt8(ascii: ")") else { return nil }
                        index += 1
                        return inner
                    } else if bytes[start + 1] == UInt8(ascii: "<"), start + 2 < bytes.count,
                              bytes[start + 2] != UInt8(ascii: "="), bytes[start + 2] != UInt8(ascii: "!") {
                        guard let close = bytes[start...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                        start = close + 1
                    } else {
                        return nil
                    }
                } else if start < bytes.count, bytes[start] == UInt8(ascii: "*") {
                    return nil
                }
                index = start
                let inner = alternation()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ")") else { return nil }
                index += 1
                return inner
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { return nil }
                let escaped = bytes[index + 1]
                // Escaped punctuation is itself; letters are classes or special (\d, \s, \b...).
                guard !isAlphanumeric(escaped), escaped < 0x80 else { return nil }
                index += 2
                return [PatternLead(bytes: [escaped], exact: true)]
            case UInt8(ascii: "["):
                // A class of plain characters only: no negation, range or escape.
                var end = index + 1
                var members: [PatternLead] = []
                while end < bytes.count, bytes[end] != UInt8(ascii: "]") {
                    let member = bytes[end]
                    guard member < 0x80, member != UInt8(ascii: "^"), member != UInt8(ascii: "-"),
                          member != UInt8(ascii: "\\"), member != UInt8(ascii: "[") else { return nil }
                    members.append(PatternLead(bytes: [member], exact: true))
                    let lower = member | 0x20
                    if caseless, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") {
                        members.append(PatternLead(bytes: [member ^ 0x20], exact: true))
                    }
                    end += 1
                }
                guard end < bytes.count, !members.isEmpty else { return nil }
                index = end + 1
                return members
            case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: ")"), UInt8(ascii: "|"):
                return nil
            default:
                guard byte < 0x80 else { return nil }
                index += 1
                let lower = byte | 0x20
                if caseless, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") {
                    caselessLetters += 1
                    guard caselessLetters <= 4 else { return nil }
                    return [PatternLead(bytes: [lower], exact: true), PatternLead(bytes: [lower & ~0x20], exact: true)]
                }
                return [PatternLead(bytes: [byte], exact: true)]
            }
        }

        /// For `prefixesPastSeparators`: moves past the item at `index` and its quantifier when
        /// it matches only colons and blanks (`:`, ` `, `\:`, `[ ]`, `[ :]`), and tells whether it
        /// may match nothing; nil, not moving, otherwise.
        package mutating func skipSeparatorItem() -> Bool? {
            let start = index
            let separators: Set<UInt8> = [UInt8(ascii: ":"), UInt8(ascii: " ")]
            guard index < bytes.count, bytes[index] != UInt8(ascii: "("), !caseless,
                  let options = item(), options.allSatisfy({ $0.exact && $0.bytes.count == 1 && separators.contains($0.bytes[0]) })
            else {
                index = start
                return nil
            }
            return skipQuantifier().optional
        }

        /// For `requiredTexts`: what one alternative requires, read up to its end (a `|` or
        /// `)` at this depth, or the end of the pattern).
        package mutating func requiredTexts() -> [[UInt8]] {
            var best: [[UInt8]] = []
            // Texts are better the longer the shortest of them is, then the fewer they are.
            func consider(_ texts: [[UInt8]]) {
                guard let shortest = texts.map(\.count).min(), shortest > 0 else { return }
                let bestShortest = best.map(\.count).min() ?? 0
                if shortest > bestShortest || (shortest == bestShortest && texts.count < best.count) { best = texts }
            }
            var run: [UInt8] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: "|"), bytes[index] != UInt8(ascii: ")") {
                if let byte = plainLiteral(at: index) {
                    run.append(byte)
                    index += 1
                    continue
                }
                let options = literalItem()
                let (optional, repeated) = options == nil ? (true, true) : skipQuantifier()
                let literal = options.map { $0.count == 1 && $0[0].exact } ?? false
                if literal, !optional, let options { run += options[0].bytes }
                if !literal || optional || repeated {
                    consider([run])
                    run = []
                }
                // A group or class none of whose matches starts with nothing: one of its texts
                // stands in every match.
                if !literal, !optional, let options, options.allSatisfy({ !$0.bytes.isEmpty }) {
                    var seen = Set<[UInt8]>()
                    consider(options.map(\.bytes).filter { seen.insert($0).inserted })
                }
            }
            consider([run])
            return best
        }

        /// For `requiredTexts`: the item at `index` if it is one whose prefixes are known,
        /// else moves past whatever item is there and returns nil.
        package mutating func literalItem() -> [PatternLead]? {
            let start = index
            if let known = item() { return known }
            index = start
            skipItem()
            return nil
        }
    }
}
