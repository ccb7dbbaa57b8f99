import CBlueZ
import FoundationEssentials
import MTTCore
import Glibc

/// The kernel Bluetooth sockets mtt uses, through libbluetooth: an LE ATT channel to a node
/// (L2CAP fixed channel 4) and discovery (the management channel, or a raw HCI LE scan where
/// that is not allowed). No D-Bus. Everything above this file is pure Swift over `ATTBearer`.
public enum BlueZ {
    /// The L2CAP channel ID of ATT on LE links.
    static let attChannel: UInt16 = 4

    /// How long a new link's first ATT request may wait. The kernel can report a link up whose
    /// node never answers (seen on a real kernel: a connection completed by a controller just
    /// switched off, which its host never learnt of); given up in 10 s instead of ATT's 30, the
    /// next try gets a working link sooner.
    public static let firstAnswerTimeout = 10.0

    /// Connects the ATT channel of an LE device. A random static address (top two bits set, as the
    /// nRF51 Bluefruit uses) is assumed random unless told otherwise.
    public static func connectATT(address: String, type: BLEAddressType? = nil, timeout: Double = 10) throws -> SeqPacketBearer {
        var remote = try BluetoothSocket.attAddress(address, type: type ?? BLEAddressType.guess(address))
        // From the central adapter; without the right to ask (no CAP_NET_ADMIN) the kernel chooses.
        let central = try? BluetoothAdapter.central(ManagementChannel())
        var local = try BluetoothSocket.attAddress(central?.address, type: .public)
        let fd = try BluetoothSocket.openL2CAP()
        var security = bt_security(level: UInt8(BT_SECURITY_LOW), key_size: 0)
        let prepared = local.withSockaddr { bind(fd, $0, $1) } == 0 && setsockopt(fd, SOL_BLUETOOTH, BT_SECURITY, &security, socklen_t(MemoryLayout<bt_security>.size)) == 0
        guard prepared else {
            let code = errno
            close(fd)
            throw BluetoothSocket.error(call: "bind", errno: code)
        }

        // Non-blocking connect, so a node out of range costs `timeout` and not the kernel's minutes.
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        let started = remote.withSockaddr { connect(fd, $0, $1) }
        if started != 0 && errno != EINPROGRESS {
            let code = errno
            close(fd)
            throw BluetoothSocket.error(call: "connect to \(address)", errno: code)
        }
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&poller, 1, Int32(timeout * 1000))
        var socketError: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length)
        guard ready == 1, socketError == 0 else {
            close(fd)
            if ready == 0 { throw BluetoothError.system(call: "connect to \(address)", errno: ETIMEDOUT, message: "no answer within \(Int(timeout)) s: is the node on and near?") }
            throw BluetoothSocket.error(call: "connect to \(address)", errno: socketError)
        }
        _ = fcntl(fd, F_SETFL, flags)
        return SeqPacketBearer(fd: fd, name: "ble:\(address)", mtuLimit: BluetoothSocket.attMTU(fd))
    }

    /// Scans for LE advertisers for `seconds` through the management channel (alongside
    /// bluetoothd) on the first powered LE adapter, falling back to a raw HCI LE scan where that
    /// channel is refused. Ends early when `enough` says a device is the one wanted. Discovery is
    /// stopped when the scan ends, so the adapter is free for the connection that follows.
    public static func scan(seconds: Double, until enough: (@Sendable (DiscoveredDevice) -> Bool)? = nil) async throws -> [DiscoveredDevice] {
        try await withCheckedThrowingContinuation { continuation in
            BlockingThread.start(name: "mtt-ble-scan") {
                do {
                    continuation.resume(returning: try scanBlocking(seconds: seconds, until: enough))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    private static func scanBlocking(seconds: Double, until enough: ((DiscoveredDevice) -> Bool)?) throws -> [DiscoveredDevice] {
        let channel: ManagementChannel
        do {
            channel = try ManagementChannel()
        } catch BluetoothError.permissionDenied {
            return try rawScan(seconds: seconds, controller: 0, until: enough)
        }
        let adapter = try BluetoothAdapter.central(channel)
        let index = adapter.index
        let start = { _ = try channel.command(ManagementPacket.startDiscovery, controller: index, [ManagementPacket.leAddressTypes], what: "start discovery on \(adapter.name)") }
        try start()
        var discovering = true
        defer {
            if discovering {
                _ = try? channel.command(ManagementPacket.stopDiscovery, controller: index, [ManagementPacket.leAddressTypes], what: "stop discovery")
            }
        }
        var found: [String: DiscoveredDevice] = [:]
        try channel.events(for: seconds) { event in
            switch event {
            case .deviceFound(let device, index):
                let merged = device.merged(with: found[device.address])
                found[device.address] = merged
                if enough?(merged) == true { return false }
            case .discovering(false, index):
                // The kernel ends LE discovery by itself after 10.24 s; a longer scan starts it again.
                discovering = false
                try start()
                discovering = true
            default:
                break
            }
            return true
        }
        return found.values.sorted { $0.rssi > $1.rssi }
    }

    /// The fallback: drive the controller's LE scan directly through libbluetooth's HCI helpers.
    private static func rawScan(seconds: Double, controller: Int32, until enough: ((DiscoveredDevice) -> Bool)?) throws -> [DiscoveredDevice] {
        let dd = hci_open_dev(controller)
        guard dd >= 0 else { throw BluetoothSocket.error(call: "open hci\(controller)", errno: errno) }
        defer { hci_close_dev(dd) }
        guard hci_le_set_scan_parameters(dd, 0x01, UInt16(0x0010).littleEndian, UInt16(0x0010).littleEndian, 0x00, 0x00, 1000) >= 0,
              hci_le_set_scan_enable(dd, 0x01, 0x00, 1000) >= 0
        else { throw BluetoothSocket.error(call: "start the LE scan on hci\(controller)", errno: errno) }
        defer { _ = hci_le_set_scan_enable(dd, 0x00, 0x00, 1000) }
        // Only LE meta events.
        var filter = hci_filter()
        filter.type_mask = 1 << UInt32(HCI_EVENT_PKT)
        filter.event_mask.1 = 1 << (UInt32(EVT_LE_META_EVENT) - 32)
        setsockopt(dd, SOL_HCI, HCI_FILTER, &filter, socklen_t(MemoryLayout<hci_filter>.size))
        var found: [String: DiscoveredDevice] = [:]
        try readPackets(dd, for: seconds) { packet in
            for device in LEAdvertisingReport.devices(packet) {
                let merged = device.merged(with: found[device.address])
                found[device.address] = merged
                if enough?(merged) == true { return false }
            }
            return true
        }
        return found.values.sorted { $0.rssi > $1.rssi }
    }

    /// Hands each packet read from `fd` to `body` until `seconds` have passed or `body` says enough.
    private static func readPackets(_ fd: Int32, for seconds: Double, _ body: ([UInt8]) throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 1024)
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0, try !body(Array(buffer[..<n])) { return }
        }
    }
}
