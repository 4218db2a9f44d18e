// The hint under an error in the timeline: a catch-all code's advice chosen by a phrase of the
// error's reason.
import Testing
import TestSupport
@testable import UbiquityLogKit

/// The hint under an error finds a code's reason hint by its phrase's bytes where that tells
/// what `String.contains` tells in the catalogue's module (`ErrorCode.holds`).
@Suite struct ReasonHintTests {
    @Test func aPhraseIsHeldAsStringContainsTellsIt() {
        let phrases = ErrorCode.all.flatMap { $0.reasonHints.map(\.phrase) } + ["", "e", "ab", "b\r", "\n", "é", "e\u{301}", "ｅ"]
        let texts = ["", "a", "ab", "xab\r\nc", "ab\r\n", "b\r\nx", "cafe\u{301}", "café", "e\u{301}x", "ｅrror",
                     "validation error missing attribute values on mandatory destination attribute",
                     "the model used to open the store is incompatible with the one used to create the store",
                     "constraint unique violation: \u{2019}quoted\u{2019}", "can't find or automatically infer mapping model for migration"]
            + ErrorCode.all.flatMap { $0.reasonHints.map { "reason: " + $0.phrase + "." } }
        for text in texts {
            for phrase in phrases {
                expectEqual(ErrorCode.holds(text, phrase), ErrorCode.contains(text, phrase), "\(text.debugDescription) holds \(phrase.debugDescription)")
            }
        }
    }
}
