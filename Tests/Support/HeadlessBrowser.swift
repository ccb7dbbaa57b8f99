import Foundation

/// Debian's Chromium, headless, on a page; what the page shows is read through the DevTools
/// protocol (Tests/Browser/devtools.py): values the page's script keeps, and screenshots.
public final class HeadlessBrowser: @unchecked Sendable {
    private let process: ChildProcess.Running
    private let port: Int
    public let profile = TemporaryDirectory("mtt-chromium")

    public init(url: String, width: Int = 1280, height: Int = 800) throws {
        port = LoopbackPort.free()
        process = try ChildProcess.Running("/usr/bin/chromium", [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
            "--remote-debugging-port=\(port)", "--remote-allow-origins=*", "--user-data-dir=\(profile.path)",
            "--window-size=\(width),\(height)", url,
        ], environment: [:])
    }

    deinit { process.kill() }

    /// The value of a JavaScript expression on the page, as JSON text.
    public func evaluate(_ expression: String) async throws -> String {
        let result = try await ChildProcess.run("/usr/bin/python3", [Self.script, String(port), "eval", expression])
        guard result.status == 0 else { throw BrowserError(reason: result.stderr) }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until `expression` is true on the page (or `seconds` pass); returns whether it was.
    /// Two minutes by default: beside two other suites a fleet's page took over 20 s to draw, and a
    /// page that never gets there fails all the same, later.
    public func wait(until expression: String, seconds: Double = 120) async throws -> Bool {
        try await eventually(timeout: seconds, every: .milliseconds(200)) { try await evaluate("Boolean(\(expression))") == "true" }
    }

    /// Moves the mouse to the page's point (x, y) through DevTools' input events: what a user's
    /// pointer does, so the page's own handlers (Leaflet's tooltips) run.
    public func hover(x: Double, y: Double) async throws {
        let result = try await ChildProcess.run("/usr/bin/python3", [Self.script, String(port), "hover", "\(x),\(y)"])
        guard result.status == 0 else { throw BrowserError(reason: result.stderr) }
    }

    /// Clicks the page's point (x, y) with the left button, as a user does.
    public func click(x: Double, y: Double) async throws {
        let result = try await ChildProcess.run("/usr/bin/python3", [Self.script, String(port), "click", "\(x),\(y)"])
        guard result.status == 0 else { throw BrowserError(reason: result.stderr) }
    }

    public func screenshot(to path: String) async throws {
        let result = try await ChildProcess.run("/usr/bin/python3", [Self.script, String(port), "shot", path])
        guard result.status == 0 else { throw BrowserError(reason: result.stderr) }
    }

    static var script: String { FixtureFiles.repositoryRoot + "/Tests/Browser/devtools.py" }
}

public struct BrowserError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { "headless Chromium: \(reason)" }
}
