// `--kind`, `--category`, `--grep`: which records the reporters show. The summary still
// counts every record, so filtering the view never changes the findings or exit status.
import PCRE2

public final class DisplayFilter {
    public let kinds: Set<String>?
    public let categories: Set<Category>?
    private let grep: Matcher?
    /// Records on which the `--grep` pattern hit PCRE2's match limit (shown, not filtered).
    /// Updated by the summarising thread; read after the run has finished.
    public private(set) var grepGaveUp = 0

    /// `grep` is PCRE2 syntax, matched against each record's whole text.
    public init(kinds: Set<String>? = nil, categories: Set<Category>? = nil, grep: String? = nil) throws(PCRE2Error) {
        self.kinds = kinds
        self.categories = categories
        self.grep = try grep.map { pattern throws(PCRE2Error) in Matcher(try Regex(pattern, options: .multiline)) }
        if let kinds, !kinds.contains(EventKind.app.id) {
            showsAppLines = false
        } else if let categories, !categories.contains(EventKind.app.category) {
            showsAppLines = false
        } else {
            showsAppLines = grep == nil ? true : nil
        }
    }

    /// Whether `shows` is true of the app's lines (`EventKind.app`), told without their
    /// records; nil when it reads each one's text (`--grep`). Asked for every run of plain
    /// records, so told once.
    let showsAppLines: Bool?

    public func shows(_ item: ClassifiedRecord) -> Bool {
        let kind = item.event.kind
        if let kinds, !kinds.contains(kind.id) { return false }
        if let categories, !categories.contains(kind.category) { return false }
        if let grep {
            do {
                return try item.record.text.withUnsafeBytes { bytes throws(PCRE2Error) in try grep.matches(bytes) }
            } catch {
                // The pattern gave up on this record (it backtracked past the match limit): it
                // may or may not match, so the record is shown rather than hidden, and counted
                // so that the run can say how many records were shown unfiltered.
                grepGaveUp += 1
                return true
            }
        }
        return true
    }
}
