/// Unbuffered lines on stdout and stderr, so a user piping `mtt gps` sees each event as it happens.
enum Console {
    static func out(_ line: String) {
        StandardOutput.write(line + "\n")
    }

    static func error(_ line: String) {
        StandardOutput.writeError(line + "\n")
    }
}
