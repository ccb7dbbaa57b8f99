import Foundation
import MTTBluetooth
import MTTCore
import MTTGPS
import MTTMQTT
import MTTSerial

/// What `mtt collect` (and `mtt demo`) was asked to do, checked before anything is opened.
struct CollectPlan {
    var mode: CollectionMode
    var nodes: [NodeSpec]
    var gps: GPSSpec
    var fakeNetwork: Bool
    var mqtt: MQTTSettings?
    var topics: [String]
    /// How the network's MQTT server writes uplinks: The Things Stack's, or ChirpStack's.
    var format: UplinkFormat = .theThingsStack
    /// How much of the network's uplinks one run takes in (`collect.max_receptions`, `collect.new_gateways`).
    var limits = UplinkLimits()
    /// The TTS device IDs to hear (+ for all); kept with the session for `mtt fetch`.
    var devices: [String] = []
    /// The MQTT user, also without --mqtt-url: it names the application `mtt fetch` reads.
    var mqttUser: String?
    /// `--web`: the live map, served while the run lasts.
    var web: MapServing?
    /// The file the MQTT password is read from (or MTT_MQTT_PASSWORD), when the run starts.
    var passwordFile: String?
    var databasePath: String?
    var policy: SendPolicy
    var interval: Double
    /// Simulated seconds per real second; only when everything is simulated.
    var speed: Double
    /// Real seconds until the run stops by itself (`--duration`); nil: until a stop request.
    var duration: Double?
    /// Where the simulated gateways stand; empty for three around the fake route.
    var fakeGateways: [SimulatedNetwork.Gateway] = []
    /// When coverage is lost and where the map is; the hooks that hear the events.
    var alerts = AlertRules()
    var hooks: [HookRule] = []
    /// `--gps payload[+GPS]`: positions from the uplinks' own payloads.
    var payload: PayloadPlacement?
    /// Simulated trackers the simulated network hears (`--network fake?trackers=N`).
    var trackers: SimulatedTrackerFleet?
    /// Simulated field testers the simulated network hears (`--network fake?testers=N`).
    var simulatedTesters: SimulatedFieldTesters?
    /// The field testers answered (`--field-tester`), their replies replacing or joining the queue.
    var fieldTesters: FieldTesterDesk.Settings?
    var replaceDownlinks = true
    /// `--linkcheck`: a link check with every send.
    var checkLinks = false

    var everythingSimulated: Bool {
        // `payload` alone reads no device of its own: only the network's uplinks carry positions.
        guard gps.kind.followsTheRunClock || gps.payloadBesideTrack == false else { return false }
        return nodes.allSatisfy(\.kind.followsTheRunClock) && (fakeNetwork || mqtt == nil)
    }
}

/// The adapters a run needs, built from a plan: the command line's part of a collection (it knows
/// the specs and the hardware); the run itself is MTTCore's `CollectionRun`.
final class CollectPorts: @unchecked Sendable {
    let store: Store
    let clock: any TimeSource
    let fixes: any FixSource
    let uplinks: (any UplinkSource)?
    let nodes: [ActiveNode]
    private let keepAlive: [Any]
    private let publisher: TTNUplinkPublisher?
    /// Where field testers' replies go.
    let downlinks: MQTTDownlinkSender?
    /// The simulated trackers' drive, for as long as the run lasts.
    private var trackersDriving: Task<Void, Never>?
    /// The simulated field testers' drive and the replies they hear.
    private var testersDriving: Task<Void, Never>?
    private var testersListening: MQTTDownlinkListener?
    let nodeInfos: [String: NodeInfo]
    /// Nodes the simulated network cannot hear: only radios emulated in this process reach it.
    let unheardBySimulatedNetwork: [String]

