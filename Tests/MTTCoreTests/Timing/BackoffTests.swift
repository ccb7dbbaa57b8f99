import MTTCore
import Testing

@Suite("Backoff")
struct BackoffTests {
    @Test func doublesUpToTheMaximumAndResets() {
        var backoff = Backoff(initial: 0.5, maximum: 4, jitter: 0)
        #expect((0..<6).map { _ in backoff.nextDelay() } == [0.5, 1, 2, 4, 4, 4])
        backoff.reset()
        #expect(backoff.nextDelay() == 0.5)
    }

    @Test func jitterStaysWithinItsFraction() {
        var random = SplitMix64(seed: 3)
        var backoff = Backoff(initial: 10, maximum: 10, jitter: 0.2)
        let delays = (0..<1000).map { _ in backoff.nextDelay(using: &random) }
        #expect(delays.allSatisfy { $0 >= 8 && $0 <= 12 })
        #expect(Set(delays).count > 900)
    }
}
