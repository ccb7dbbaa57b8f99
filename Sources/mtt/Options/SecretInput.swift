import Foundation

/// Secrets come from a file or the environment, never from the command line (where `ps` and shell
/// history would keep them), and are never logged. Every secret file follows one rule: only its
/// owner may read it (mode 600 or 400), as ssh asks of a private key.
enum SecretInput {
    static func read(file: String?, environment variable: String, what: String) throws -> String {
        if let file {
            let secret = try contents(of: file, what: what).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !secret.isEmpty else { throw RuntimeFailure("\(file) is empty; it should hold \(what)") }
            return secret
        }
        if let value = environment(variable) {
            return value
        }
        throw RuntimeFailure("\(what) is missing: put it in a file and give its path, or set \(variable)")
    }

    /// A secret from the environment; an empty variable is no secret.
    static func environment(_ variable: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty else { return nil }
        return value
    }

    /// The text of a secret file, refused when others may read it.
    static func contents(of file: String, what: String) throws -> String {
        var info = stat()
        guard stat(file, &info) == 0 else {
            throw RuntimeFailure("cannot read \(what) from \(file): \(String(cString: strerror(errno)))")
        }
        if info.st_mode & 0o077 != 0 {
            throw RuntimeFailure("\(file) holds \(what) but others can read it: run chmod 600 \(file)")
        }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw RuntimeFailure("cannot read \(what) from \(file)")
        }
        return text
    }
}
