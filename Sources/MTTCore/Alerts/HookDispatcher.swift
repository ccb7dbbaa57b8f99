import Logging
import Synchronization

/// Hands events to the hooks without ever making the run wait: `offer` decides at once (the gate)
/// and queues; each hook has its own bounded queue and one delivery at a time, so a slow or broken
/// hook delays only itself. Past the queue's size the oldest waiting events are dropped and counted;
/// a failing hook is logged once when it starts failing and once when it works again.
public final class HookDispatcher: Sendable {
    /// What happened to the events a hook was offered.
    public struct Counts: Sendable, Hashable {
        public var delivered = 0
        public var failed = 0
        /// Dropped from a full queue.
        public var dropped = 0
        public var muted = 0
        public var coolingDown = 0
        public var rateLimited = 0
        public init() {}
    }

    private struct Hook: Sendable {
        var gate: HookGate
        var waiting: [FieldEvent] = []
        var delivering = false
        var counts = Counts()
        /// Failures in a row: 1 is said, the rest counted until one works again.
        var failuresInARow = 0
    }

    private let hooks: Mutex<[Hook]>
    private let count: Int
    /// The event types at least one hook wants.
    public let wantedTypes: Set<FieldEventType>
    private let deliveries: [any HookDelivery]
    private let inFlight = Mutex(0)
    private let stopped = Atomic(false)
    private let logger = Logger(label: "mtt.hooks")
    /// What its waits for room and for the deliveries to settle look at.
    private let clock: any TimeSource

    /// `delivery` makes each rule's sender (the command line knows the adapters).
    public init(rules: [HookRule], clock: any TimeSource = SystemClock(), delivery: (HookRule) -> any HookDelivery) {
        self.clock = clock
        hooks = Mutex(rules.map { Hook(gate: HookGate($0)) })
        count = rules.count
        wantedTypes = rules.reduce(into: []) { $0.formUnion($1.types) }
        deliveries = rules.map(delivery)
    }

    public var isEmpty: Bool { count == 0 }

    /// Offers `event` to every hook; returns at once.
    public func offer(_ event: FieldEvent) {
        guard !stopped.load(ordering: .relaxed) else { return }
        for index in 0..<count {
            let start = hooks.withLock { hooks -> Bool in
                var hook = hooks[index]
                defer { hooks[index] = hook }
                switch hook.gate.admit(event) {
                case .notWanted: return false
                case .muted: hook.counts.muted += 1; return false
                case .coolingDown: hook.counts.coolingDown += 1; return false
                case .rateLimited: hook.counts.rateLimited += 1; return false
                case .pass: break
                }
                hook.waiting.append(event)
                if hook.waiting.count > hook.gate.rule.queue {
                    hook.waiting.removeFirst()
                    hook.counts.dropped += 1
                }
                guard !hook.delivering else { return false }
                hook.delivering = true
                return true
            }
            if start {
                inFlight.withLock { $0 += 1 }
                Task { await self.drain(index) }
            }
        }
    }

    /// Offers `event` once every hook's queue has room: for a replay, which must not lose events
    /// to its own speed. A run never waits (`offer`).
    public func offerWhenRoom(_ event: FieldEvent) async {
        while !stopped.load(ordering: .relaxed), hooks.withLock({ $0.contains { $0.waiting.count >= $0.gate.rule.queue } }) {
            // Polled: the queues are shared with the deliveries under a lock, with nothing to wait on.
            try? await clock.sleep(seconds: 0.005)
        }
        offer(event)
    }

    /// Takes no more events and forgets those waiting (a stop request: the deliveries under way
    /// are the caller's to end). They stay in the database.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        hooks.withLock { hooks in
            for index in hooks.indices { hooks[index].waiting.removeAll() }
        }
    }

    public var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Each hook's counts, in the order of the rules.
    public var counts: [(rule: HookRule, counts: Counts)] {
        hooks.withLock { $0.map { ($0.gate.rule, $0.counts) } }
    }

    /// Waits until every queued event is delivered (or failed), at most `seconds`; true when all were.
    public func settle(within seconds: Double) async -> Bool {
        let deadline = clock.now().adding(seconds: seconds)
        while inFlight.withLock({ $0 }) > 0 {
            if clock.now() >= deadline { return false }
            try? await clock.sleep(seconds: 0.02)
        }
        return true
    }

    private func drain(_ index: Int) async {
        defer { inFlight.withLock { $0 -= 1 } }
        let rule = hooks.withLock { $0[index].gate.rule }
        while let event = hooks.withLock({ hooks -> FieldEvent? in
            guard !hooks[index].waiting.isEmpty else {
                hooks[index].delivering = false
                return nil
            }
            return hooks[index].waiting.removeFirst()
        }) {
            do {
                try await deliveries[index].deliver(event)
                let after = hooks.withLock { hooks -> Int in
                    defer { hooks[index].failuresInARow = 0 }
                    hooks[index].counts.delivered += 1
                    return hooks[index].failuresInARow
                }
                if after > 0 { logger.notice("hook \(rule.name) (\(rule.target)) works again after \(after) failed event(s)") }
            } catch {
                let first = hooks.withLock { hooks -> Bool in
                    hooks[index].counts.failed += 1
                    hooks[index].failuresInARow += 1
                    return hooks[index].failuresInARow == 1
                }
                if first { logger.warning("hook \(rule.name) (\(rule.target)) failed: \(error) (further failures are counted until it works again)") }
            }
        }
    }
}
