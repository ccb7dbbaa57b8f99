import Foundation

/// A fresh folder under the system temp dir, removed when the value is deinitialised.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    public init(_ label: String = "mtt-test") {
        let template = NSTemporaryDirectory() + "\(label).XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { fatalError("mkdtemp failed: \(String(cString: strerror(errno)))") }
        path = String(cString: made)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
