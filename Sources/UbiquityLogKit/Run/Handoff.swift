// The two primitives the run's stages need to work on separate threads: a bounded queue
// that hands batches from one thread to the next, and a thread that runs one closure.
// pthreads rather than Swift concurrency: each stage is a loop that blocks on its queue,
// which is what a thread is for, and no executor may sit between a record and the next.
// The pthread calls here take the same types on both platforms; what differs (pthread_t) is
// in Platform/Threads.swift.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A first-in, first-out queue of bounded length between one producing and one consuming
/// thread. `push` waits while the queue is full (so a fast reader cannot run ahead of the
/// classifier and fill memory); `pop` waits while it is empty and returns nil once it is
/// closed and drained.
final class Handoff<Element>: @unchecked Sendable {
    private let capacity: Int
    private var items: [Element?]
    private var head = 0
    private var count = 0
    private var closed = false
    // Heap-allocated: pthread objects must not move, which a stored property may.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let notEmpty = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let notFull = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        items = Array(repeating: nil, count: self.capacity)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(notEmpty, nil)
        pthread_cond_init(notFull, nil)
    }

    deinit {
        pthread_cond_destroy(notFull)
        pthread_cond_destroy(notEmpty)
        pthread_mutex_destroy(mutex)
        notFull.deallocate()
        notEmpty.deallocate()
        mutex.deallocate()
    }

    /// Adds `element`, waiting for room. After `close`, the element is dropped.
    func push(_ element: Element) {
        pthread_mutex_lock(mutex)
        while count == capacity, !closed { pthread_cond_wait(notFull, mutex) }
        if !closed {
            items[(head + count) % capacity] = element
            count += 1
            pthread_cond_signal(notEmpty)
        }
        pthread_mutex_unlock(mutex)
    }

    /// The oldest element, waiting for one; nil when the queue is closed and empty.
    func pop() -> Element? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while count == 0, !closed { pthread_cond_wait(notEmpty, mutex) }
        guard count > 0 else { return nil }
        let element = items[head].take()
        head = (head + 1) % capacity
        count -= 1
        pthread_cond_signal(notFull)
        return element
    }

    /// No more elements will come: `pop` returns what is left, then nil.
    func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_broadcast(notEmpty)
        pthread_cond_broadcast(notFull)
        pthread_mutex_unlock(mutex)
    }
}

/// What a later stage hands back to the thread that made it, to be let go of there: an
/// unbounded list one thread adds to and another empties. Never waits for room (the stage
/// that empties it may be waiting on the one that adds), and its length is bounded by the
/// batches in flight.
final class ReturnTray<Element>: @unchecked Sendable {
    private var items: [Element] = []
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func put(_ element: Element) {
        pthread_mutex_lock(mutex)
        items.append(element)
        pthread_mutex_unlock(mutex)
    }

    /// Everything put so far, oldest first; the tray is left empty.
    func takeAll() -> [Element] {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !items.isEmpty else { return [] }
        var taken: [Element] = []
        swap(&taken, &items)
        return taken
    }
}
