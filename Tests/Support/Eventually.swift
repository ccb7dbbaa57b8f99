import Foundation

/// How often the polling helpers below look: the one tick every test wait is made of, so that no
/// test sleeps a fixed time and hopes.
public let pollingTick = Duration.milliseconds(20)

/// The wait for a run's progress (sends confirmed, a drive stored, replies written), where what is
/// tested is what happened, not its pace: a test of 4 s alone took over a minute in one of two suites
/// running at once on two cores.
public let runProgressTimeout: Double = 300

/// Waits for what a test expects rather than for a fixed time: checks `condition` every tick
/// until it holds or `timeout` seconds (generous: a loaded machine is slow, a passing test is not;
/// beside two other suites a node's return took over 30 s) have passed. Returns whether it held, for
/// the test to assert. A costly look (a page asked through DevTools) may look less often.
@discardableResult
public func eventually(
    timeout: Double = 120, every tick: Duration = pollingTick, isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: tick)
    }
}

/// Whether `condition` holds at every look for `seconds`: for what must not happen in a window
/// (a socket that must stay silent, a dot that must not come yet). Returns at its first failure.
public func throughout(
    _ seconds: Double, isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < end {
        if try await !condition() { return false }
        try? await Task.sleep(for: pollingTick)
    }
    return try await condition()
}

/// `eventually` for code that cannot suspend (a server's set-up on its own thread): the same tick,
/// blocking the thread; a costly look (a process started each time) may look less often.
@discardableResult
public func eventuallyBlocking(timeout: Double = 120, every tick: Duration = pollingTick, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    while true {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        Thread.sleep(forTimeInterval: Double(tick.components.seconds) + Double(tick.components.attoseconds) / 1e18)
    }
}
