import CBlueZ
import Glibc

/// The server side of the LE ATT channel (L2CAP fixed channel 4) on one adapter: centrals that
/// connect to the adapter's address arrive here, one PDU per message, as on a Unix socket.
public struct LEAttributeListener: ATTListener {
    public let address: String
    private let fd: Int32

    /// Listens on the adapter whose address (public or static random) is `address`.
    public init(address: String, type: DiscoveredDevice.AddressType) throws {
        let fd = try BluetoothSocket.openL2CAP()
        var local = sockaddr_l2()
        local.l2_family = sa_family_t(AF_BLUETOOTH)
        guard str2ba(address, &local.l2_bdaddr) == 0 else {
            close(fd)
            throw BluetoothError.system(call: "str2ba", errno: EINVAL, message: "bad address \(address)")
        }
        local.l2_cid = BlueZ.attChannel.littleEndian
        local.l2_bdaddr_type = type == .leRandom ? UInt8(BDADDR_LE_RANDOM) : UInt8(BDADDR_LE_PUBLIC)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_l2>.size)) }
        }
        guard bound == 0, listen(fd, 1) == 0 else {
            let code = errno
            close(fd)
            throw BluetoothSocket.error(call: "listen on the ATT channel of \(address)", errno: code)
        }
        self.address = "ble:\(address)"
        self.fd = fd
    }

    public func accept() async throws(BearerError) -> any ATTBearer {
        let connection = try await acceptOffThePool(fd)
        return SeqPacketBearer(fd: connection, name: BluetoothSocket.peerName(connection) ?? address, mtuLimit: BluetoothSocket.attMTU(connection))
    }
}
