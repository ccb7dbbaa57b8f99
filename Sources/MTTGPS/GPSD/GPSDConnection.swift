import CGPS
import FoundationEssentials
import Glibc
import MTTCore

/// One libgps session with gpsd: the only place MTTGPS calls libgps. Not thread-safe: one reader
/// thread owns it.
final class GPSDConnection {
    enum Message {
        /// A TPV report: a fix, or the receiver's word that it has none.
        case report(FixEvent)
        /// gpsd acknowledged the WATCH: reports will follow.
        case watching
        case other
    }

    struct Failure: Error {
        var reason: String
    }

    private let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
    private var buffer = [CChar](repeating: 0, count: 16_384)
    private var isOpen = false
    let host: String
    let port: Int
    let source: String

    init(host: String, port: Int, source: String) {
        self.host = host
        self.port = port
        self.source = source
        memset(data, 0, MemoryLayout<gps_data_t>.size)
    }

    deinit {
        close()
        data.deallocate()
    }

    func open() throws(Failure) {
        close()
        memset(data, 0, MemoryLayout<gps_data_t>.size)
        guard gps_open(host, String(port), data) == 0 else {
            throw Failure(reason: "cannot reach gpsd at \(host):\(port): \(String(cString: gps_errstr(errno)))")
        }
        isOpen = true
        guard gps_stream(data, UInt32(WATCH_ENABLE | WATCH_JSON), nil) == 0 else {
            close()
            throw Failure(reason: "gpsd at \(host):\(port) refused the watch request")
        }
    }

    func close() {
        if isOpen {
            _ = gps_close(data)
            isOpen = false
        }
    }

    /// Waits up to `microseconds` for data; false on a timeout.
    func waiting(microseconds: Int32) -> Bool {
        gps_waiting(data, microseconds)
    }

    /// Reads one message. Throws when gpsd closed the connection.
    func read() throws(Failure) -> Message {
        data.pointee.set = 0
        let count = buffer.withUnsafeMutableBufferPointer { gps_read(data, $0.baseAddress, Int32($0.count)) }
        if count < 0 { throw Failure(reason: "gpsd at \(host):\(port) closed the connection") }
        if count == 0 { return .other }
        let message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        if message.hasPrefix("{\"class\":\"TPV\"") { return .report(report()) }
        if message.hasPrefix("{\"class\":\"WATCH\"") { return .watching }
        return .other
    }

    /// The TPV just read, with the DOP and satellite count of the latest SKY report.
    private func report() -> FixEvent {
        let d = data.pointee
        let fix = d.fix
        // A receiver that has not yet got the date reports positions without time (gpsd's
        // first TPVs of a GGA-first receiver); those are stamped with the local clock.
        let time = fix.time.tv_sec == 0
            ? Timestamp.now()
            : Timestamp(nanosecondsSinceEpoch: Int64(fix.time.tv_sec) * 1_000_000_000 + Int64(fix.time.tv_nsec))
        guard fix.mode >= 2, let lat = finite(fix.latitude), let lon = finite(fix.longitude),
              let mode = Fix.Mode(rawValue: Int(fix.mode))
        else { return .noFix(time) }
        return .fix(Fix(
            time: time, latitude: lat, longitude: lon,
            altitudeHAE: finite(fix.altHAE), altitudeMSL: finite(fix.altMSL),
            eph: finite(fix.eph), epv: finite(fix.epv), hdop: finite(d.dop.hdop),
            satellites: d.satellites_used > 0 ? Int(d.satellites_used) : nil,
            speed: finite(fix.speed), track: finite(fix.track), mode: mode, source: source))
    }

    private func finite(_ value: Double) -> Double? {
        value.isFinite ? value : nil
    }
}
