import MTTCore
import Testing

/// What passes a hook over a simulated hour: the cooldown per type and key, the mute list, the rate
/// limit, counted on the events' own times.
@Suite("Hook gate")
struct HookGateTests {
    static let start = Timestamp(secondsSinceEpoch: 1_782_000_000)

    static func event(_ type: FieldEventType, minute: Double, gateway: String? = nil, node: String? = nil, heardBy: [String]? = nil) -> FieldEvent {
        var e = FieldEvent(type, at: start.adding(seconds: minute * 60), session: 1)
        e.gateway = gateway.map { FieldEvent.Gateway(id: $0) }
        e.node = node
        e.heardBy = heardBy
        return e
    }

    @Test func aCooldownPassesOneEventPerTypeAndKeyEachPeriod() {
        var rule = HookRule(name: "hooks[1]", types: [.coverageLost, .newGateway], target: .command(["true"]))
        rule.cooldown = 600
        var gate = HookGate(rule)
        // An hour: coverage lost every minute; three gateways each "new" every 6 minutes.
        var passed: [FieldEventType: Int] = [:], perGateway: [String: Int] = [:]
        for minute in 0..<60 {
            if gate.admit(Self.event(.coverageLost, minute: Double(minute))) == .pass { passed[.coverageLost, default: 0] += 1 }
            if minute % 6 == 0 {
                for id in ["gw-a", "gw-b", "gw-c"] where gate.admit(Self.event(.newGateway, minute: Double(minute), gateway: id)) == .pass {
                    perGateway[id, default: 0] += 1
                }
            }
            #expect(gate.admit(Self.event(.heard, minute: Double(minute))) == .notWanted)
        }
        // Minutes 0, 10, …, 50; each gateway at 0, 12, 24, 36, 48 (6 after 10 minutes is still cooling).
        #expect(passed[.coverageLost] == 6)
        #expect(perGateway == ["gw-a": 5, "gw-b": 5, "gw-c": 5])
    }

    @Test func mutedGatewaysNeverPassAndAnUplinkOnlyTheyHeardIsMutedToo() {
        var rule = HookRule(name: "hooks[1]", types: [.newGateway, .heard, .coverageBack], target: .command(["true"]))
        rule.mute = ["home-gw"]
        var gate = HookGate(rule)
        #expect(gate.admit(Self.event(.newGateway, minute: 0, gateway: "home-gw")) == .muted)
        #expect(gate.admit(Self.event(.newGateway, minute: 1, gateway: "far-gw")) == .pass)
        #expect(gate.admit(Self.event(.heard, minute: 2, heardBy: ["home-gw"])) == .muted)
        #expect(gate.admit(Self.event(.heard, minute: 3, heardBy: ["home-gw", "far-gw"])) == .pass)
        #expect(gate.admit(Self.event(.coverageBack, minute: 4, heardBy: ["home-gw"])) == .muted)
    }

    @Test func aRateLimitCountsEveryTypeTogetherInASlidingWindow() {
        var rule = HookRule(name: "hooks[1]", types: [.lost, .nodeLost], target: .webhook(url: "http://127.0.0.1:1/", text: false))
        (rule.rateLimit, rule.ratePeriod) = (10, 3_600)
        var gate = HookGate(rule)
        var verdicts: [HookGate.Verdict] = []
        // Two hours, one event every two minutes, the types alternating.
        for minute in stride(from: 0.0, to: 120, by: 2) {
            verdicts.append(gate.admit(Self.event(Int(minute) % 4 == 0 ? .lost : .nodeLost, minute: minute, node: "n")))
        }
        let firstHour = verdicts.prefix(30), secondHour = verdicts.suffix(30)
        #expect(firstHour.filter { $0 == .pass }.count == 10 && firstHour.filter { $0 == .rateLimited }.count == 20)
        // The window slides: the first hour's passes age out at minutes 60, 62, …
        #expect(secondHour.filter { $0 == .pass }.count == 10)
    }

    @Test func hooksAreReadFromTheirTablesWithTheirProblemsPlaced() throws {
        let values: [String: (value: ConfigValue, line: Int)] = [
            "on": (.list(["coverage_lost", "new_gateway"]), 3), "url": (.text("https://ntfy.sh/topic"), 4), "text": (.flag(true), 5),
            "cooldown": (.text("5m"), 6), "rate": (.text("3/10m"), 7), "mute": (.list(["gw"]), 8),
        ]
        let rule = try HookSettings.rule(values, index: 2, header: 2, path: "c.toml")
        #expect(rule.types == [.coverageLost, .newGateway] && rule.target == .webhook(url: "https://ntfy.sh/topic", text: true))
        #expect(rule.cooldown == 300 && rule.rateLimit == 3 && rule.ratePeriod == 600 && rule.mute == ["gw"])
        for (bad, message) in [
            (["on": (ConfigValue.list(["coverage"]), 3), "command": (.list(["true"]), 4)], "c.toml:3: hooks[2].on: coverage is not an event type"),
            (["on": (.list(["lost"]), 3)], "c.toml:2: hooks[2]: needs command"),
            (["on": (.list(["lost"]), 3), "command": (.list(["true"]), 4), "cooldwn": (.text("1m"), 5)], "c.toml:5: hooks[2].cooldwn: unknown setting"),
            (["on": (.list(["lost"]), 3), "command": (.list(["true"]), 4), "rate": (.text("often"), 6)], "c.toml:6: hooks[2].rate: must be events per time"),
        ] {
            do {
                _ = try HookSettings.rule(bad, index: 2, header: 2, path: "c.toml")
                Issue.record("accepted \(bad.keys.sorted())")
            } catch {
                #expect(error.description.hasPrefix(message), "\(error)")
            }
        }
        let flag = try HookSettings.rule(commandLine: "gps_lost,node_lost=paplay /usr/share/sounds/alert.oga")
        #expect(flag.types == [.gpsLost, .nodeLost] && flag.target == .command(["paplay", "/usr/share/sounds/alert.oga"]))
    }
}
