import FoundationEssentials
import Glibc
import Logging
import MTTCore

/// Makes an adapter a connectable LE peripheral that advertises a name and services, through the
/// management channel alone (no bluetoothd): what `mtt fake-node --listen ble:hciN` stands on.
public struct PeripheralAdvertising: Sendable {
    /// The advertising instance mtt uses; set again on every start, so a second start replaces it.
    static let instance: UInt8 = 1

    public let adapter: BluetoothAdapter
    public let name: String
    public let services: [BluetoothUUID]
    /// A static random address to advertise from instead of the adapter's public one.
    public let staticAddress: String?

    public init(adapter: BluetoothAdapter, name: String, services: [BluetoothUUID], staticAddress: String? = nil) {
        self.adapter = adapter
        self.name = name
        self.services = services
        self.staticAddress = staticAddress
    }

    /// The address a central connects to, and its type.
    public var address: (address: String, type: BLEAddressType) {
        staticAddress.map { ($0.uppercased(), .random) } ?? (adapter.address, .public)
    }

    /// Switches LE, connectable and power on and starts advertising. With a static address the
    /// adapter is powered off first and takes it (BR/EDR goes off too: the kernel uses a static
    /// address only on an LE-only adapter).
    public func start() throws {
        let channel = try ManagementChannel()
        let index = adapter.index
        if let staticAddress {
            guard let wire = DiscoveredDevice.wire(address: staticAddress), wire[5] >= 0xC0 else {
                throw BluetoothError.system(call: "set the static address", errno: EINVAL,
                                            message: "\(staticAddress) is not a static random address (it starts with C0 to FF)")
            }
            try channel.command(ManagementPacket.setPowered, controller: index, [0], what: "power \(adapter.name) off")
            // An LE-only adapter says "not supported" here, which is what is wanted anyway.
            _ = try? channel.command(ManagementPacket.setBREDR, controller: index, [0], what: "switch BR/EDR off")
            try channel.command(ManagementPacket.setStaticAddress, controller: index, wire, what: "set the static address")
        }
        try channel.command(ManagementPacket.setLowEnergy, controller: index, [1], what: "switch LE on")
        try channel.command(ManagementPacket.setConnectable, controller: index, [1], what: "make \(adapter.name) connectable")
        try channel.command(ManagementPacket.setPowered, controller: index, [1], what: "power \(adapter.name) on")
        try advertise(channel)
    }

    /// Advertises again each time the adapter is switched back on (`btmgmt power on`, rfkill,
    /// bluetoothd after a suspend): the kernel keeps the advertisement across a power cycle but
    /// does not always send it again. Runs until the process ends; a failure is logged and the
    /// next power-on tried again.
    public func keepAdvertising() {
        let logger = Logger(label: "mtt.fake-node")
        BlockingThread.start(name: "mtt-advertising") {
            while true {
                do {
                    let channel = try ManagementChannel()
                    var powered = true
                    try channel.events(for: .infinity) { event in
                        guard case .newSettings(let settings, adapter.index) = event else { return true }
                        let now = settings & BluetoothAdapter.Setting.powered != 0
                        if now && !powered {
                            try advertise(channel)
                            logger.info("\(adapter.name) switched on again: advertising again")
                        }
                        powered = now
                        return true
                    }
                } catch {
                    logger.warning("advertising on \(adapter.name): \(error)")
                    sleep(1)
                }
            }
        }
    }

    private func advertise(_ channel: ManagementChannel) throws {
        let index = adapter.index
        _ = try? channel.command(ManagementPacket.removeAdvertising, controller: index, [Self.instance], what: "remove the old advertisement")
        let data = AdvertisingData.encode(name: name, services: services)
        // Flags: connectable (bit 0) and general discoverable (bit 1, the kernel adds the Flags AD).
        let flags: [UInt8] = [0x03, 0, 0, 0]
        try channel.command(
            ManagementPacket.addAdvertising, controller: index,
            [Self.instance] + flags + [0, 0, 0, 0, UInt8(data.count), 0] + data, what: "start advertising on \(adapter.name)")
    }
}
