import Foundation

/// Waits for what a test expects rather than for a fixed time: checks `condition` every 20 ms
/// until it holds or `timeout` seconds (generous: a loaded machine is slow, a passing test is not)
/// have passed. Returns whether it held, for the test to assert.
@discardableResult
public func eventually(timeout: Double = 30, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
}
