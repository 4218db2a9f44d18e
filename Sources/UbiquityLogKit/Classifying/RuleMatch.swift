import PCRE2

/// What a rule's builder sees of a match: its named groups as text, and the record.
/// Valid only during the builder call.
public struct RuleMatch {
    public let record: Record
    let subject: UnsafeRawBufferPointer
    /// Where `subject` starts in the record's text.
    let subjectStart: Int
    /// The rule's own matcher, holding the match.
    let matcher: Matcher
    /// The rule's named groups ordered by their first number.
    let orderedGroups: [NamedGroup]
    /// Whether any part of the run reads the parts of this rule's event that only a reporter
    /// prints (`Reporter.readsDetails(of:)`): the attributes of dumped objects, a resolved
    /// relationship's value. When none does, a builder leaves them empty: making them is most
    /// of what it costs, and `-q` or the default timeline never show them.
    public let readsDetails: Bool

    /// The first error printed in the message from byte `start` (with its reason, file and
    /// underlying error).
    public func error(from start: Int = 0) -> ErrorInfo? {
        Extract.error(in: subject, from: min(start, subject.count))
    }

    /// The first error printed after the match, else the first in the message
    /// (`Extract.error(in:after:)`).
    func errorAfterMatch() -> ErrorInfo? {
        Extract.error(in: subject, after: matchEnd)
    }

    /// The text of a named group, or nil when it did not take part in the match.
    public subscript(_ name: String) -> String? {
        guard let range = range(name) else { return nil }
        return ByteText.string(UnsafeRawBufferPointer(rebasing: subject[range]))
    }

    /// A named group read as a whole number.
    public func int(_ name: String) -> Int? {
        guard let range = range(name) else { return nil }
        return decimal(subject, range)
    }

    /// The whole message (the record after its header and marker), for rules that parse
    /// more than their pattern captures (object dumps, errors).
    public var message: String { ByteText.string(subject) }

    /// The message as bytes, for parsers that scan long dumps.
    public var messageBytes: UnsafeRawBufferPointer { subject }

    /// Where the match ends in the message.
    public var matchEnd: Int { matcher.range(ofGroup: 0)?.upperBound ?? subject.count }

    /// The bytes from the end of the match to the end of the message.
    public var restBytes: UnsafeRawBufferPointer {
        guard let whole = matcher.range(ofGroup: 0) else { return UnsafeRawBufferPointer(rebasing: subject[subject.count...]) }
        return UnsafeRawBufferPointer(rebasing: subject[whole.upperBound...])
    }

    /// The text from the end of the match to the end of the message.
    public var rest: String {
        guard let whole = matcher.range(ofGroup: 0) else { return "" }
        return ByteText.string(UnsafeRawBufferPointer(rebasing: subject[whole.upperBound...]))
    }

    /// Found among the rule's own few groups, names compared as they stand (short names are
    /// compared as two words), not through the pattern's table by name, which hashes the name
    /// at each lookup: builders ask for a group or two per record.
    func range(_ name: String) -> Range<Int>? {
        for group in orderedGroups where group.name == name { return matcher.range(ofFirstOf: group.numbers) }
        return nil
    }

    /// The record's text at `range` of the message: a fact as a slice, no String made.
    func span(_ range: Range<Int>) -> RecordText {
        let start = record.text.startIndex + subjectStart
        return record.text[start + range.lowerBound..<start + range.upperBound]
    }

    /// Whether a named group matched the text `literal` (nil when it did not take part),
    /// compared on the bytes.
    func group(_ name: String, is literal: StaticString) -> Bool? {
        guard let range = range(name) else { return nil }
        return range.count == literal.utf8CodeUnitCount
            && UnsafeRawBufferPointer(rebasing: subject[range]).elementsEqual(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    struct NamedGroup: Sendable {
        let name: String
        let numbers: [Int]
    }

    /// Every named group that matched, in the order of the group numbers (of a name used by
    /// several groups, the first that matched says where it stands).
    /// `leading` comes first; the group named `skipped` is left out. (The groups found are
    /// gathered on the stack and the fields made in one array of the right size: this runs
    /// for most records.)
    /// `spare`: room for the fields the builder adds after these (its facts, an error), made
    /// with the array: an array grown by appending past its room is allocated again and
    /// copied (see `FieldList.roomForFacts`).
    func fields(numeric: Set<String>, skipping skipped: String? = nil, leading: Field? = nil, spare: Int = 0) -> [Field] {
        withUnsafeTemporaryAllocation(of: (number: Int, group: Int, range: Range<Int>).self,
                                      capacity: orderedGroups.count) { named in
            var count = 0
            for (index, group) in orderedGroups.enumerated() where group.name != skipped {
                for number in group.numbers {
                    if let range = matcher.range(ofGroup: number) {
                        named.initializeElement(at: count, to: (number, index, range))
                        count += 1
                        break
                    }
                }
            }
            var found = UnsafeMutableBufferPointer(rebasing: named[..<count])
            if count > 1 { found.sort { $0.number < $1.number } }
            var fields: [Field] = []
            fields.reserveCapacity(count + (leading == nil ? 0 : 1) + spare)
            if let leading { fields.append(leading) }
            for (_, index, range) in found {
                let name = orderedGroups[index].name
                // An empty set is not asked: Set.contains hashes the name all the same (most
                // rules have no numeric group).
                if !numeric.isEmpty, numeric.contains(name), let value = decimal(subject, range) {
                    fields.append(Field(name, .int(value)))
                } else {
                    fields.append(Field(name, .span(span(range))))
                }
            }
            _ = found.deinitialize()
            return fields
        }
    }
}
