import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct RecurringTextsTests {
    /// Whatever was seen before and whatever shares a slot, the text is the bytes' own: more
    /// distinct texts than slots, each asked for again after the others, long ones, empty ones.
    @Test func theTextIsAlwaysTheBytesOwn() {
        let texts = RecurringTexts()
        var words = (0..<3000).map { "-[PFUbiquitySetupAssistant method\($0):]" }
        words += ["", "a", "60b", String(repeating: "x", count: 256), String(repeating: "y", count: 257), String(repeating: "z", count: 5000)]
        for round in 0..<3 {
            for word in round == 1 ? words.reversed() : words {
                let bytes = Array(("<<" + word + ">>").utf8)
                let text = bytes.withUnsafeBytes { texts.text($0, 2..<bytes.count - 2) }
                expectEqual(text, word)
            }
        }
    }
}

@Suite struct HeaderTextsTests {
    /// A record keeps its header's texts as places in its own text (`RecordHead`): whatever
    /// lines came before, and whatever byte cap cut the record's text short (cutting its header
    /// line too), each record's header is the one a parser reads from its line alone, and every
    /// way of reading a text (`string`, `withBytes`, `has`) gives the same.
    @Test func eachRecordGetsItsOwnTexts() throws {
        var lines: [String] = []
        for process in ["J", "Jo", "Journal", "My App"] {
            for thread in ["60b", "0x1a", "b"] {
                for method in ["", "-[A b](1): ", "-[A bc](1): ", "-[Ab c:](12): "] {
                    lines.append("2014-03-02 09:14:07.318 \(process)[412:\(thread)] \(method)CoreData: Ubiquity:  x")
                    lines.append("2014-03-02 09:14:07.318 \(process)[412] \(method)UbiquityStoreManager: y")
                    lines.append("Mar  2 09:14:07 \(thread) \(process)[1] <Notice>: \(method)CoreData: error: z")
                    lines.append("Mar  2 09:14:07 \(thread)\(process) x[1]: \(method)w")
                    lines.append("2016-09-30 10:01:02.123456+0200 0x\(thread.count)f  Default  0x0  412  \(process): \(method)CoreData: Ubiquity: v")
                }
            }
        }
        lines += (0..<300).map { "2014-03-02 09:14:07.318 P\($0)[1:2] -[A m\($0 % 7)](3): CoreData: Ubiquity:  x" }
        lines.append("2014-03-02 09:14:07.318 P[1:2] -[A " + String(repeating: "m", count: 390) + "](3): v")
        lines.append("2014/03/02 09:14:07:318  [60b] [AppDelegate ubiquityStoreManager:log:]:123 Will load cloud store.")
        for maxBytes in [1 << 22, 70, 40, 24, 1] {
            let records = try assemble(lines.joined(separator: "\n"), limits: RecordAssembler.Limits(maxBytes: maxBytes))
            expectEqual(records.count, lines.count)
            for (record, line) in zip(records, lines) {
                let alone = Array(line.utf8).withUnsafeBytes { HeaderParser().parse($0)?.header }
                expect(alone != nil, "\(line)")
                expectEqual(record.header, alone, "\(maxBytes) \(line)")
                for field in HeaderField.allCases {
                    let text = record.string(field)
                    expectEqual(record.has(field), (text != nil))
                    let bytes = record.withBytes(of: field) { $0.map { Array($0) } }
                    expectEqual(bytes.map { String(decoding: $0, as: UTF8.self) }, text, "\(maxBytes) \(field) \(line)")
                }
                expect(record.time == alone?.time && record.pid == alone?.pid && record.sourceLine == alone?.sourceLine)
            }
        }
    }

    /// A kept text matches exactly the bytes it was made of: at every length (the two words of a
    /// short one overlap or leave bytes out otherwise), with any one byte changed, and a text
    /// one byte longer or shorter.
    @Test func aKeptTextMatchesItsOwnBytesAlone() {
        for length in 0...40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: 0x41 + $0) }
            bytes.withUnsafeBytes { original in
                let kept = KeptText(original)
                expect(kept.matches(original), "\(length)")
                expect(!KeptText().matches(original))
                for place in 0..<length {
                    var changed = bytes
                    changed[place] ^= 0x20
                    expect(!changed.withUnsafeBytes { kept.matches($0) }, "\(length) \(place)")
                }
                expect(!(bytes + [0x41]).withUnsafeBytes { kept.matches($0) })
                if length > 0 { expect(!bytes.dropLast().withUnsafeBytes { kept.matches($0) }) }
            }
        }
    }

    /// Setting one text of a header changes that one, and not a header it was copied from.
    @Test func settingATextChangesThatHeaderAlone() {
        let original = Header(style: .nslog, process: "Journal", thread: "60b", method: "-[A b]")
        var changed = original
        changed.thread = "1a"
        expectEqual(changed.thread, "1a")
        expect(changed.process == "Journal" && changed.method == "-[A b]")
        expectEqual(original.thread, "60b")
        expect(changed != original)
        changed.thread = "60b"
        expectEqual(changed, original)
        var emptied = Header(style: .bare, level: "Default")
        emptied.level = nil
        expectEqual(emptied, Header(style: .bare))
    }
}

