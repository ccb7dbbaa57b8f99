import FoundationEssentials
import Glibc

/// A Bluetooth controller of this machine (hciN), as the management channel describes it.
public struct BluetoothAdapter: Sendable, Hashable {
    public let index: UInt16
    /// The public address, `AA:BB:CC:DD:EE:FF`.
    public let address: String
    public let isPowered: Bool
    public let supportsLowEnergy: Bool

    public var name: String { "hci\(index)" }

    /// Every controller the kernel has, in index order.
    public static func all() throws -> [BluetoothAdapter] {
        try all(ManagementChannel())
    }

    static func all(_ channel: ManagementChannel) throws -> [BluetoothAdapter] {
        try indexes(channel).map { try read($0, channel) }
    }

    /// The adapter mtt scans and connects from: the first switched-on LE adapter, by index. The
    /// kernel, left to choose, takes the most recently added one, which may be the very adapter a
    /// fake node advertises on.
    static func central(_ channel: ManagementChannel) throws -> BluetoothAdapter {
        let adapters = try all(channel).filter(\.supportsLowEnergy)
        guard !adapters.isEmpty else { throw noLEAdapter }
        guard let on = adapters.first(where: \.isPowered) else {
            throw BluetoothError.system(call: "use \(adapters[0].name)", errno: ENETDOWN, message: ManagementPacket.statusText(0x0F))
        }
        return on
    }

    /// `hciN`, or for nil the first controller that can do LE.
    public static func named(_ name: String?) throws -> BluetoothAdapter {
        let adapters = try all()
        if let name {
            guard let found = adapters.first(where: { $0.name == name }) else {
                let present = adapters.isEmpty ? "none" : adapters.map(\.name).joined(separator: ", ")
                throw BluetoothError.system(call: "find \(name)", errno: ENODEV, message: "no such adapter (this machine has: \(present))")
            }
            return found
        }
        guard let first = adapters.first(where: \.supportsLowEnergy) else { throw noLEAdapter }
        return first
    }

    static let noLEAdapter = BluetoothError.system(call: "find an adapter", errno: ENODEV, message: "this machine has no Bluetooth LE adapter")

    static func indexes(_ channel: ManagementChannel) throws -> [UInt16] {
        let answer = try channel.command(ManagementPacket.readControllerIndexList, controller: ManagementPacket.noController, what: "list the Bluetooth adapters")
        guard answer.count >= 2 else { return [] }
        let count = Int(answer[0]) | Int(answer[1]) << 8
        // The kernel lists the newest first.
        return (0..<count).compactMap { i in
            let at = 2 + 2 * i
            return at + 1 < answer.count ? UInt16(answer[at]) | UInt16(answer[at + 1]) << 8 : nil
        }.sorted()
    }

    /// Read Controller Information: address (6), version (1), manufacturer (2), supported
    /// settings (4), current settings (4), then class and names.
    static func read(_ index: UInt16, _ channel: ManagementChannel) throws -> BluetoothAdapter {
        let answer = try channel.command(ManagementPacket.readControllerInformation, controller: index, what: "read hci\(index)")
        guard answer.count >= 17 else {
            throw BluetoothError.system(call: "read hci\(index)", errno: EPROTO, message: "a short answer (\(answer.count) bytes)")
        }
        let supported = ManagementPacket.u32(answer[9..<13])
        let current = ManagementPacket.u32(answer[13..<17])
        return BluetoothAdapter(
            index: index, address: DiscoveredDevice.address(wire: answer[0..<6]),
            isPowered: current & Setting.powered != 0, supportsLowEnergy: supported & Setting.lowEnergy != 0)
    }

    enum Setting {
        static let powered: UInt32 = 1 << 0
        static let lowEnergy: UInt32 = 1 << 9
    }
}
