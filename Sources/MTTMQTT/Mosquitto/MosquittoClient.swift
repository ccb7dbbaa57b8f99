import CMosquitto
import FoundationEssentials
import Glibc
import Synchronization

/// libmosquitto, thinly: the only file in mtt that calls it. Every call is one line here; what to
/// do with the results (the network loop, reconnecting, batching, the words for the user) is in
/// `MosquittoSession` and `MQTTPublisher`, in Swift.
///
/// The callbacks run on whichever thread runs libmosquitto's loop; they copy what they are given
/// (a message's topic and payload live only during the call) and hand it to the closures.
final class MosquittoClient: @unchecked Sendable {
    /// A libmosquitto result code.
    struct Result: Sendable, Equatable {
        let code: Int32

        var isSuccess: Bool { code == MOSQ_ERR_SUCCESS.rawValue }
        var isUnknownHost: Bool { code == MOSQ_ERR_EAI.rawValue }
        /// The reason is in errno.
        var isSystemError: Bool { code == MOSQ_ERR_ERRNO.rawValue }
        /// As `mosquitto_loop_forever` decides: no reconnecting makes these better.
        var isFatal: Bool {
            let fatal: [mosq_err_t] = [
                MOSQ_ERR_NOMEM, MOSQ_ERR_PROTOCOL, MOSQ_ERR_INVAL, MOSQ_ERR_NOT_FOUND, MOSQ_ERR_TLS,
                MOSQ_ERR_PAYLOAD_SIZE, MOSQ_ERR_NOT_SUPPORTED, MOSQ_ERR_AUTH, MOSQ_ERR_ACL_DENIED,
                MOSQ_ERR_UNKNOWN, MOSQ_ERR_EAI, MOSQ_ERR_PROXY,
            ]
            return fatal.contains { $0.rawValue == code }
        }
        var text: String { String(cString: mosquitto_strerror(code)) }

        static let success = Result(code: MOSQ_ERR_SUCCESS.rawValue)
    }

    /// What the callbacks hand over. Set before `connect`; cleared by `destroy`.
    struct Handlers: Sendable {
        var connected: @Sendable (Int32) -> Void = { _ in }
        var disconnected: @Sendable (Int32) -> Void = { _ in }
        var message: @Sendable (String, [UInt8]) -> Void = { _, _ in }
        var errorLogged: @Sendable (String) -> Void = { _ in }
        /// A QoS 1 publish acknowledged (MQTT 5): its message id and the server's reason code
        /// (0x80 and up: refused).
        var published: @Sendable (Int32, Int32) -> Void = { _, _ in }
    }

    /// The MQTT version a client speaks.
    enum ProtocolVersion: Sendable {
        case v311, v5
    }

    private let mosq: OpaquePointer
    private let handlers = Mutex(Handlers())

    static var libraryVersion: (major: Int32, minor: Int32, revision: Int32) {
        var major: Int32 = 0, minor: Int32 = 0, revision: Int32 = 0
        _ = mosquitto_lib_version(&major, &minor, &revision)
        return (major, minor, revision)
    }

    private static let initialised: Bool = mosquitto_lib_init() == MOSQ_ERR_SUCCESS.rawValue

    /// A client with mtt's connection options: MQTT 3.1.1, the credentials, verified TLS, and
    /// libmosquitto's own reconnect delays (for the publisher's thread).
    init(clientID: String, settings: MQTTSettings, version: ProtocolVersion = .v311) throws(MQTTError) {
        guard Self.initialised else { throw MQTTError("libmosquitto failed to initialise") }
        guard let mosq = mosquitto_new(clientID, true, nil) else {
            throw MQTTError("cannot create an MQTT client: \(String(cString: strerror(errno)))")
        }
        self.mosq = mosq
        do {
            try apply(settings, version: version)
        } catch {
            mosquitto_destroy(mosq)
            throw error
        }
        // The callbacks find this client through libmosquitto's user data; it outlives `mosq`.
        mosquitto_user_data_set(mosq, Unmanaged.passUnretained(self).toOpaque())
        mosquitto_connect_callback_set(mosq) { _, user, rc in MosquittoClient.from(user).handle { $0.connected(rc) } }
        mosquitto_disconnect_callback_set(mosq) { _, user, rc in MosquittoClient.from(user).handle { $0.disconnected(rc) } }
        mosquitto_message_callback_set(mosq) { _, user, message in
            guard let message = message?.pointee else { return }
            let topic = String(cString: message.topic)
            let payload = message.payloadlen > 0
                ? Array(UnsafeRawBufferPointer(start: message.payload, count: Int(message.payloadlen)))
                : []
            MosquittoClient.from(user).handle { $0.message(topic, payload) }
        }
        mosquitto_publish_v5_callback_set(mosq) { _, user, mid, reason, _ in MosquittoClient.from(user).handle { $0.published(mid, reason) } }
    }

