import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct LineReaderTests {
    let text = "first line\nsecond\n\nfourth after an empty one\nlast without newline"

    @Test(arguments: [1, 2, 3, 5, 7, 64, 1 << 16])
    func linesAreTheSameWhateverTheChunkSize(chunkSize: Int) throws {
        let lines = try readLines(text, chunkSize: chunkSize)
        expectEqual(lines.map(\.text), ["first line", "second", "", "fourth after an empty one", "last without newline"])
        expectEqual(lines.map(\.number), [1, 2, 3, 4, 5])
    }

    @Test func crlfLineEndsAreStripped() throws {
        let lines = try readLines("a\r\nb\r\n\r\nc\r", chunkSize: 2)
        expectEqual(lines.map(\.text), ["a", "b", "", "c"])
    }

    @Test func crInsideALineIsKept() throws {
        try expectEqual(readLines("a\rb\n").map(\.text), ["a\rb"])
    }

    /// A file of the classic Mac OS ends its lines with CR alone: each CR ends a line there,
    /// however the input is cut into reads; an input with an LF keeps its lone CRs.
    @Test(arguments: [1, 2, 3, 5, 7, 64, 1 << 16])
    func crAloneEndsLinesWhereNoLFDoes(chunkSize: Int) throws {
        let lines = try readLines("first\rsecond\r\rlast", chunkSize: chunkSize)
        expectEqual(lines.map(\.text), ["first", "second", "", "last"])
        expectEqual(lines.map(\.number), [1, 2, 3, 4])
        try expectEqual(readLines("a\rb\r", chunkSize: chunkSize).map(\.text), ["a", "b"])
        try expectEqual(readLines("a\rb\nc\rd", chunkSize: chunkSize).map(\.text), ["a\rb", "c\rd"])
        try expectEqual(readLines("a\r\nb\r\n", chunkSize: chunkSize).map(\.text), ["a", "b"])
        try expectEqual(readLines("a\r", chunkSize: chunkSize).map(\.text), ["a"])
        // An LF past the input's first 64 KiB is too late: the CRs before it end lines.
        let window = LineReader.LineEnds.window
        let late = String(repeating: "x", count: window - 2) + "\r" + String(repeating: "y", count: 10) + "\nz"
        try expectEqual(readLines(late, chunkSize: chunkSize).map(\.text.count), [window - 2, 10, 1])
        let early = String(repeating: "x", count: window - 20) + "\ry\nz"
        try expectEqual(readLines(early, chunkSize: chunkSize).map(\.text.count), [window - 18, 1])
    }

    /// With a longest line under 64 KiB, a first line is cut as overlong before 64 KiB are
    /// read: its line ends are told from the bytes up to the limit, however they are read.
    @Test(arguments: [1, 6, 13, 200])
    func crLineEndsAreToldBeforeAFirstLineIsCut(chunkSize: Int) throws {
        let limits = LineReader.Limits(chunkSize: chunkSize, maxLineLength: 20)
        let text = "first\rsecond\r" + String(repeating: "x", count: 30) + "\rlast\r"
        try expectEqual(readLines(Array(text.utf8), limits: limits).map(\.number), [1, 2, 3, 4])
        // A CR only past the limit: the input's line ends are LF's, and its one line is cut.
        let late = String(repeating: "y", count: 25) + "\rz"
        try expectEqual(readLines(Array(late.utf8), limits: limits).map(\.number), [1])
    }

    @Test func aFinalNewlineAddsNoLine() throws {
        try expectEqual(readLines("a\nb\n").count, 2)
        try expectEqual(readLines("a\nb").count, 2)
        try expect(readLines("").isEmpty)
        try expectEqual(readLines("\n").map(\.text), [""])
    }

    @Test func invalidUTF8IsPassedThroughAsBytes() throws {
        let bytes: [UInt8] = [0x61, 0xFF, 0xC0, 0x0A, 0xE2, 0x82, 0x0A]
        let lines = try readLines(bytes, chunkSize: 3)
        expectEqual(lines.map(\.bytes), [[0x61, 0xFF, 0xC0], [0xE2, 0x82]])
    }

    @Test func anOverlongLineIsCutCountedOnceAndReadingGoesOn() throws {
        let long = String(repeating: "x", count: 100)
        let lines = try readLines(Array("short\n\(long)\nafter\n".utf8),
                                  limits: LineReader.Limits(chunkSize: 7, maxLineLength: 16))
        expectEqual(lines.map(\.number), [1, 2, 3])
        expectEqual(lines[1].bytes.count, 16)
        expect(lines[1].isTruncated)
        expectEqual(lines[2].text, "after")
        expect(!lines[2].isTruncated)
    }

    @Test func anOverlongLineThatArrivesInOneChunkIsCutToo() throws {
        let lines = try readLines(Array((String(repeating: "y", count: 40) + "\nz").utf8),
                                  limits: LineReader.Limits(chunkSize: 1 << 10, maxLineLength: 10))
        expectEqual(lines.map(\.bytes.count), [10, 1])
        expect(lines[0].isTruncated)
    }

    @Test func aReadErrorNamesTheInputAndLine() throws {
        struct Failing: ByteSource {
            var calls = 0
            mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
                calls += 1
                if calls > 1 { throw InputError(input: "device.log", reason: "I/O error") }
                let bytes = Array("one\ntwo\n".utf8)
                buffer.copyBytes(from: bytes)
                return bytes.count
            }
        }
        var source = Failing()
        let reader = LineReader()
        var seen = 0
        #expect(throws: InputError(input: "device.log", reason: "I/O error", line: 3)) {
            try reader.readLines(from: &source) { _ in seen += 1 }
        }
        expectEqual(seen, 2)
    }
}
