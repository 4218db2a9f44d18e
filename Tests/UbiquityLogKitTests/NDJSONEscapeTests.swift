// JSON string escapes in `log show --style ndjson` messages, including the broken ones a
// truncated or hand-edited export holds.
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct NDJSONEscapeTests {
    private func message(_ escaped: String) throws -> String {
        let line = #"{"eventMessage":""# + escaped + #"","processImagePath":"\/A\/Journal","processID":1,"messageType":"Default"}"#
        final class Collect: Reporter {
            var bodies: [String] = []
            func report(_ item: ClassifiedRecord) { bodies.append(item.record.bodyString) }
            func finish(_ summary: RunSummary) {}
        }
        let collect = Collect()
        let run = LogRun(catalog: try Catalog.standard(), reporters: [collect])
        run.inputFormat = .ndjson
        var source = MemorySource(line + "\n")
        try run.process(&source, name: "t")
        run.finish()
        return try require(collect.bodies.first)
    }

    @Test func aSurrogatePairIsOneCharacter() throws {
        try expect(message(#"a\ud83d\ude00b"#).hasSuffix("a😀b"))
    }

    @Test func aHighSurrogateWithoutItsLowHalfLeavesTheNextEscapeAlone() throws {
        try expect(message(#"x\ud83d\ny"#).hasSuffix("x\u{FFFD}\ny"))
        try expect(message(#"x\ud83d\u0041y"#).hasSuffix("x\u{FFFD}Ay"))
        try expect(message(#"x\ud83d\ud83d\ude00y"#).hasSuffix("x\u{FFFD}😀y"))
        try expect(message(#"x\ude00y"#).hasSuffix("x\u{FFFD}y"), "a lone low surrogate")
    }
}
