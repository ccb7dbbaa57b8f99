@testable import MTTMQTT
import Testing

@Suite("MQTT: message credits")
struct MessageCreditsTests {
    /// The reading thread, once out of credits, goes on only when half are back: one wake-up per
    /// stretch of messages, not one per message.
    @Test func aReaderOutOfCreditsWaitsForHalfOfThem() {
        let credits = MessageCredits(limit: 4)
        for _ in 0..<4 { #expect(credits.tryTake()) }
        #expect(!credits.tryTake())
        #expect(!credits.takeOrWait())
        credits.give(1)
        #expect(!credits.takeOrWait(), "one credit back wakes nobody")
        credits.give(1)
        #expect(credits.takeOrWait(), "half of the limit back lets the reader go on")
        #expect(credits.tryTake())
        #expect(!credits.tryTake())
    }

    @Test func aReaderThatIsNotWaitingTakesTheFirstCreditBack() {
        let credits = MessageCredits(limit: 4)
        for _ in 0..<4 { #expect(credits.tryTake()) }
        credits.give(1)
        #expect(credits.takeOrWait())
    }

    @Test func closingReleasesAWaitingReader() {
        let credits = MessageCredits(limit: 2)
        for _ in 0..<2 { #expect(credits.tryTake()) }
        #expect(!credits.takeOrWait())
        credits.close()
        #expect(credits.takeOrWait())
    }
}
