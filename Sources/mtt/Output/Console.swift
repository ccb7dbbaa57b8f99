import Foundation

/// Unbuffered lines on stdout and stderr, so a user piping `mtt gps` sees each event as it happens.
enum Console {
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
