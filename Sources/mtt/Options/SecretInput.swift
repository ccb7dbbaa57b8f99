import Foundation

/// Secrets come from a file or the environment, never from the command line (where `ps` and shell
/// history would keep them), and are never logged.
enum SecretInput {
    static func read(file: String?, environment variable: String, what: String) throws -> String {
        if let file {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw RuntimeFailure("cannot read \(what) from \(file)")
            }
            let secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !secret.isEmpty else { throw RuntimeFailure("\(file) is empty; it should hold \(what)") }
            return secret
        }
        if let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty {
            return value
        }
        throw RuntimeFailure("\(what) is missing: put it in a file and give its path, or set \(variable)")
    }
}
