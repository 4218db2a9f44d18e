// The queue between the run's threads (order, bounds and closing) and the tray that hands
// batches back.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import Testing
@testable import UbiquityLogKit
import TestSupport

@Suite struct HandoffTests {
    @Test func everythingArrivesInOrderThroughAShortQueue() throws {
        let queue = Handoff<Int>(capacity: 3)
        let received = Collected()
        let consumer = try require(StageThread {
            while let value = queue.pop() { received.append(value) }
        })
        for value in 0..<20_000 { queue.push(value) }
        queue.close()
        consumer.join()
        expectEqual(received.values, Array(0..<20_000))
    }

    @Test func aClosedQueueGivesWhatItHoldsThenNil() {
        let queue = Handoff<String>(capacity: 4)
        queue.push("a")
        queue.push("b")
        queue.close()
        queue.push("dropped after close")
        expectEqual(queue.pop(), "a")
        expectEqual(queue.pop(), "b")
        expect(queue.pop() == nil)
    }

    @Test func aFullQueueMakesItsProducerWait() throws {
        let queue = Handoff<Int>(capacity: 2)
        let pushed = Collected()
        let producer = try require(StageThread {
            for value in 0..<5 {
                queue.push(value)
                pushed.append(value)
            }
        })
        // Nothing is taken yet: the producer gets two in, then waits on the third.
        var waited = 0
        while pushed.values.count < 2, waited < 5_000 {
            usleep(1_000)
            waited += 1
        }
        usleep(50_000)
        expectEqual(pushed.values, [0, 1])
        var taken: [Int] = []
        while taken.count < 5, let value = queue.pop() { taken.append(value) }
        producer.join()
        expectEqual(taken, [0, 1, 2, 3, 4])
        expectEqual(pushed.values, [0, 1, 2, 3, 4])
    }

    @Test func aReturnTrayGivesEverythingPutOnceInOrder() throws {
        let tray = ReturnTray<Int>()
        expectEqual(tray.takeAll(), [])
        let producer = try require(StageThread {
            for value in 0..<20_000 { tray.put(value) }
        })
        var taken: [Int] = []
        var rounds = 0
        while taken.count < 20_000, rounds < 1_000_000 {
            taken += tray.takeAll()
            rounds += 1
        }
        producer.join()
        taken += tray.takeAll()
        expectEqual(taken, Array(0..<20_000))
        expectEqual(tray.takeAll(), [])
    }
}

/// Values one thread appends while another reads them.
private final class Collected: Sendable {
    private let storage = Mutex<[Int]>([])
    func append(_ value: Int) { storage.withLock { $0.append(value) } }
    var values: [Int] { storage.withLock { $0 } }
}
