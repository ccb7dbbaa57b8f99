/// Uplink events for a reader that takes them in batches (a collector committing each batch), with
/// the way to stop the source feeding it.
public struct UplinkEventQueue: Sendable {
    public let queue: DrainingQueue<UplinkEvent>
    public let stop: @Sendable () -> Void

    public init(queue: DrainingQueue<UplinkEvent>, stop: @escaping @Sendable () -> Void) {
        self.queue = queue
        self.stop = stop
    }
}
