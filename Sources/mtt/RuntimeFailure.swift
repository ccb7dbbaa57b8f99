import Foundation

/// A failure while running a command, reported as one line.
struct RuntimeFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }

    /// Any error as a single line, whatever its description holds.
    static func oneLine(_ error: any Error) -> String {
        String(describing: error)
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }
}
