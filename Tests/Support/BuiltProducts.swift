import Foundation

/// Executables that `swift build` put beside the test runner, such as `mtt` itself.
public enum BuiltProducts {
    public static var directory: String {
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        // The runner is .build/<triple>/debug/<package>PackageTests.xctest (a file on Linux).
        return (runner as NSString).deletingLastPathComponent
    }

    public static func path(_ name: String) -> String {
        directory + "/" + name
    }
}
