import MTTCore
import Synchronization
import Testing

@Suite("DrainingQueue")
struct DrainingQueueTests {
    @Test func theReaderTakesEverythingWaitingAtOnce() async {
        let queue = DrainingQueue<Int>()
        for i in 0..<5 { queue.append(i) }
        #expect(await queue.next() == [0, 1, 2, 3, 4])
        queue.append(5)
        queue.finish()
        #expect(await queue.next() == [5])
        #expect(await queue.next() == nil)
    }

    @Test func aWaitingReaderGetsTheNextItem() async {
        let queue = DrainingQueue<Int>()
        async let batch = queue.next()
        try? await Task.sleep(for: .milliseconds(50))
        queue.append(7)
        #expect(await batch == [7])
    }

    @Test func sendWaitsWhileTheQueueIsFullAndNothingIsLost() async {
        let queue = DrainingQueue<Int>(capacity: 10)
        let sent = Atomic<Int>(0)
        let writer = Task {
            for i in 0..<1_000 {
                await queue.send(i)
                sent.add(1, ordering: .relaxed)
            }
            queue.finish()
        }
        // The writer stops at the capacity until the reader makes room.
        let deadline = ContinuousClock.now + .seconds(30)
        while sent.load(ordering: .relaxed) < 10, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        try? await Task.sleep(for: .milliseconds(100))
        #expect(sent.load(ordering: .relaxed) == 10)
        var received: [Int] = []
        var largest = 0
        while let batch = await queue.next() {
            largest = max(largest, batch.count)
            received += batch
        }
        await writer.value
        #expect(received == Array(0..<1_000))
        #expect(largest <= 11)
    }

    @Test func cancellingTheReaderEndsItsWait() async {
        let queue = DrainingQueue<Int>()
        let reader = Task { await queue.next() }
        try? await Task.sleep(for: .milliseconds(20))
        reader.cancel()
        #expect(await reader.value == nil)
    }

    @Test func cancellingAWaitingWriterEndsItsWait() async {
        let queue = DrainingQueue<Int>(capacity: 1)
        queue.append(0)
        let writer = Task { await queue.send(1) }
        try? await Task.sleep(for: .milliseconds(20))
        writer.cancel()
        await writer.value
        #expect(await queue.next() == [0])
    }
}
