// Searching and trimming Strings on their UTF-8 bytes, for ASCII needles and trim sets: the
// generic Character-wise ways walk grapheme clusters, and these run on every record.

extension String {
    /// Whether the ASCII text `needle` stands in the string: `firstRange(ofASCII:)` without the
    /// indexes it makes of what it finds (a CKError's cause asks its two texts for up to four
    /// phrases).
    func containsASCII(_ needle: StaticString) -> Bool {
        let found = utf8.withContiguousStorageIfAvailable { haystack in
            RareByteSearch.firstOffset(of: UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount),
                                       in: UnsafeRawBufferPointer(haystack)) != nil
        }
        return found ?? (firstRange(ofASCII: needle) != nil)
    }
}
