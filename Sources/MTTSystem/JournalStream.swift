import Glibc

/// Whether stderr is the systemd journal (JOURNAL_STREAM names its device and inode): log lines
/// then carry the journal's priority prefix (`<3>`) and no timestamp of their own.
public enum JournalStream {
    public static var isStandardError: Bool {
        guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }
}