    init(plan: CollectPlan) async throws {
        store = try DatabaseOptions.open(plan.databasePath, .create)
        // A sped-up run is dated to reach the wall clock when it ends (it needs a --duration).
        clock = plan.speed == 1 ? SystemClock() : ScaledClock.simulated(scale: plan.speed, endingAfter: plan.duration ?? 0)
        fixes = plan.gps.source(FixSourceContext(clock: clock))

        // The simulated network hears the emulated radios; with --mqtt-url its uplinks go through
        // the broker (as The Things Stack's would), else straight to the run.
        var feed: SimulatedUplinkFeed?
        if plan.fakeNetwork {
            let network = plan.fakeGateways.isEmpty
                ? SimulatedNetwork.around(SimulatedDrive.defaultStart)
                : SimulatedNetwork(gateways: plan.fakeGateways)
            var forward: (@Sendable (Uplink) -> Void)?
            if let mqtt = plan.mqtt {
                let publisher = try TTNUplinkPublisher(settings: mqtt, format: plan.format)
                self.publisher = publisher
                forward = { publisher.publish($0) }
            } else {
                publisher = nil
            }
            let simulated = SimulatedUplinkFeed(network: network, clock: clock, forward: forward)
            feed = simulated
            if let fleet = plan.trackers {
                let clock = clock
                trackersDriving = Task { await fleet.run(through: simulated, clock: clock) }
            }
            // The simulated testers send through the broker and read their replies from it.
            if let testers = plan.simulatedTesters, let mqtt = plan.mqtt {
                let clock = clock
                let listener = try MQTTDownlinkListener(settings: mqtt, server: plan.format.server)
                testersListening = listener
                testersDriving = Task {
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask { await testers.run(through: simulated, clock: clock) }
                        group.addTask { for await downlink in listener.downlinks { testers.receive(downlink) } }
                    }
                }
            }
        } else if plan.checkLinks && plan.mqtt == nil {
            // Link checks with no network access: the emulated modems are heard by simulated
            // gateways that answer their checks, and nothing of theirs reaches the run.
            publisher = nil
            feed = SimulatedUplinkFeed(network: SimulatedNetwork.around(SimulatedDrive.defaultStart), clock: clock, forward: { _ in })
        } else {
            publisher = nil
        }
        if let mqtt = plan.mqtt {
            uplinks = TTNUplinkSource(settings: mqtt, topics: plan.topics, format: plan.format, limits: plan.limits)
        } else {
            uplinks = plan.fakeNetwork ? feed : nil
        }
        if plan.fieldTesters != nil, let mqtt = plan.mqtt {
            downlinks = try MQTTDownlinkSender(settings: mqtt, server: plan.format.server, replace: plan.replaceDownlinks)
        } else {
            downlinks = nil
        }

        var nodes: [ActiveNode] = []
        var infos: [String: NodeInfo] = [:]
        var keepAlive: [Any] = []
        var unheard: [String] = []
        for spec in plan.nodes {
            for node in try await spec.open(NodeOpening(speed: plan.speed)) {
                let info = try await node.link.info()
                infos[node.link.name] = info
                nodes.append(ActiveNode(link: node.link, devEUI: info.devEUI, connector: node.connector))
                keepAlive.append(node)
                if let feed {
                    if let radio = node.radio {
                        await feed.hear(radio, node: node.link.name, info: info)
                    } else if plan.fakeNetwork {
                        unheard.append(node.link.name)
                    }
                }
            }
        }
        unheardBySimulatedNetwork = unheard
        self.nodes = nodes
        self.nodeInfos = infos
        self.keepAlive = keepAlive
    }

    /// The ports and settings of the run, for MTTCore.
    func run(
        _ plan: CollectPlan, hooks: HookDispatcher?, observe: @escaping @Sendable (CollectEvent) -> Void,
        report: @escaping @Sendable (FieldEvent) -> Void, reporting: Set<FieldEventType>
    ) throws -> CollectionRun {
        var settings = CollectionRun.Settings(
            mode: plan.mode, policy: plan.policy, interval: plan.interval, clock: clock,
            description: SessionDescription(
                nodes: plan.nodes.isEmpty ? nil : plan.nodes.map(\.description).joined(separator: " "), gps: plan.gps.description,
                network: plan.fakeNetwork ? "fake" : plan.mqtt?.description, mqttURL: plan.mqtt?.endpoint.description,
                mqttUser: plan.mqttUser, devices: plan.devices,
                simulated: SimulatedParts.of(nodes: plan.nodes, gps: plan.gps, fakeNetwork: plan.fakeNetwork, speed: plan.speed)),
            alerts: plan.alerts)
        settings.payload = plan.payload
        settings.fieldTesters = plan.fieldTesters
        settings.checkLinks = plan.checkLinks
        return try CollectionRun(
            store: store, ports: .init(fixes: fixes, nodes: nodes, uplinks: uplinks, downlinks: downlinks), settings: settings,
            hooks: hooks, observe: observe, report: report, reporting: reporting)
    }

    /// Closes what the run does not: the simulated network's publisher.
    func close() {
        trackersDriving?.cancel()
        testersDriving?.cancel()
        testersListening?.close()
        publisher?.close()
        downlinks?.close()
    }
}