    private func apply(_ settings: MQTTSettings, version: ProtocolVersion) throws(MQTTError) {
        _ = mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, version == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311)
        if let username = settings.username {
            try check(Result(code: mosquitto_username_pw_set(mosq, username, settings.password)), "set the MQTT username")
        }
        if settings.endpoint.usesTLS {
            if let caFile = settings.caFile {
                guard FileManager.default.isReadableFile(atPath: caFile) else {
                    throw MQTTError("cannot read the CA certificate \(caFile)")
                }
                try check(Result(code: mosquitto_tls_set(mosq, caFile, nil, nil, nil, nil)), "use the CA certificate \(caFile)")
            } else {
                try check(Result(code: mosquitto_int_option(mosq, MOSQ_OPT_TLS_USE_OS_CERTS, 1)), "load the system's CA certificates")
            }
            // Verify the server's certificate and host name; there is deliberately no switch to turn this off.
            try check(Result(code: mosquitto_tls_opts_set(mosq, 1, nil, nil)), "require certificate verification")
            try check(Result(code: mosquitto_tls_insecure_set(mosq, false)), "require host name verification")
        }
        _ = mosquitto_reconnect_delay_set(
            mosq, UInt32(settings.reconnectDelay.lowerBound), UInt32(settings.reconnectDelay.upperBound), true)
    }

    /// Throws `cannot WHAT: REASON` unless `result` is a success.
    func check(_ result: Result, _ what: String) throws(MQTTError) {
        guard result.isSuccess else { throw MQTTError("cannot \(what): \(result.text)") }
    }

    private static func from(_ user: UnsafeMutableRawPointer?) -> MosquittoClient {
        Unmanaged<MosquittoClient>.fromOpaque(user!).takeUnretainedValue()
    }

    private func handle(_ call: (Handlers) -> Void) {
        call(handlers.withLock { $0 })
    }

    func setHandlers(_ new: Handlers) {
        handlers.withLock { $0 = new }
    }

    /// Follows libmosquitto's error log, or stops following it. With a log callback set,
    /// libmosquitto formats and allocates a debug line for every message it receives.
    func followErrorLog(_ on: Bool) {
        guard on else {
            mosquitto_log_callback_set(mosq, nil)
            return
        }
        mosquitto_log_callback_set(mosq) { _, user, level, text in
            guard level & Int32(MOSQ_LOG_ERR) != 0, let text else { return }
            let line = String(cString: text)
            MosquittoClient.from(user).handle { $0.errorLogged(line) }
        }
    }

    func connect(_ endpoint: MQTTEndpoint, keepAlive: Int) -> Result {
        Result(code: mosquitto_connect(mosq, endpoint.host, Int32(endpoint.port), Int32(keepAlive)))
    }

    func connectAsync(_ endpoint: MQTTEndpoint, keepAlive: Int) -> Result {
        Result(code: mosquitto_connect_async(mosq, endpoint.host, Int32(endpoint.port), Int32(keepAlive)))
    }

    func reconnect() -> Result { Result(code: mosquitto_reconnect(mosq)) }

    /// Calls from other threads queue their packets and wake the loop instead of writing themselves.
    func setThreaded() { _ = mosquitto_threaded_set(mosq, true) }

    func loop(timeoutMilliseconds: Int32) -> Result { Result(code: mosquitto_loop(mosq, timeoutMilliseconds, 1)) }

    func loopRead() -> Result { Result(code: mosquitto_loop_read(mosq, 1)) }

    /// Writes the packets queued so far, reading nothing.
    func loopWrite() -> Result { Result(code: mosquitto_loop_write(mosq, 1)) }

    /// Whether libmosquitto's own network thread runs (`startLooping`).
    private let looping = Mutex(false)

    /// Connects (blocking, up to the socket's own timeout) and starts libmosquitto's own network
    /// thread: a publisher's, a downlink listener's (a subscriber's loop is `MosquittoSession`'s).
    func startLooping(_ settings: MQTTSettings) throws(MQTTError) {
        try check(connect(settings.endpoint, keepAlive: settings.keepAlive), "connect to \(settings.endpoint.host):\(settings.endpoint.port)")
        try check(Result(code: mosquitto_loop_start(mosq)), "start the MQTT network thread")
        looping.withLock { $0 = true }
    }

    /// Disconnects and stops that thread, once; false when it was stopped already (or never ran).
    @discardableResult
    func stopLooping() -> Bool {
        guard looping.withLock({ running in defer { running = false }; return running }) else { return false }
        disconnect()
        _ = mosquitto_loop_stop(mosq, false)
        return true
    }

    func subscribe(_ topic: String) { _ = mosquitto_subscribe(mosq, nil, topic, 0) }

    func unsubscribe(_ topic: String) { _ = mosquitto_unsubscribe(mosq, nil, topic) }

    func publish(_ topic: String, _ payload: [UInt8]) -> Result {
        Result(code: payload.withUnsafeBytes { mosquitto_publish(mosq, nil, topic, Int32($0.count), $0.baseAddress, 0, false) })
    }

    /// Publishes at QoS 1; the message id the acknowledgement will name.
    func publishAcknowledged(_ topic: String, _ payload: [UInt8]) -> (Result, Int32) {
        var mid: Int32 = 0
        let result = Result(code: payload.withUnsafeBytes { mosquitto_publish(mosq, &mid, topic, Int32($0.count), $0.baseAddress, 1, false) })
        return (result, mid)
    }

    /// MQTT 5's words for a reason code.
    static func reasonText(_ code: Int32) -> String { String(cString: mosquitto_reason_string(code)) }

    func disconnect() { _ = mosquitto_disconnect(mosq) }

    /// Ends the client; no callback runs after this returns.
    func destroy() {
        mosquitto_destroy(mosq)
        handlers.withLock { $0 = Handlers() }
    }

    /// MQTT 3.1.1's words for a CONNACK code.
    static func connackText(_ code: Int32) -> String { String(cString: mosquitto_connack_string(code)) }
}
