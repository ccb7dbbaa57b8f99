import MTTCore
import Synchronization

/// A clock a test moves by hand: `now()` stands still until `advance(by:)`, which wakes every
/// sleeper whose deadline it passes, in deadline order. What waited 30 s in a test that used the
/// wall clock takes one call here.
public final class ManualClock: TimeSource {
    private struct Sleeper {
        let id: Int
        let deadline: Timestamp
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Timestamp
        var sleepers: [Sleeper] = []
        var nextID = 0
    }

    private let state: Mutex<State>

    public init(start: Timestamp = Timestamp(secondsSinceEpoch: 1_767_225_600)) {
        state = Mutex(State(now: start))
    }

    public func now() -> Timestamp { state.withLock { $0.now } }

    /// How many tasks are sleeping on this clock: a test waits for the code under test to have
    /// gone to sleep before it moves time on.
    public var sleepers: Int { state.withLock { $0.sleepers.count } }

    /// Seconds from now to each sleeper's deadline, soonest first: a test that knows which timers
    /// the code sets waits for exactly those, not for a count a passing timer also makes.
    public var secondsToDeadlines: [Double] {
        state.withLock { state in
            state.sleepers.map { Double($0.deadline.nanosecondsSinceEpoch - state.now.nanosecondsSinceEpoch) / 1e9 }.sorted()
        }
    }

    public func sleep(until deadline: Timestamp) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let wake = state.withLock { state -> Bool in
                    if deadline <= state.now || Task.isCancelled { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if wake { continuation.resume() }
            }
            try Task.checkCancellation()
        } onCancel: {
            let cancelled = state.withLock { state in
                state.sleepers.firstIndex { $0.id == id }.map { state.sleepers.remove(at: $0) }
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time on by `seconds` and wakes whoever it reached.
    public func advance(by seconds: Double) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.adding(seconds: seconds)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }
}
