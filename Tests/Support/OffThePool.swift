import Foundation

/// Runs blocking setup work (starting a server and waiting for its port, running openssl,
/// feeding a device at a receiver's pace) on a thread of its own and awaits the result.
///
/// Swift Testing runs every test on Swift's cooperative pool, which has one thread per core: on
/// a two-core CI machine, two tests sleeping in `usleep` stop all the others, and a test waiting
/// for events with a deadline can then miss it without anything being wrong.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
