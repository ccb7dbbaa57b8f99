import Foundation

/// The project's own fixtures (`Fixtures/`) and the real-data sets in `../shared/fixtures`,
/// which only exist beside a checkout that has shared/ (CI always does).
public enum FixtureFiles {
    public static let repositoryRoot: String = {
        // Tests/Support/FixtureFiles.swift → repository root. The benchmarks build this file through
        // a link (Benchmarks/Benchmarks/TestSupport): resolved, so their fixtures are found too.
        let here = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().path as NSString
        return ((here.deletingLastPathComponent as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
    }()

    public static func own(_ relative: String) -> String {
        repositoryRoot + "/Fixtures/" + relative
    }

    public static var sharedDirectory: String {
        (repositoryRoot as NSString).deletingLastPathComponent + "/shared/fixtures"
    }

    /// The shared real-data fixture, or nil when ../shared is not beside this checkout.
    public static func shared(_ relative: String) -> String? {
        let path = sharedDirectory + "/" + relative
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    public static var sharedIsPresent: Bool {
        FileManager.default.fileExists(atPath: sharedDirectory)
    }

    public static let sharedSkipReason = "../shared/fixtures is not beside this checkout: real-data tests skipped"
}
