import MTTCore
import Synchronization
import TestSupport
import Testing

/// `withTimeout`: the answer, or nil once the time is out, whatever the operation does with its
/// cancellation (a run's stop waits so for its collecting task, for a grace and no longer).
@Suite("A wait with a timeout")
struct TimeoutTests {
    @Test func anOperationThatIgnoresItsCancellationDoesNotHoldTheTimeout() async throws {
        let clock = ManualClock()
        let (gate, opening) = AsyncStream<Void>.makeStream()
        // Awaiting another task's result does not end on cancellation.
        let stubborn = Task { for await _ in gate {} }
        let waited = Task { try await clock.withTimeout(seconds: 2) { await stubborn.value; return 1 } }
        #expect(await eventually { clock.sleepers == 1 })
        clock.advance(by: 2)
        // Should the wait be held, the gate opens after 20 s anyway, and says so.
        let opened = Mutex(false)
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(20))  // a bound on a failing test, not a pace
            opened.withLock { $0 = true }
            opening.finish()
        }
        #expect(try await waited.value == nil)
        #expect(!opened.withLock { $0 }, "the timeout waited for the operation to end")
        watchdog.cancel()
        opening.finish()
    }

    @Test func anAnswerInTimeIsTheAnswer() async throws {
        let clock = ManualClock()
        #expect(try await clock.withTimeout(seconds: 2) { 7 } == 7)
        await #expect(throws: CancellationError.self) {
            let cancelled = Task { try await clock.withTimeout(seconds: 2) { try await clock.sleep(seconds: 10); return 1 } }
            cancelled.cancel()
            _ = try await cancelled.value
        }
    }
}
