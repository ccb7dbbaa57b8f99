import CBlueZ
import Glibc
import MTTCore

/// The server side of the LE ATT channel (L2CAP fixed channel 4) on one adapter: centrals that
/// connect to the adapter's address arrive here, one PDU per message, as on a Unix socket.
public struct LEAttributeListener: ATTListener {
    public let address: String
    private let fd: Int32

    /// Listens on the adapter whose address (public or static random) is `address`.
    public init(address: String, type: BLEAddressType) throws {
        var local = try BluetoothSocket.attAddress(address, type: type)
        let fd = try BluetoothSocket.openL2CAP()
        guard local.withSockaddr({ bind(fd, $0, $1) }) == 0, listen(fd, 1) == 0 else {
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
