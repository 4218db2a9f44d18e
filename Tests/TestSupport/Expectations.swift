import Testing

// The tests check with these functions, not with Swift Testing's `#expect` and `#require`
// macros: every macro expansion costs the compiler tens of milliseconds, and over the suite's
// thousands of checks that was a large share of a clean debug build (docs/development.md).
// Each records its issue at the caller's line, as the macros do.

/// Where to record an issue: `given`, or the caller's line.
private func place(_ given: SourceLocation?, _ fileID: String, _ filePath: String, _ line: Int, _ column: Int) -> SourceLocation {
    given ?? SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
}

private func failure(_ what: String, _ comment: String) -> Comment {
    Comment(rawValue: comment.isEmpty ? what : "\(what): \(comment)")
}

/// Records an issue unless `condition` holds.
public func expect(
    _ condition: Bool, _ comment: @autoclosure () -> String = "",
    sourceLocation: SourceLocation? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) {
    if !condition { Issue.record(failure("Expectation failed", comment()), sourceLocation: place(sourceLocation, fileID, filePath, line, column)) }
}

/// Records an issue, with both values, unless they are equal.
public func expectEqual<T: Equatable>(
    _ actual: T, _ expected: T, _ comment: @autoclosure () -> String = "",
    sourceLocation: SourceLocation? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) {
    if actual != expected {
        Issue.record(failure("\(String(reflecting: actual)) is not \(String(reflecting: expected))", comment()),
                     sourceLocation: place(sourceLocation, fileID, filePath, line, column))
    }
}

/// The test cannot go on past a requirement that failed; its issue is recorded at the caller.
public struct RequirementFailed: Error, CustomStringConvertible {
    public var description: String { "a requirement failed (its issue is recorded at its line)" }
}

/// Records an issue and throws unless `condition` holds.
public func require(
    _ condition: Bool, _ comment: @autoclosure () -> String = "",
    sourceLocation: SourceLocation? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) throws {
    guard condition else {
        Issue.record(failure("Requirement failed", comment()), sourceLocation: place(sourceLocation, fileID, filePath, line, column))
        throw RequirementFailed()
    }
}

/// `value` unwrapped; records an issue and throws when it is nil.
public func require<T>(
    _ value: T?, _ comment: @autoclosure () -> String = "",
    sourceLocation: SourceLocation? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) throws -> T {
    guard let value else {
        Issue.record(failure("Required value was nil", comment()), sourceLocation: place(sourceLocation, fileID, filePath, line, column))
        throw RequirementFailed()
    }
    return value
}
