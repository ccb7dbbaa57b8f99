import FoundationEssentials
import Synchronization

/// The time mtt stamps its records with and every wait it makes: the port that lets a test drive
/// time by hand (TestSupport's `ManualClock`) and a simulated run go faster (`ScaledClock`), while
/// a real run reads the system's (`SystemClock`). A wait that goes around it cannot be sped up or
/// stepped, so Core and the adapters that schedule (send policy, backoffs, joins, timeouts, hook
/// cooldowns, uploads, the live map's grace, fetch waits) wait through one of these.
public protocol TimeSource: Sendable {
    /// This clock's time now.
    func now() -> Timestamp
    /// Returns once this clock has reached `deadline` (at once when it has already); throws
    /// `CancellationError` when the waiting task is cancelled first.
    func sleep(until deadline: Timestamp) async throws
    /// Returns after `seconds` of this clock.
    func sleep(seconds: Double) async throws
}

extension TimeSource {
    public func sleep(seconds: Double) async throws {
        try await sleep(until: now().adding(seconds: seconds))
    }

    /// Seconds of this clock since `start`.
    public func seconds(since start: Timestamp) -> Double {
        now().seconds(since: start)
    }

    /// Runs `operation`, and gives up on it after `seconds` of this clock: nil then, and the
    /// operation is cancelled and left to end on its own. (Not a task group: a group waits for its
    /// tasks to end, and an operation that does not end on cancellation — awaiting another task's
    /// result — held a run's stop for as long as that task took, its grace no bound.)
    public func withTimeout<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async throws -> T) async throws -> T? {
        let race = FirstToFinish<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.wait(continuation) {
                    let work = Task {
                        do { race.finish(.success(try await operation())) } catch { race.finish(.failure(error)) }
                    }
                    let timer = Task {
                        guard (try? await sleep(seconds: seconds)) != nil else { return }
                        race.finish(.success(nil))
                    }
                    return [work, timer]
                }
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }
}

/// An operation and its timer, the first to finish answering the one who waits; both cancelled then.
private final class FirstToFinish<T: Sendable>: Sendable {
    private struct State {
        var waiting: CheckedContinuation<T?, any Error>?
        /// What finished before anyone waited (a cancellation before the wait began).
        var early: Result<T?, any Error>?
        var finished = false
        var tasks: [Task<Void, Never>] = []
    }
    private let state = Mutex(State())

    func wait(_ continuation: CheckedContinuation<T?, any Error>, starting: () -> [Task<Void, Never>]) {
        state.withLock { state in
            if let early = state.early {
                continuation.resume(with: early)
                return
            }
            state.waiting = continuation
            state.tasks = starting()
        }
    }

    func finish(_ result: Result<T?, any Error>) {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            guard !state.finished else { return [] }
            state.finished = true
            if let waiting = state.waiting {
                waiting.resume(with: result)
                state.waiting = nil
            } else {
                state.early = result
            }
            return state.tasks
        }
        for task in tasks { task.cancel() }
    }
}