@Suite struct RecordAssemblerTests {
    @Test func continuationLinesJoinTheirRecord() throws {
        let records = try assemble("""
        2014-03-02 09:14:07.318 Journal[412:60b] CoreData: Ubiquity:  first
        continued
        \tand more
        2014-03-02 09:14:07.400 Journal[412:60b] second
        """)
        expectEqual(records.count, 2)
        expectEqual(records[0].firstLine, 1)
        expectEqual(records[0].lineCount, 3)
        expectEqual(records[0].bodyString, "first\ncontinued\n\tand more")
        expectEqual(records[1].firstLine, 4)
        expectEqual(records[1].lineCount, 1)
    }

    @Test func linesBeforeAnyHeaderAreARecordOfTheirOwn() throws {
        let records = try assemble("pasted text\nmore\n2014-03-02 09:14:07.318 Journal[412:60b] hello\n")
        expectEqual(records.map(\.lineCount), [2, 1])
        expect(records[0].header == nil)
    }

    @Test(arguments: [1, 3, 17, 4096])
    func everyLineBelongsToExactlyOneRecord(chunkSize: Int) throws {
        let text = "a\n2014-03-02 09:14:07.318 J[1:2] b\nc\n\nMar  2 09:14:07 pad J[1] <Notice>: d\ne"
        let records = try assemble(text, chunkSize: chunkSize)
        expectEqual(records.reduce(0) { $0 + $1.lineCount }, 6)
        var next = 1
        for record in records {
            expectEqual(record.firstLine, next)
            next += record.lineCount
        }
    }

    @Test func aHugeRecordIsCappedMarkedAndStillCountsEveryLine() throws {
        let body = (1...50).map { "line \($0)" }.joined(separator: "\n")
        let records = try assemble("2014-03-02 09:14:07.318 J[1:2] CoreData: Ubiquity:  big\n\(body)\nCoreData: Ubiquity: next",
                                   limits: RecordAssembler.Limits(maxLines: 10, maxBytes: 1 << 20))
        expectEqual(records.count, 2)
        expectEqual(records[0].lineCount, 51)
        expect(records[0].isTruncated)
        expectEqual(records[0].textString.split(separator: "\n").count, 10)
        expectEqual(records[1].firstLine, 52)
    }

    /// Records are ranges of the assembler's chunks (`RecordText`): records kept while many
    /// chunks' worth come after them keep their bytes, a chunk is not written again while a
    /// record shows it, and a record bigger than a chunk, or one that moves to a fresh chunk
    /// part-way, is whole.
    @Test(arguments: [4096, 1 << 16, 1 << 20])
    func keptRecordsKeepTheirBytesWhileChunksAreReused(chunkSize: Int) throws {
        var lines: [String] = []
        var expected: [String] = []
        for number in 0..<12_000 {
            let header = "2014-03-02 09:14:07.318 Journal[412:60b] CoreData: Ubiquity:  record \(number) "
            var record = [header + String(repeating: Character(UnicodeScalar(UInt8(97 + number % 26))), count: number % 300)]
            if number % 7 == 0 { record.append("\tcontinued \(number)") }
            if number == 5_000 {
                // Bigger than a chunk (1 MiB): 3,000 lines of 700 bytes.
                record += (0..<3_000).map { "\t" + String(repeating: "x", count: 698) + "\($0 % 10)" }
            }
            lines += record
            expected.append(record.joined(separator: "\n"))
        }
        let records = try assemble(lines.joined(separator: "\r\n") + "\r\n", chunkSize: chunkSize)
        expectEqual(records.count, expected.count)
        expectEqual(records.map(\.textString), expected)
        expect(records[5_000].text.count > 2_000_000 && !records[5_000].isTruncated)
    }

