// Pattern text that rules of several groups share.

enum PatternPiece {
    /// An object reference as an earlier OS prints it before the message on the same line:
    /// `<_PFUbiquityRecordsExporter: 0x1d5a3b40>: `.
    static let objectPrefix = #"(?:<[^>\n]{1,200}>:?[ ]*)?"#
    /// A message that is nothing but an object's description: `<Class: 0x…>` and its
    /// tab-indented fields (what methods that log a bare `%@` print).
    static let descriptionOnly = #"\A<[^\n]*>[^\n]*(?:\n\t[^\n]*)*\z"#
    /// `store` → `cloud` or `local`.
    static let location = #"(?<store>cloud|local)"#
}
