import ArgumentParser
import Foundation
import MTTCore
import MTTGPS
import MTTMQTT
import MTTSerial
import MTTSystem
import MTTWeb
import Synchronization

struct Collect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Collect coverage samples in active, matching or listener mode.",
        discussion: """
            active:   mtt makes each node transmit whenever you moved and the fix is good.
            matching: the node transmits on its own; mtt records the track and aligns uplinks to it.
            listener: mtt listens to TTN over MQTT and positions each uplink of the chosen devices.

            Stop with Ctrl-C: everything stored so far stays. An attempt still waiting for its \
            result is marked failed at the next start.

            On the road: a node whose link drops is reconnected for as long as the run lasts (the \
            attempt in flight is stored failed), and a serial modem that is not joined is joined \
            with the keys it holds, within LoRaWAN's join back-off. Name a USB modem by its \
            /dev/serial/by-id/ link so it is found again when it is plugged back.
            """)

    // Optional to ArgumentParser so that a mistyped option (`--mod active`) is named as unknown
    // rather than reported as a missing --mode; `plan()` requires it.
    @Option(help: "active, matching or listener (required, here or in the configuration).")
    var mode: CollectModeArgument?

    @Option(help: ArgumentHelp("A node to drive (repeatable): \(NodeKind.formsHelp).", valueName: "spec"))
    var node: [String] = []

    @Option(help: ArgumentHelp("Where positions come from: \(FixSourceKind.formsHelp) (default \(ConfigKey.gps.defaultText)). payload, in listener mode: each device's own fix from its uplinks (a tracker, a field tester), read from the network's decoded payload or by --codec; payload+GPS: also that GPS's track, for the devices whose uplinks carry no position (a device that sends its fix is placed by it alone).", valueName: "spec"))
    var gps: String?

    @Option(help: ArgumentHelp("The network server: \(NetworkServer.helpText); fake: simulated gateways that hear this run's emulated nodes (--node fake[:N], fake-KIND) and nothing else, publishing through --mqtt-url as The Things Stack does if given (fake?format=NAME: as that network does); fake?trackers=N also hears N simulated GPS trackers driving the town, for --mode listener --gps payload (fake?format=chirpstack&trackers=N on ChirpStack); fake?testers=N, N simulated field testers, answered by this run and checking each reply on the broker (--mqtt-url).", valueName: "name"))
    var network: String?

    @Option(name: .customLong("mqtt-url"), help: ArgumentHelp("The TTN MQTT server, mqtt://HOST:1883 or mqtts://HOST:8883.", valueName: "url"))
    var mqttURL: String?

    @Option(name: .customLong("mqtt-user"), help: ArgumentHelp("MQTT username, APP_ID@ttn (kept with the session for mtt fetch, also without --mqtt-url).", valueName: "user"))
    var mqttUser: String?

    @Option(name: .customLong("mqtt-password-file"), help: ArgumentHelp("File holding the API key, readable by you alone (chmod 600), or set MTT_MQTT_PASSWORD.", valueName: "file"))
    var mqttPasswordFile: String?

    @Option(name: .customLong("mqtt-ca"), help: ArgumentHelp("A CA certificate for a server with a private CA (mqtts:// checks certificates against the system's CAs otherwise).", valueName: "file"))
    var mqttCA: String?

    @Option(name: .customLong("mqtt-topic"), help: ArgumentHelp("Subscribe to this topic instead of v3/USER/devices/ID/up (repeatable).", valueName: "topic"))
    var mqttTopic: [String] = []

    @Option(help: ArgumentHelp("A TTN device ID to hear, or on ChirpStack a DevEUI (repeatable; + for all); kept with the session for mtt fetch.", valueName: "id"))
    var device: [String] = []

    @Option(help: ArgumentHelp("With --gps payload, for a device whose network decodes nothing: read its payload with CODEC (repeatable; DEVICE a device id, a DevEUI or + for every device): \(PositionCodec.namesText).", valueName: "device=codec"))
    var codec: [String] = []

    @Option(name: .customLong("field-tester"), help: ArgumentHelp(
        "Listener mode: answer this field tester's tests (disk91 Wio tester, RAK10701; repeatable; a device id, a DevEUI, or + for every device): each port-1 uplink gets its 6-byte reply (gateways, RSSI range, nearest and farthest gateway) as a downlink through the MQTT server, at most [field_tester] daily_cap a day. The MQTT user needs the right to write downlinks.",
        valueName: "device"))
    var fieldTester: [String] = []

    @Option(help: ArgumentHelp(ConfigKey.application.help, valueName: "id"))
    var application: String?

    @Option(name: .customLong("network-id"), help: ArgumentHelp(ConfigKey.networkID.help, valueName: "id"))
    var networkID: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this long, e.g. 90s, 10m, 2h: real time, also under --speed.", valueName: "duration"))
    var duration: DurationArgument?

    @Option(parsing: .unconditional, help: ArgumentHelp("Active mode: also send every this long when standing still (never more often than --min-interval).", valueName: "duration"))
    var every: DurationArgument?

    @Flag(name: .customLong("linkcheck"), help: ArgumentHelp(
        "Active mode with serial modems (serial:…, fake-rn2483, fake-rui3): send a LoRaWAN link check with every uplink; the answer says how many gateways heard it and the margin in dB. With no --mqtt-url this is the map: answered is heard, no answer is not heard. Kept apart from the network's own uplinks, never uploaded as receptions."))
    var linkCheck = false

    @Option(name: .customLong("max-fix-age"), parsing: .unconditional, help: ArgumentHelp("Active mode: do not send on a fix older than this (default \(ConfigKey.maxFixAge.defaultText)).", valueName: "duration"))
    var maxFixAge: DurationArgument?

    @Option(name: .customLong("max-eph"), parsing: .unconditional, help: ArgumentHelp("Active mode: do not send when the GPS error estimate is this many metres or more (default \(ConfigKey.maxEPH.defaultText)).", valueName: "metres"))
    var maxEPH: Double?

    @Option(name: .customLong("min-distance"), parsing: .unconditional, help: ArgumentHelp("Active mode: metres to move between sends (default \(ConfigKey.minDistance.defaultText)).", valueName: "metres"))
    var minDistance: Double?

    @Option(name: .customLong("min-interval"), parsing: .unconditional, help: ArgumentHelp("Active mode: time between sends (default \(ConfigKey.minInterval.defaultText)).", valueName: "duration"))
    var minInterval: DurationArgument?

    @Option(name: .customLong("fake-gateway"), help: ArgumentHelp("With --network fake: a simulated gateway at LAT,LON (repeatable; default three around the fake route).", valueName: "lat,lon"))
    var fakeGateway: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp(ConfigKey.interval.help, valueName: "duration"))
    var interval: DurationArgument?

    @Option(parsing: .unconditional, help: ArgumentHelp("Run a fully simulated collection this many times faster than real time (\(Self.speeds.lowerBound.plainText) to \(Self.speeds.upperBound.plainText)); above 1 it needs --duration, and is dated to end when it ends.", valueName: "factor"))
    var speed: Double = 1

    @Option(help: ArgumentHelp("Also serve the live map (as mtt serve does) on this address, e.g. 127.0.0.1:8080, or 0.0.0.0:8080 for a phone (then with a token).", valueName: "host:port"))
    var web: String?

    @Option(name: .customLong("web-token-file"), help: ArgumentHelp("With --web off loopback: the token, from a file only you can read (default: a new one, printed in the link).", valueName: "file"))
    var webTokenFile: String?

    @Option(help: ArgumentHelp(
        "Run a command when an event happens (repeatable): TYPE[,TYPE…]=PROGRAM ARGUMENT…, without a shell; the event is on its standard input as JSON and in MTT_EVENT_* variables. Types and more hooks (webhooks, cooldowns, mutes): docs/events.md and [[hooks]] in the configuration.",
        valueName: "type=command"))
    var on: [String] = []

    /// Faster than 1000× the simulated drive outruns the store and the clock's own sleeps.
    static let speeds = 0.1...1000.0

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    /// What the command line says, for the configuration layer; nil and empty mean "not given".
    var flags: [ConfigKey: ConfigValue] {
        var flags: [ConfigKey: ConfigValue] = [:]
        func put(_ key: ConfigKey, _ value: ConfigValue?) { if let value { flags[key] = value } }
        put(.mode, mode.map { .text($0.mode.rawValue) })
        put(.nodes, node.isEmpty ? nil : .list(node))
        put(.gps, gps.map { .text($0) })
        put(.network, network.map { .text($0) })
        put(.mqttURL, mqttURL.map { .text($0) })
        put(.mqttUser, mqttUser.map { .text($0) })
        put(.mqttPasswordFile, mqttPasswordFile.map { .text($0) })
        put(.mqttCA, mqttCA.map { .text($0) })
        put(.devices, device.isEmpty ? nil : .list(device))
        put(.trackerCodecs, codec.isEmpty ? nil : .list(codec))
        put(.fieldTesters, fieldTester.isEmpty ? nil : .list(fieldTester))
        put(.application, application.map { .text($0) })
        put(.networkID, networkID.map { .text($0) })
        put(.interval, interval.map { .number($0.seconds) })
        put(.web, web.map { .text($0) })
        put(.webTokenFile, webTokenFile.map { .text($0) })
        put(.every, every.map { .number($0.seconds) })
        put(.linkCheck, linkCheck ? .flag(true) : nil)
        put(.maxFixAge, maxFixAge.map { .number($0.seconds) })
        put(.maxEPH, maxEPH.map { .number($0) })
        put(.minDistance, minDistance.map { .number($0) })
        put(.minInterval, minInterval.map { .number($0.seconds) })
        return flags
    }

    // The options are checked in `run()`, first thing, not in `validate()`: ArgumentParser
    // validates before it looks for unknown options, and `--mod active` must say "unknown option".

    /// Every option checked and turned into a plan; usage errors exit 64 before anything opens.
    func plan() throws -> CollectPlan {
        func spec<T>(_ parse: () throws -> T) throws -> T {
            do { return try parse() } catch { throw ValidationError("\(error)") }
        }
        // Usage errors in the flags themselves first (64), then the layered settings.
        try duration?.check("--duration")
        try every?.check("--every")
        try interval?.check("--interval")
        try maxFixAge?.check("--max-fix-age")
        try minInterval?.check("--min-interval", allowingZero: true)
        let settings = try database.settings(flags, hooks: on)
        guard let mode = settings.text(.mode).flatMap(CollectionMode.init(rawValue:)) else {
            throw ValidationError("give --mode active, matching or listener (or mode in the [collect] section of the configuration)")
        }
        let node = settings.list(.nodes), gps = settings.text(.gps) ?? ConfigKey.gps.defaultText, network = settings.text(.network)
        let mqttURL = settings.text(.mqttURL), mqttUser = settings.text(.mqttUser), mqttCA = settings.text(.mqttCA)
        let device = settings.list(.devices), web = settings.text(.web), webTokenFile = settings.text(.webTokenFile)
        let application = settings.text(.application), networkID = settings.text(.networkID)
        let nodes = try node.map { text in try spec { try NodeKind.spec(text) } }
        let gpsSpec = try spec { try FixSourceKind.spec(gps) }
        if let problem = mode.nodeProblem(nodes) { throw ValidationError(problem) }
        let choice = try spec { try NetworkChoice(parsing: network) }
        let fakeNetwork = choice.simulated
        var mqtt: MQTTSettings?
        var topics: [String] = []
        var format = UplinkFormat.theThingsStack
        if let mqttURL {
            var settings = MQTTSettings(endpoint: try spec { try MQTTEndpoint(parsing: mqttURL) })
            settings.username = mqttUser
            settings.caFile = mqttCA
            mqtt = settings
            format = choice.format(networkID: networkID, host: settings.endpoint.host)
            if !mqttTopic.isEmpty {
                topics = mqttTopic
            } else {
                let subscription = NetworkSubscription(
                    username: mqttUser, application: application, devices: device.isEmpty && fakeNetwork ? ["+"] : device, simulated: fakeNetwork)
                // What the server needs named, said with the flags that name it.
                if let what = choice.server.application, application == nil, !fakeNetwork {
                    throw ValidationError("give --application ID: \(what) whose devices to hear, or + for all")
                }
                if subscription.devices.isEmpty {
                    throw ValidationError("give --device \(choice.server.deviceName) for each device to hear (or --device + for all of the application's)")
                }
                topics = try spec { try choice.topics(subscription) }
            }
        } else if network != nil && !fakeNetwork {
            throw ValidationError("--network \(choice) needs its MQTT server: --mqtt-url mqtt://HOST:1883")
        }
        // Without --mqtt-url (no network in the field) matching and listener modes record the track,
        // and the session keeps --mqtt-user and --device for `mtt fetch`.
        if mqttURL == nil && mode != .active && network == nil && device.isEmpty {
            Console.error("mtt: no --mqtt-url: recording the track only; name the devices with --device so that `mtt fetch` can complete the session later")
        }
        var policy = SendPolicy()
        policy.every = settings.number(.every)
        policy.maximumFixAge = settings.number(.maxFixAge) ?? policy.maximumFixAge
        policy.maximumEPH = settings.number(.maxEPH) ?? policy.maximumEPH
        policy.minimumDistance = settings.number(.minDistance) ?? policy.minimumDistance
        policy.minimumInterval = settings.number(.minInterval) ?? policy.minimumInterval
        let gateways = try SimulatedNetwork.placed(at: fakeGateway.map { text in
            guard let point = FixedPositionSource.point(parsing: text) else {
                throw ValidationError("--fake-gateway takes LAT,LON (latitude -90…90, longitude -180…180), not \(text)")
            }
            return point
        }).gateways
        if !gateways.isEmpty && !fakeNetwork { throw ValidationError("--fake-gateway goes with --network fake") }
        var plan = CollectPlan(
            mode: mode, nodes: nodes, gps: gpsSpec, fakeNetwork: fakeNetwork, mqtt: mqtt, topics: topics, format: format,
            databasePath: settings.text(.database), policy: policy, interval: settings.number(.interval) ?? mode.defaultTrackInterval, speed: speed)
        plan.fakeGateways = gateways
        plan.limits = UplinkLimits(
            receptionsPerUplink: Int(settings.amount(.maxReceptions)), newGatewaysPerMinute: Int(settings.amount(.newGatewaysPerMinute)))
        if let besideTrack = gpsSpec.payloadBesideTrack {
            guard mode == .listener else {
                throw ValidationError("--gps payload is for listener mode: the devices put their own fixes in the uplinks the network hears")
            }
            do {
                var positioning = try settings.payloadPositioning()
                // The simulated trackers' raw frames are read with their codecs, unless --codec says otherwise.
                if choice.trackers > 0 { positioning.codecs = positioning.codecs.adding(SimulatedTrackerFleet(count: choice.trackers).codecs) }
                plan.payload = PayloadPlacement(positioning: positioning, gaps: settings.frameCounterGapRules, besideTrack: besideTrack)
            } catch {
                throw ConfigOptions.failure(error)
            }
        } else if !codec.isEmpty {
            throw ValidationError("--codec goes with --gps payload: it reads positions from the devices' uplinks")
        }
        if choice.testers > 0 {
            guard mode == .listener, mqtt != nil else {
                throw ValidationError("--network fake?testers=N is for listener mode with a broker (--mqtt-url): the testers wait for their replies there")
            }
            plan.simulatedTesters = SimulatedFieldTesters(count: choice.testers)
        }
        // The simulated testers are answered as any named ones.
        let testers = settings.list(.fieldTesters) + (plan.simulatedTesters?.devices.map(\.deviceID) ?? [])
        if !testers.isEmpty {
            guard mode == .listener else {
                throw ValidationError("--field-tester is for listener mode: mtt hears the tester's uplinks through the network and answers each")
            }
            guard mqtt != nil else {
                throw ValidationError("--field-tester needs the network's MQTT server (--mqtt-url): the replies are downlinks queued there")
            }
            plan.fieldTesters = FieldTesterDesk.Settings(devices: testers, dailyCap: Int(settings.amount(.fieldTesterDailyCap)))
            // One of its choices, checked as the configuration is read.
            plan.replaceDownlinks = settings.text(.fieldTesterQueue) == "replace"
            // A tester's own frames place its tests, unless --codec says otherwise.
            if var payload = plan.payload {
                payload.positioning.codecs = payload.positioning.codecs.adding(Dictionary(testers.map { ($0, PositionCodec.fieldTester) }) { first, _ in first })
                plan.payload = payload
            }
        }
        if choice.trackers > 0 {
            guard mode == .listener else {
                throw ValidationError("--network fake?trackers=N is for listener mode: --mode listener --gps payload hears the trackers and places them where they say")
            }
            plan.trackers = SimulatedTrackerFleet(count: choice.trackers)
        }
        if settings.flag(.linkCheck) {
            guard mode == .active else {
                throw ValidationError("--linkcheck is for active mode: the modem asks the network with each uplink it sends")
            }
            if let other = nodes.first(where: { !$0.kind.checksLinks }) {
                throw ValidationError("--linkcheck needs serial modems (serial:…, fake-rn2483, fake-rui3): \(other.description) cannot send a link check")
            }
            plan.checkLinks = true
        }
        plan.duration = duration?.seconds
        plan.devices = device
        plan.mqttUser = mqttUser
        if let web {
            plan.web = MapServing(listen: web, tokenFile: webTokenFile)
            try plan.web?.check(settings, listen: .web, tiles: nil)
        }
        if !Self.speeds.contains(speed) {
            throw ValidationError("--speed takes \(Self.speeds.lowerBound.plainText) to \(Self.speeds.upperBound.plainText), not \(speed)")
        }
        plan.passwordFile = settings.text(.mqttPasswordFile)
        plan.alerts = settings.alertRules
        plan.hooks = settings.hooks
        if speed != 1 && !plan.everythingSimulated {
            throw ValidationError("--speed is for fully simulated runs (--gps fake, fake nodes, --network fake)")
        }
        if speed > 1 && duration == nil {
            throw ValidationError("--speed above 1 needs --duration: a sped-up run is dated to end when it ends, so that none of its records is stamped in the future")
        }
        return plan
    }

    func run() async throws {
        var plan = try plan()
        // A broker without passwords (a local test broker) needs neither the file nor the variable.
        if var mqtt = plan.mqtt, plan.passwordFile != nil || SecretInput.environment("MTT_MQTT_PASSWORD") != nil {
            mqtt.password = try SecretInput.read(file: plan.passwordFile, environment: "MTT_MQTT_PASSWORD", what: "the MQTT password")
            plan.mqtt = mqtt
        }
        try await CollectSession.run(plan, style: output.json ? .json : (isatty(1) == 1 ? .live : .lines))
    }
}

