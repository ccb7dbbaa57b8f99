import FoundationEssentials

/// How a collection run is watched while it goes, whoever watches it (the command line, a service):
/// when it ends, when the service manager hears it is alive, how often the upload queues are counted.
public struct RunWatch: Sendable {
    /// Ends the watch after this many seconds of wall time (`--duration`).
    public var duration: Double?
    /// Seconds between two looks.
    public var tick: Double
    /// The service manager's watchdog interval, when it has one: pinged at half of it, and only
    /// while the run's own loops go round.
    public var watchdogInterval: Double?
    /// Seconds between two status lines for the service manager.
    public var statusEvery: Double = 10
    /// Seconds between two counts of the upload queues, which read the whole database; nil for never.
    public var queuesEvery: Double?

    public init(duration: Double?, tick: Double, watchdogInterval: Double? = nil, queuesEvery: Double? = nil) {
        self.duration = duration
        self.tick = tick
        self.watchdogInterval = watchdogInterval
        self.queuesEvery = queuesEvery
    }

    /// What the watcher is told as it goes.
    public struct Observer {
        /// The run is alive: the service manager's watchdog.
        public var alive: () -> Void
        /// A status line's worth of numbers.
        public var status: (CollectionStats) -> Void
        /// The upload queues by target.
        public var queues: ([String: Int]) -> Void
        /// Once a look.
        public var tick: () -> Void

        public init(
            alive: @escaping () -> Void = {}, status: @escaping (CollectionStats) -> Void = { _ in },
            queues: @escaping ([String: Int]) -> Void = { _ in }, tick: @escaping () -> Void = {}
        ) {
            self.alive = alive
            self.status = status
            self.queues = queues
            self.tick = tick
        }
    }
}

extension CollectionRun {
    /// Watches the run until `stopRequested`, the duration, or the run's own end (a failure it
    /// cannot go on after); does not stop it.
    /// `clock` is real time (`--duration` is, also under `--speed`), the system's but in tests.
    public func watch(_ watch: RunWatch, clock: any TimeSource = SystemClock(), stopRequested: () -> Bool, observer: RunWatch.Observer) async {
        let started = clock.now(), never = Timestamp(nanosecondsSinceEpoch: .min / 2)
        var pinged = never, said = never, counted = never
        while !stopRequested() && !hasEnded {
            if let duration = watch.duration, clock.seconds(since: started) >= duration { break }
            if let every = watch.queuesEvery, clock.seconds(since: counted) >= every {
                if let status = try? store.status() { observer.queues(status.unsynced) }
                counted = clock.now()
            }
            if let interval = watch.watchdogInterval, clock.seconds(since: pinged) >= interval / 2,
               isResponsive(within: max(interval * 1.5, 45)) {
                observer.alive()
                pinged = clock.now()
            }
            if clock.seconds(since: said) >= watch.statusEvery {
                observer.status(stats)
                said = clock.now()
            }
            observer.tick()
            try? await clock.sleep(seconds: watch.tick)
        }
    }
}
