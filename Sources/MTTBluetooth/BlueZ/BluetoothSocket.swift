import CBlueZ
import Glibc
import MTTCore

/// Kernel Bluetooth sockets: the only file in MTTBluetooth that calls the socket API for AF_BLUETOOTH.
public enum BluetoothSocket {
    /// An L2CAP SEQPACKET socket, the kind an ATT bearer uses. Throws `.unavailable` on a kernel
    /// without Bluetooth instead of failing later with a bare errno.
    public static func openL2CAP() throws -> Int32 {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_L2CAP)
        guard fd >= 0 else { throw error(call: "socket", errno: errno) }
        return fd
    }

    /// The address of an LE device's ATT channel (L2CAP fixed channel 4, PSM 0: giving both a PSM
    /// and a CID makes the kernel answer EINVAL); nil address for any adapter.
    static func attAddress(_ address: String?, type: BLEAddressType) throws -> sockaddr_l2 {
        var socketAddress = sockaddr_l2()
        socketAddress.l2_family = sa_family_t(AF_BLUETOOTH)
        if let address, str2ba(address, &socketAddress.l2_bdaddr) != 0 {
            throw BluetoothError.system(call: "str2ba", errno: EINVAL, message: "bad address \(address)")
        }
        socketAddress.l2_psm = 0
        socketAddress.l2_cid = BlueZ.attChannel.littleEndian
        socketAddress.l2_bdaddr_type = type == .random ? UInt8(BDADDR_LE_RANDOM) : UInt8(BDADDR_LE_PUBLIC)
        return socketAddress
    }

    /// The MTU the kernel gives an ATT socket (its L2CAP incoming MTU), which the kernel lets
    /// L2CAP_OPTIONS report for the ATT channel of an LE link; nil where it does not say.
    static func attMTU(_ fd: Int32) -> UInt16? {
        var options = l2cap_options()
        var length = socklen_t(MemoryLayout<l2cap_options>.size)
        guard getsockopt(fd, SOL_L2CAP, L2CAP_OPTIONS, &options, &length) == 0, options.imtu >= 23 else { return nil }
        return options.imtu
    }

    /// `ble:ADDRESS` of the central at the other end of an accepted connection.
    static func peerName(_ fd: Int32) -> String? {
        var peer = sockaddr_l2()
        var length = socklen_t(MemoryLayout<sockaddr_l2>.size)
        let read = withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard read == 0 else { return nil }
        return "ble:" + withUnsafeBytes(of: peer.l2_bdaddr) { DiscoveredDevice.address(wire: ArraySlice($0)) }
    }

    static func error(call: String, errno code: Int32) -> BluetoothError {
        switch code {
        case EAFNOSUPPORT, EPROTONOSUPPORT: return .unavailable
        case EPERM, EACCES: return .permissionDenied
        default: return .system(call: call, errno: code, message: String(cString: strerror(code)))
        }
    }
}

extension sockaddr_l2 {
    /// This address as the socket calls take it (bind, connect).
    mutating func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: &self) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_l2>.size)) }
        }
    }
}
