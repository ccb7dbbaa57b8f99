import FoundationEssentials
import Glibc

/// The XDG base directories, read one way everywhere: an absolute `XDG_*_HOME`, else under `$HOME`
/// (the account's home only when HOME is unset). A relative XDG value is invalid by the spec and
/// ignored.
public enum XDGDirectories {
    public static func dataHome(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        base("XDG_DATA_HOME", default: ".local/share", environment)
    }

    public static func configHome(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        base("XDG_CONFIG_HOME", default: ".config", environment)
    }

    private static func base(_ variable: String, default relative: String, _ environment: [String: String]) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (getpwuid(getuid()).map { String(cString: $0.pointee.pw_dir) } ?? "/")
        return home + "/" + relative
    }
}
