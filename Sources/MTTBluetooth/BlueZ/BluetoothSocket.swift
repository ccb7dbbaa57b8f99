import CBlueZ
import Glibc

/// Kernel Bluetooth sockets: the only file in MTTBluetooth that calls the socket API for AF_BLUETOOTH.
public enum BluetoothSocket {
    /// An L2CAP SEQPACKET socket, the kind an ATT bearer uses. Throws `.unavailable` on a kernel
    /// without Bluetooth instead of failing later with a bare errno.
    public static func openL2CAP() throws -> Int32 {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_L2CAP)
        guard fd >= 0 else { throw error(call: "socket", errno: errno) }
        return fd
    }

    static func error(call: String, errno code: Int32) -> BluetoothError {
        switch code {
        case EAFNOSUPPORT, EPROTONOSUPPORT: return .unavailable
        case EPERM, EACCES: return .permissionDenied
        default: return .system(call: call, errno: code, message: String(cString: strerror(code)))
        }
    }
}
