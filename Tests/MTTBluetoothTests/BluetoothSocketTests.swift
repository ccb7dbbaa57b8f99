import Glibc
import MTTBluetooth
import Testing

@Suite("BlueZ sockets")
struct BluetoothSocketTests {
    /// On a kernel without Bluetooth (this CI) opening the socket must give the documented one-line
    /// reason, not a crash or a bare errno; on a machine with Bluetooth it must give a socket.
    @Test func openingSaysPlainlyWhenBluetoothIsMissing() {
        do {
            let fd = try BluetoothSocket.openL2CAP()
            #expect(fd >= 0)
            close(fd)
        } catch let error as BluetoothError {
            if error == .unavailable {
                #expect(error.description == "Bluetooth is not available on this system (AF_BLUETOOTH)")
            } else {
                #expect(error == .permissionDenied, "unexpected Bluetooth error: \(error)")
            }
        } catch {
            Issue.record("unexpected error type: \(error)")
        }
    }
}
