import FoundationEssentials
import Glibc

extension Store {
    /// Whether writing to `other` would overwrite the database or one of SQLite's files beside it
    /// (by the file itself, through any link, or by name where the file does not exist yet).
    public func isOwnFile(_ other: String) -> Bool {
        func absolute(_ p: String) -> String {
            let full = p.hasPrefix("/") ? p : FileManager.default.currentDirectoryPath + "/" + p
            let folder = PathText.folder(of: full)
            // The folder through any link, so two names of one folder compare equal.
            let resolvedFolder = realpath(folder, nil).map { resolved in defer { free(resolved) }; return String(cString: resolved) } ?? folder
            return PathText.normalized(resolvedFolder + "/" + PathText.name(of: full))
        }
        var otherInfo = stat()
        let otherExists = stat(other, &otherInfo) == 0
        let otherPath = absolute(other)
        for own in [path, path + "-wal", path + "-shm", path + "-journal"] {
            var info = stat()
            if otherExists, stat(own, &info) == 0, info.st_dev == otherInfo.st_dev, info.st_ino == otherInfo.st_ino { return true }
            if absolute(own) == otherPath { return true }
        }
        return false
    }
}
