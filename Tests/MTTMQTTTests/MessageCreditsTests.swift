@testable import MTTMQTT
import Testing

@Suite("MQTT: message credits")
struct MessageCreditsTests {
    /// The reading thread, once out of credits, goes on only when half are back: one wake-up per
    /// stretch of messages, not one per message.
    @Test func aReaderOutOfCreditsWaitsForHalfOfThem() {
        let credits = MessageCredits(limit: 4)
        for _ in 0..<3 {
            credits.take()
            #expect(!credits.mustWait())
        }
        credits.take()
        #expect(credits.mustWait())
        credits.give(1)
        #expect(credits.mustWait(), "one credit back wakes nobody")
        credits.give(1)
        #expect(!credits.mustWait(), "half of the limit back lets the reader go on")
        credits.take()
        #expect(!credits.mustWait())
        credits.take()
        #expect(credits.mustWait())
    }

    /// A read can bring a message with no credit free: it is in hand all the same, and counted.
    @Test func aMessageReadWithNoCreditFreeIsOwedFromTheNextOnesBack() {
        let credits = MessageCredits(limit: 4)
        for _ in 0..<5 { credits.take() }
        #expect(credits.mustWait())
        credits.give(2)
        #expect(credits.mustWait(), "one of the two pays for the fifth message")
        credits.give(1)
        #expect(!credits.mustWait())
    }

    @Test func closingReleasesAWaitingReader() {
        let credits = MessageCredits(limit: 2)
        for _ in 0..<2 { credits.take() }
        #expect(credits.mustWait())
        credits.close()
        #expect(!credits.mustWait())
    }
}
