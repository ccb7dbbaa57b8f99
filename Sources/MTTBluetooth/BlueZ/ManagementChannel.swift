import CBlueZ
import FoundationEssentials
import Glibc

/// The kernel's Bluetooth management channel (HCI_CHANNEL_CONTROL): commands that wait for their
/// answer, and the events in between. Blocking; callers run it off the cooperative pool. Needs
/// CAP_NET_ADMIN (root, or the capability on the binary).
final class ManagementChannel {
    private let fd: Int32
    /// Events read while waiting for a command's answer, handed out by `events(for:)` later so that
    /// a Device Found that arrives with Start Discovery's answer is not lost.
    private var pending: [ManagementPacket.Event] = []

    /// Throws `.permissionDenied` without CAP_NET_ADMIN (a scan then falls back to raw HCI).
    init() throws {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
        guard fd >= 0 else { throw BluetoothSocket.error(call: "socket", errno: errno) }
        var address = sockaddr_hci()
        address.hci_family = sa_family_t(AF_BLUETOOTH)
        address.hci_dev = UInt16(HCI_DEV_NONE)
        address.hci_channel = UInt16(HCI_CHANNEL_CONTROL)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_hci>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw BluetoothSocket.error(call: "bind the management channel", errno: code)
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends a command and returns its answer's parameters; a status other than success throws
    /// with the management API's words for it.
    @discardableResult
    func command(_ opcode: UInt16, controller: UInt16, _ parameters: [UInt8] = [], what: String, timeout: Double = 5) throws -> [UInt8] {
        try write(ManagementPacket.command(opcode, controller: controller, parameters: parameters))
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, let packet = try read(within: remaining) else {
                throw BluetoothError.system(call: what, errno: ETIMEDOUT, message: "the kernel did not answer within \(Int(timeout)) s")
            }
            guard let event = ManagementPacket.event(packet) else { continue }
            switch event {
            case .commandComplete(opcode, let status, controller, let answer):
                guard status == 0 else { throw Self.refused(what, status) }
                return answer
            case .commandStatus(opcode, let status, controller):
                // A status for this command is its final answer only when it is a failure.
                if status != 0 { throw Self.refused(what, status) }
            default:
                pending.append(event)
            }
        }
    }

    /// Hands each event to `body` until `seconds` have passed or `body` says it has had enough.
    func events(for seconds: Double, _ body: (ManagementPacket.Event) throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while deadline.timeIntervalSinceNow > 0 {
            // `body` may send a command, whose wait keeps the events it passes over in `pending`.
            if !pending.isEmpty {
                if try !body(pending.removeFirst()) { return }
                continue
            }
            guard let packet = try read(within: deadline.timeIntervalSinceNow) else { continue }
            if let event = ManagementPacket.event(packet), try !body(event) { return }
        }
    }

    static func refused(_ what: String, _ status: UInt8) -> BluetoothError {
        .system(call: what, errno: 0, message: ManagementPacket.statusText(status))
    }

    private func read(within seconds: Double) throws -> [UInt8]? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(max(1, min(seconds, 1) * 1000)))
        if ready < 0 && errno != EINTR { throw BluetoothSocket.error(call: "poll the management channel", errno: errno) }
        guard ready > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { throw BluetoothSocket.error(call: "read the management channel", errno: n < 0 ? errno : EIO) }
        return Array(buffer[..<n])
    }

    private func write(_ bytes: [UInt8]) throws {
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard n == bytes.count else { throw BluetoothSocket.error(call: "write to the management channel", errno: errno) }
    }
}
