// Gzip inputs read as `gzip -dc` reads them: every member, what came before damage kept, and
// nothing after the last member dropped without an error. Built from the example fixture's
// compressed bytes, read in chunks of every size so that member and header boundaries fall
// on chunk boundaries.
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct GzipInputTests {
    let plain = Array(try! Data(contentsOf: URL(fileURLWithPath: Binary.fixture("example.log"))))
    let compressed = Array(try! Data(contentsOf: URL(fileURLWithPath: Binary.fixture("example.log.gz"))))

    /// Decompresses `bytes` read `chunkSize` at a time: what came out, and the error if any.
    func inflate(_ bytes: [UInt8], chunkSize: Int, outputSize: Int = 4096) -> (output: [UInt8], error: InputError?) {
        let source = GzipSource(name: "x.gz", compressed: MemorySource(bytes, chunkSize: chunkSize), inputSize: max(2, chunkSize))
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: outputSize)
        while true {
            do {
                let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
                if count == 0 { return (output, nil) }
                output += buffer[0..<count]
            } catch {
                return (output, error as? InputError)
            }
        }
    }

    @Test(arguments: [1, 2, 3, 7, 1 << 17])
    func aWholeFileDecompresses(chunkSize: Int) {
        let result = inflate(compressed, chunkSize: chunkSize)
        expect(result.error == nil)
        expectEqual(result.output, plain)
    }

    @Test(arguments: [1, 2, 5, 1 << 17])
    func everyMemberOfAConcatenationIsRead(chunkSize: Int) {
        let result = inflate(compressed + compressed + compressed, chunkSize: chunkSize)
        expect(result.error == nil)
        expectEqual(result.output, plain + plain + plain)
    }

    @Test(arguments: [1, 3, 1 << 17])
    func textAfterAMemberIsAnErrorNotDropped(chunkSize: Int) {
        for trailing in [Array("2014-03-02 09:14:05.001 more\n".utf8), [0x1F], [0, 0, 0, 0]] {
            let result = inflate(compressed + trailing, chunkSize: chunkSize)
            expectEqual(result.output, plain, "the member before is read whole")
            expectEqual(result.error?.reason, "gzip: data after the compressed data is not gzip; it was not read")
        }
    }

    @Test(arguments: [1, 4, 1 << 17])
    func aBadChecksumKeepsWhatWasDecompressed(chunkSize: Int) {
        var damaged = compressed
        damaged[damaged.count - 8] ^= 0xFF  // the CRC-32 in the trailer
        let result = inflate(damaged, chunkSize: chunkSize)
        expectEqual(result.output, plain)
        expectEqual(result.error?.reason.hasPrefix("gzip: incorrect data check"), true)
    }

    @Test func damageInsideTheDataKeepsWhatCameBefore() {
        var damaged = compressed
        for index in stride(from: damaged.count / 2, to: damaged.count / 2 + 16, by: 1) { damaged[index] = 0xFF }
        let result = inflate(damaged, chunkSize: 1 << 17, outputSize: 64)
        expect(result.error != nil)
        expect(!result.output.isEmpty && result.output == Array(plain.prefix(result.output.count)), "a prefix of the text, nothing invented")
    }

    @Test(arguments: [1, 1 << 17])
    func aCutOffFileIsAnErrorAfterWhatItHolds(chunkSize: Int) {
        let result = inflate(Array(compressed.prefix(compressed.count - 20)), chunkSize: chunkSize)
        expectEqual(result.error?.reason, "gzip: unexpected end of file")
        expectEqual(result.output, Array(plain.prefix(result.output.count)))
        expect(result.output.count > plain.count / 2)
    }

    @Test func gzipIsToldFromTextByItsFirstBytesWhichAreKept() throws {
        var text = ReplayingSource(MemorySource(plain, chunkSize: 1))
        let textIsGzip = text.sniffGzipMagic()
        expect(!textIsGzip)
        var gzip = ReplayingSource(MemorySource(compressed, chunkSize: 1))
        let gzipIsGzip = gzip.sniffGzipMagic()
        expect(gzipIsGzip)
        var oneByte = ReplayingSource(MemorySource([0x1F], chunkSize: 1))
        let oneByteIsGzip = oneByte.sniffGzipMagic()
        expect(!oneByteIsGzip)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var read: [UInt8] = []
        while true {
            let count = try buffer.withUnsafeMutableBytes { try text.read(into: $0) }
            if count == 0 { break }
            read += buffer[0..<count]
        }
        expectEqual(read, plain, "the sniffed bytes are handed out again")
    }
}
