import MTTCore
import Synchronization
import TestSupport
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
        // Deliberate: gives the reader the moment to reach its wait, the path under test.
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
        await eventually { sent.load(ordering: .relaxed) >= 10 }
        #expect(await throughout(0.1) { sent.load(ordering: .relaxed) == 10 }, "the writer went past the capacity")
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
        // Deliberate: the cancellation under test is of a reader already waiting.
        try? await Task.sleep(for: .milliseconds(20))
        reader.cancel()
        #expect(await reader.value == nil)
    }

    @Test func cancellingAWaitingWriterEndsItsWait() async {
        let queue = DrainingQueue<Int>(capacity: 1)
        queue.append(0)
        let writer = Task { await queue.send(1) }
        // Deliberate: the cancellation under test is of a writer already waiting.
        try? await Task.sleep(for: .milliseconds(20))
        writer.cancel()
        await writer.value
        #expect(await queue.next() == [0])
    }
}