extension CollectionMode: ExpressibleByArgument {}

/// One run of `mtt collect` or `mtt demo` as the command line shows it: build the adapters, start
/// MTTCore's run, render its events until a signal, the duration or a failure, stop it, summarise.
enum CollectSession {
    static func run(_ plan: CollectPlan, style: CollectOutput.Style) async throws {
        // Twice: the command line's pages once it is parsed, then the set-up's once the run is up,
        // so that the two are never resident together (the peak, not only the steady state, is lower).
        StartUpPages.release()
        let ports = try await CollectPorts(plan: plan)
        let hasNetworkSource = plan.mqtt != nil || plan.fakeNetwork
        let out = CollectOutput(style: style, clock: ports.clock, nodeInfos: ports.nodeInfos, hasNetworkSource: hasNetworkSource, policy: plan.policy)
        let hooks = try HookTargets.dispatcher(for: plan.hooks)
        let run = try ports.run(plan, hooks: hooks, observe: { out.handle($0) }, report: { out.handle($0) }, reporting: out.reportedTypes)
        out.attach(run)
        if !ports.unheardBySimulatedNetwork.isEmpty && style != .json {
            Console.error("mtt: --network fake hears only the emulated nodes of this process (--node fake, fake-KIND); \(ports.unheardBySimulatedNetwork.joined(separator: ", ")) will never be heard: give its real network with --mqtt-url, or use --node fake")
        }
        if run.resolvedAtStart > 0 && style != .json {
            Console.error("mtt: \(run.resolvedAtStart) attempt(s) left pending by an interrupted run are now marked failed")
        }
        if run.placedAtStart > 0 && style != .json {
            Console.error("mtt: \(run.placedAtStart) uplink(s) an interrupted run left without a sample are now placed on their track")
        }
        run.start()
        var map: MapServer?
        if let web = plan.web {
            do {
                let started = try await web.start(store: run.store, run: RunView(session: run.session, stats: { run.stats }, events: { run.events() }))
                map = started.server
                for link in started.links { Console.error("mtt: the live map is at \(link)") }
            } catch {
                // The map is a view; the collection goes on without it.
                Console.error("mtt: no live map: \(error)")
            }
        }

        // Under systemd (Type=notify): up once the run has started; alive while its own loops go
        // round; a status line for `systemctl status`; stopping on the way out.
        let service = ServiceNotifier()
        service?.ready()
        StartUpPages.release()

        // Stop on Ctrl-C, SIGTERM, SIGHUP or the duration; redraw the live status each second meanwhile.
        let stop = StopSignal()
        let interrupts = InterruptWatch { stop.fire() }
        // Output that cannot be written stops the run as a signal does: the session is closed and
        // nothing is left pending. A reader that went away (`| head`) is a stop like SIGTERM;
        // any other write error ends the command with exit 1 afterwards.
        StandardOutput.onFailure { _ in stop.fire() }
        defer { interrupts.cancel() }
        let watch = RunWatch(
            duration: plan.duration, tick: style == .live ? 1 : 0.1, watchdogInterval: service?.watchdogInterval,
            queuesEvery: style == .live ? 10 : nil)
        let sped = ports.clock as? ScaledClock
        await run.watch(watch, stopRequested: { stop.fired || sped?.hasReachedWallTime == true }, observer: RunWatch.Observer(
            alive: { service?.watchdog() },
            status: { stats in service?.status(Self.statusLine(stats, mode: plan.mode)) },
            queues: { out.setUnsynced($0) },
            tick: {
                out.redraw()
                out.flush()
            }))
        service?.stopping()
        map?.stop()
        let failure = await run.stop()
        ports.close()
        // The last events' hooks get a few seconds.
        if let hooks { await HookTargets.windDown(hooks, within: 5, after: "after the stop") }
        out.flush()
        if style != .json {
            if style == .live { out.redraw() }
            Console.out("")
            Console.out(StatusText.render(try run.store.status(), path: run.store.path, networkKnown: hasNetworkSource))
            if let hooks { for line in HookTargets.report(hooks) { Console.out(line) } }
        }
        if let failure { throw RuntimeFailure("collection stopped: \(failure)" + Self.flagsFor(failure)) }
    }
}

extension CollectSession {
    /// The run in one line, for `systemctl status`.
    static func statusLine(_ s: CollectionStats, mode: CollectionMode) -> String {
        let loss = s.lossPercent.map { String(format: "loss %.0f %%", $0) } ?? "loss n/a"
        let nodes = s.lostNodes.isEmpty ? "" : ", \(s.lostNodes.count) node(s) lost"
        return "\(mode.rawValue): \(s.attempts) attempts, \(s.heard) heard, \(s.uplinks) uplinks, \(loss); GPS \(s.gps)\(nodes)"
    }

    /// The options that settle a failure the collection could not go on after: the adapters say
    /// what is wrong, the command line says where to change it.
    static func flagsFor(_ failure: any Error) -> String {
        guard case CollectError.network = failure else { return "" }
        return " (MQTT settings: --mqtt-url, --mqtt-user, --mqtt-password-file or MTT_MQTT_PASSWORD, --mqtt-ca)"
    }
}
