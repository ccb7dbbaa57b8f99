import FoundationEssentials
import Glibc
import MTTCore

/// A connection HTTP is spoken over: plain TCP, or TLS over TCP. Blocking calls bounded by a
/// deadline; `timeout` only words the error.
protocol ByteStream: AnyObject {
    /// "host:port", for messages.
    var endpoint: String { get }
    /// Writes all of `bytes`.
    func write(_ bytes: Data, deadline: Date, timeout: Double) throws(SyncTransportError)
    /// Reads what has arrived into `buffer`, waiting for at least one byte; 0 when the server has
    /// closed the stream.
    func read(into buffer: inout [UInt8], deadline: Date, timeout: Double) throws(SyncTransportError) -> Int
    /// True when an idle stream can no longer carry a request: the server closed it, or sent
    /// something nobody asked for.
    var isStale: Bool { get }
    /// Ends the connection under a read or write blocked on it (from another thread): a stop
    /// request must not wait for a silent server.
    func shutdown()
}
