import Foundation

/// Where the database lives: `--db`, else `MTT_DB`, else `$XDG_DATA_HOME/mtt/mtt.sqlite`
/// (`~/.local/share/mtt/mtt.sqlite` when XDG_DATA_HOME is unset).
public enum StoreLocation {
    public static func resolve(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = environment["MTT_DB"], !fromEnvironment.isEmpty { return fromEnvironment }
        let dataHome = XDGDirectories.dataHome(environment)
        return dataHome + "/mtt/mtt.sqlite"
    }
}
