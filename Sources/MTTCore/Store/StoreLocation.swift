import FoundationEssentials

/// Where the database lives when nothing names it: `$XDG_DATA_HOME/mtt/mtt.sqlite`
/// (`~/.local/share/mtt/mtt.sqlite` when XDG_DATA_HOME is unset). `--db`, `MTT_DB` and the
/// configuration file's `[db] path` come first, through `Config`.
public enum StoreLocation {
    public static func resolve(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        return XDGDirectories.dataHome(environment) + "/mtt/mtt.sqlite"
    }
}
