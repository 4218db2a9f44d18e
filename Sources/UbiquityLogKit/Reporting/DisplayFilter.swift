// `--kind`, `--category`, `--grep`: which records the reporters show. The summary still
// counts every record, so filtering the view never changes the findings or exit status.
import PCRE2

public final class DisplayFilter {
    public var kinds: Set<String>?
    public var categories: Set<Category>?
    private let grep: Matcher?

    /// `grep` is PCRE2 syntax, matched against each record's whole text.
    public init(kinds: Set<String>? = nil, categories: Set<Category>? = nil, grep: String? = nil) throws(PCRE2Error) {
        self.kinds = kinds
        self.categories = categories
        self.grep = try grep.map { pattern throws(PCRE2Error) in Matcher(try Regex(pattern, options: .multiline)) }
    }

    public func shows(_ item: ClassifiedRecord) -> Bool {
        let kind = item.event.kind
        if let kinds, !kinds.contains(kind.id) { return false }
        if let categories, !categories.contains(kind.category) { return false }
        if let grep {
            // A pattern that hits the match limit on a record does not show it.
            return item.record.text.withUnsafeBytes { (try? grep.matches($0)) == true }
        }
        return true
    }
}
