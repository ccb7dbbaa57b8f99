/// mtt's version, for `mtt --version`, the database's session rows and upload user agents.
public enum MTTVersion {
    public static let current = "0.1.0"
}