    /// A record whose lines lie one after another where they were read is that range, not a
    /// copy: its text starts where its first line was handed out. With CR LF line ends too, as
    /// the reader moves each line over the CR before it.
    @Test(arguments: ["\n", "\r\n"])
    func aRecordIsTheRangeItsLinesWereReadInto(lineEnd: String) throws {
        let text = ["2014-03-02 09:14:07.318 Journal[412:60b] CoreData: Ubiquity:  first", "\tmore", "\tand more",
                    "2014-03-02 09:14:08.318 Journal[412:60b] CoreData: Ubiquity:  second", "\tlast"].joined(separator: lineEnd)
        let reader = LineReader()
        let assembler = RecordAssembler(input: "t")
        var source = MemorySource(text, chunkSize: 7)
        var starts: [UnsafeRawPointer?] = []  // where each record's first line was handed out
        var records: [Record] = []
        try reader.readLines(from: &source) { line in
            let closed = assembler.append(line)
            if let closed { records.append(closed) }
            if line.number == 1 || closed != nil { starts.append(line.bytes.baseAddress) }
        }
        records += [try require(assembler.finish())]
        expectEqual(records.map(\.textString), ["2014-03-02 09:14:07.318 Journal[412:60b] CoreData: Ubiquity:  first\n\tmore\n\tand more",
                                               "2014-03-02 09:14:08.318 Journal[412:60b] CoreData: Ubiquity:  second\n\tlast"])
        expectEqual(records.map { $0.text.withUnsafeBytes(\.baseAddress) }, starts)
    }

    @Test func aPreviewKeepsItsBytesWhenItsRecordMovesOnToAFreshChunk() throws {
        let assembler = RecordAssembler(input: "t")
        func line(_ text: String, _ number: Int) -> Record? {
            Array(text.utf8).withUnsafeBytes { assembler.append(Line(bytes: $0, number: number, isTruncated: false)) }
        }
        _ = line("2014-03-02 09:14:07.318 Journal[412:60b] CoreData: Ubiquity:  x", 1)
        let preview = try require(assembler.preview())
        let shown = preview.textString
        let long = "\t" + String(repeating: "y", count: 600_000)
        _ = line(long, 2)
        _ = line(long, 3)  // past the first chunk: the open record is copied to a fresh one
        let closed = try require(line("2014-03-02 09:14:08.318 Journal[412:60b] CoreData: Ubiquity:  z", 4))
        expectEqual(preview.textString, shown)
        expectEqual(closed.textString, [shown, long, long].joined(separator: "\n"))
    }

    @Test func byteCapCutsTheRecord() throws {
        let records = try assemble("CoreData: Ubiquity: " + String(repeating: "z", count: 500),
                                   limits: RecordAssembler.Limits(maxLines: 100, maxBytes: 100))
        expectEqual(records[0].text.count, 100)
        expect(records[0].isTruncated)
    }
}

@Suite struct RecordTextTests {
    /// `RecordText.split` finds separators with memchr; it must give what the standard
    /// library's `split` of the same bytes gives, for every kind of cut.
    @Test func splitIsTheStandardLibrarysSplit() {
        let texts = ["", "\n", "\n\n", "a", "a\n", "\na", "a\nb", "a\n\nb\n", "\n\na\n\n\nb\nc\n\n", "ab\ncd\nef\ngh"]
        for text in texts {
            let bytes = Array(text.utf8)
            let whole = RecordText(bytes)
            // A slice too: its indices are those of the whole text, as an ArraySlice's are.
            for (mine, theirs) in [(whole, bytes[...]), (whole[min(1, bytes.count)...], bytes[min(1, bytes.count)...])] {
                for maxSplits in [0, 1, 2, 3, Int.max] {
                    for omitting in [false, true] {
                        let got = mine.split(separator: 0x0A, maxSplits: maxSplits, omittingEmptySubsequences: omitting)
                        let expected = theirs.split(separator: 0x0A, maxSplits: maxSplits, omittingEmptySubsequences: omitting)
                        expectEqual(got.map(Array.init), expected.map(Array.init), "\(text.debugDescription) \(maxSplits) \(omitting)")
                        expectEqual(got.map(\.startIndex), expected.map(\.startIndex), "\(text.debugDescription) \(maxSplits) \(omitting)")
                    }
                }
            }
        }
    }

    @Test func indicesSlicesAndSearchesActAsAnArraySlices() {
        let bytes = Array("CoreData: Ubiquity: x\nsecond line".utf8)
        let text = RecordText(bytes)
        expect(text.count == bytes.count && text.startIndex == 0 && Array(text) == bytes)
        let tail = text[10...]
        expect(tail.startIndex == 10 && tail.first == bytes[10])
        expectEqual(tail.firstIndex(of: 0x0A), bytes.firstIndex(of: 0x0A))
        expectEqual(tail[..<21].withUnsafeBytes { Array($0) }, Array(bytes[10..<21]))
        expect(!text[..<21].contains(0x0A) && text.contains(0x0A))
        expectEqual(String(decoding: tail, as: UTF8.self), String(decoding: bytes[10...], as: UTF8.self))
        expectEqual(text[22...], RecordText(Array("second line".utf8)))
    }
}
