/// Whether an event passes a hook: its type, the mute list, the cooldown per type and key, the rate
/// limit. Decided on the events' own times, so a replay of yesterday's drive passes what the drive
/// itself would have.
public struct HookGate: Sendable {
    public enum Verdict: Sendable, Hashable {
        case pass, notWanted, muted, coolingDown, rateLimited
    }

    public let rule: HookRule
    private var lastPassed: [String: Timestamp] = [:]
    private var recent: [Timestamp] = []

    public init(_ rule: HookRule) {
        self.rule = rule
    }

    public mutating func admit(_ event: FieldEvent) -> Verdict {
        guard rule.types.contains(event.type) else { return .notWanted }
        if !rule.mute.isEmpty {
            let named = event.gateway.map { [$0.id] + ($0.eui.map { [$0] } ?? []) } ?? event.heardBy ?? []
            if !named.isEmpty && named.allSatisfy({ rule.mute.contains($0) }) { return .muted }
            if let gateway = event.gateway, rule.mute.contains(gateway.id) || gateway.eui.map(rule.mute.contains) == true { return .muted }
        }
        let key = event.type.rawValue + "|" + (event.gateway?.id ?? event.node ?? "")
        if rule.cooldown > 0, let last = lastPassed[key], event.time.seconds(since: last) < rule.cooldown { return .coolingDown }
        if let limit = rule.rateLimit {
            recent.removeAll { event.time.seconds(since: $0) >= rule.ratePeriod }
            if recent.count >= limit { return .rateLimited }
            recent.append(event.time)
        }
        lastPassed[key] = event.time
        return .pass
    }
}
