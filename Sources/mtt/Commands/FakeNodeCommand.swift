import ArgumentParser
import Glibc
import MTTBluetooth
import MTTCore

struct FakeNodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fake-node",
        abstract: "Serve the emulated MapTheThings node on a Unix socket or over Bluetooth LE, for tests and trials.",
        discussion: """
            unix:PATH: another mtt on this machine connects with --node unix:PATH and talks real ATT \
            to it, one PDU per message.

            ble:hciN (or ble:auto, the first LE adapter): the node advertises on that adapter as \
            "MapTheThings" with its LoRa service, and any central (mtt on another machine or on a \
            second adapter, a phone) connects to it as to a real node. No bluetoothd is needed; mtt \
            switches the adapter on, LE and connectable. Needs root or CAP_NET_ADMIN and CAP_NET_RAW.

            The node keeps its keys and frame counter across connections until this process ends.
            """)

    @Option(help: ArgumentHelp("Where to listen: unix:PATH, ble:hciN or ble:auto.", valueName: "address"))
    var listen: String

    @Flag(name: .customLong("not-joined"), help: "Start without a LoRa session, as a fresh node.")
    var notJoined = false

    @Option(name: .customLong("static-address"), help: ArgumentHelp(
        "ble: advertise from this static random address (C0:00:00:00:00:00 to FF:FF:FF:FF:FF:FF) instead of the adapter's public one.",
        valueName: "address"))
    var staticAddress: String?

    @Option(help: ArgumentHelp("How long each transmission keeps the radio busy (default 0.05 s; a real SF10 uplink takes about 0.4 s).", valueName: "seconds"))
    var airtime: Double?

    @Option(help: ArgumentHelp("The ATT MTU the node offers (23, as the MapTheThings firmware, up to 517).", valueName: "bytes"))
    var mtu: UInt16 = 23

    enum Place {
        case unix(String)
        /// nil: the first LE adapter.
        case adapter(String?)
    }

    var place: Place? {
        if listen.hasPrefix("unix:"), listen.count > 5 { return .unix(String(listen.dropFirst(5))) }
        if listen == "ble:auto" { return .adapter(nil) }
        if listen.hasPrefix("ble:hci"), Int(listen.dropFirst(7)) != nil { return .adapter(String(listen.dropFirst(4))) }
        return nil
    }

    func validate() throws {
        guard let place else { throw ValidationError("--listen takes unix:PATH, ble:hciN or ble:auto") }
        if staticAddress != nil, case .unix = place { throw ValidationError("--static-address is for ble: listeners") }
        guard (23...517).contains(mtu) else { throw ValidationError("--mtu takes 23 to 517") }
        if let airtime, !(0...60).contains(airtime) { throw ValidationError("--airtime takes 0 to 60 seconds") }
    }

    func run() async throws {
        let emulator = NodeEmulator(joined: !notJoined)
        let (mtu, airtime) = (mtu, airtime)
        await emulator.configure { behaviour in
            behaviour.mtu = mtu
            if let airtime { behaviour.airtime = airtime }
        }
        switch place {
        case .unix(let path):
            let listener = try UnixATTListener(path: path)
            // Ctrl-C, SIGTERM (systemctl stop, kill) or a closed terminal end it and take its socket
            // file with it.
            let interrupts = InterruptWatch {
                listener.removeSocketFile()
                Glibc.exit(0)
            }
            defer { interrupts.cancel() }
            Console.out("MapTheThings node emulator listening on unix:\(path)")
            try await emulator.serve(connectionsFrom: listener)
        case .adapter(let name):
            let adapter = try BluetoothAdapter.named(name)
            let advertising = PeripheralAdvertising(
                adapter: adapter, name: MapTheThingsProfile.advertisedName, services: [MapTheThingsProfile.loraService], staticAddress: staticAddress)
            try advertising.start()
            advertising.keepAdvertising()
            let (address, type) = advertising.address
            let listener = try LEAttributeListener(address: address, type: type)
            let node = BLENodeAddress.spec(address: address, type: type)
            Console.out("MapTheThings node emulator advertising on \(adapter.name) as \(address) (\(type == .random ? "static random" : "public")): --node \(node)")
            try await emulator.serve(connectionsFrom: listener)
        case nil:
            preconditionFailure("validate() checked --listen")
        }
    }
}
