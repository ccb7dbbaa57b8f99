import Dispatch

/// The coverage requests that read and hold a whole layer, let run a few at a time: sixteen
/// requests at zoom 19 over 200,000 samples at once took the server from 215 MB to 3.8 GB, and a
/// Raspberry Pi has one or two gigabytes. The others wait their turn on their own connection's
/// thread (one per connection, `HTTPListener`).
final class HeavyRequests: Sendable {
    static let limit = 2
    private let slots = DispatchSemaphore(value: HeavyRequests.limit)

    /// A turn, held from the reading of the layer until its answer is written: given back when
    /// the last of it goes (the response that holds it, once sent or dropped).
    final class Turn: Sendable {
        private let slots: DispatchSemaphore

        fileprivate init(_ slots: DispatchSemaphore) {
            self.slots = slots
        }

        deinit {
            slots.signal()
        }
    }

    /// Waits for a turn.
    func turn() -> Turn {
        slots.wait()
        return Turn(slots)
    }
}
