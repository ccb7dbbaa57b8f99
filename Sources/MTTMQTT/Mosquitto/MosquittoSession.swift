import CMosquitto
import Foundation
import Synchronization

/// One libmosquitto client: the only file in MTTMQTT that calls libmosquitto's client API.
///
/// libmosquitto runs the network loop on a thread of its own (`mosquitto_loop_start`) and reconnects
/// by itself. Its callbacks copy what they are given and yield it to the stream; they do no other work.
final class MosquittoSession: Sendable {
    private struct State {
        var lossReported = false
        /// Refused credentials: no more events, whatever the loop does until it is stopped.
        var gaveUp = false
        var stopped = false
    }

    private nonisolated(unsafe) let mosq: OpaquePointer
    private let settings: MQTTSettings
    private let topics: [String]
    private let continuation: AsyncStream<MQTTEvent>.Continuation
    private let credits: MessageCredits?
    private let state = Mutex(State())

    init(
        settings: MQTTSettings, topics: [String], credits: MessageCredits? = nil,
        continuation: AsyncStream<MQTTEvent>.Continuation
    ) throws(MQTTError) {
        guard MosquittoLibrary.initialise() else { throw MQTTError("libmosquitto failed to initialise") }
        guard let mosq = mosquitto_new(settings.clientID, true, nil) else {
            throw MQTTError("cannot create an MQTT client: \(String(cString: strerror(errno)))")
        }
        self.mosq = mosq
        self.settings = settings
        self.topics = topics
        self.continuation = continuation
        self.credits = credits
        do {
            try MosquittoOptions.apply(settings, to: mosq)
        } catch {
            mosquitto_destroy(mosq)
            throw error
        }
    }

    func start() {
        // The callbacks find this session through libmosquitto's user data; the retain is released
        // in stop(), after the loop thread has ended.
        mosquitto_user_data_set(mosq, Unmanaged.passRetained(self).toOpaque())
        mosquitto_connect_callback_set(mosq) { _, userData, rc in
            MosquittoSession.from(userData)?.connected(rc: rc)
        }
        mosquitto_disconnect_callback_set(mosq) { _, userData, rc in
            MosquittoSession.from(userData)?.disconnected(rc: rc)
        }
        mosquitto_message_callback_set(mosq) { _, userData, message in
            guard let session = MosquittoSession.from(userData), let message = message?.pointee else { return }
            let topic = String(cString: message.topic)
            let payload = message.payloadlen > 0
                ? Array(UnsafeRawBufferPointer(start: message.payload, count: Int(message.payloadlen)))
                : []
            session.credits?.take()
            session.continuation.yield(.message(topic: topic, payload: payload))
        }
        mosquitto_log_callback_set(mosq) { _, userData, level, text in
            guard level & Int32(MOSQ_LOG_ERR) != 0, let text, let session = MosquittoSession.from(userData) else { return }
            session.loggedError(String(cString: text))
        }

        let endpoint = settings.endpoint
        let rc = mosquitto_connect_async(mosq, endpoint.host, Int32(endpoint.port), Int32(settings.keepAlive))
        if rc != MOSQ_ERR_SUCCESS.rawValue {
            // The loop below keeps retrying; the user hears why the first try failed.
            reportLoss(connectFailure(rc: rc, errno: errno))
        }
        _ = mosquitto_loop_start(mosq)
    }

    func stop() {
        let alreadyStopped = state.withLock { state in
            defer { state.stopped = true }
            return state.stopped
        }
        guard !alreadyStopped else { return }
        credits?.close()
        _ = mosquitto_disconnect(mosq)
        _ = mosquitto_loop_stop(mosq, false)
        mosquitto_destroy(mosq)
        Unmanaged.passUnretained(self).release()
    }

    private static func from(_ userData: UnsafeMutableRawPointer?) -> MosquittoSession? {
        guard let userData else { return nil }
        return Unmanaged<MosquittoSession>.fromOpaque(userData).takeUnretainedValue()
    }

    private func connected(rc: Int32) {
        let endpoint = settings.endpoint
        switch rc {
        case 0:
            for topic in topics {
                _ = mosquitto_subscribe(mosq, nil, topic, 0)
            }
            state.withLock { $0.lossReported = false }
            continuation.yield(.connected)
        case 4, 5:
            // MQTT 3.1.1 CONNACK 4 "bad user name or password", 5 "not authorised": retrying cannot help.
            let who = settings.username.map { " for \($0)" } ?? ""
            continuation.yield(.failed(reason: "\(endpoint.host):\(endpoint.port) refused the credentials\(who) (\(String(cString: mosquitto_connack_string(rc))), CONNACK \(rc)): check --mqtt-user and the API key"))
            state.withLock { $0.gaveUp = true }
            _ = mosquitto_disconnect(mosq)
            // Not here: finishing runs onTermination, whose loop_stop would wait for this very thread.
            let continuation = self.continuation
            DispatchQueue.global().async { continuation.finish() }
        default:
            reportLoss("\(endpoint.host):\(endpoint.port) refused the connection: \(String(cString: mosquitto_connack_string(rc)))")
        }
    }

    private func disconnected(rc: Int32) {
        guard rc != 0, !state.withLock({ $0.stopped || $0.gaveUp }) else { return }
        let endpoint = settings.endpoint
        reportLoss("lost the connection to \(endpoint.host):\(endpoint.port): \(String(cString: mosquitto_strerror(rc)))")
    }

    /// A failed TLS handshake never reaches the connect or disconnect callbacks: libmosquitto only
    /// logs OpenSSL's reason and tries again. That line is the one place the user's answer is.
    private func loggedError(_ line: String) {
        let endpoint = settings.endpoint
        guard endpoint.usesTLS, line.contains("OpenSSL") || line.contains("certificate") || line.contains("SSL") else { return }
        reportLoss("TLS with \(endpoint.host):\(endpoint.port) failed: \(Self.tlsReason(line)); give --mqtt-ca for a private CA")
    }

    private func connectFailure(rc: Int32, errno code: Int32) -> String {
        let endpoint = settings.endpoint
        if rc == MOSQ_ERR_EAI.rawValue {
            return "cannot find the MQTT server \(endpoint.host) (unknown host)"
        }
        if rc == MOSQ_ERR_ERRNO.rawValue {
            if code == ECONNREFUSED {
                return "\(endpoint.host):\(endpoint.port) refused the connection (is the MQTT server running?)"
            }
            return "cannot connect to \(endpoint.host):\(endpoint.port): \(String(cString: strerror(code)))"
        }
        return "cannot connect to \(endpoint.host):\(endpoint.port): \(String(cString: mosquitto_strerror(rc)))"
    }

    /// Only the first loss of an outage is reported; retries stay quiet until the next `.connected`.
    private func reportLoss(_ reason: String) {
        let first = state.withLock { state in
            defer { state.lossReported = true }
            return !state.lossReported && !state.stopped && !state.gaveUp
        }
        if first { continuation.yield(.lost(reason: reason)) }
    }

    /// The useful part of an OpenSSL error line, e.g. "certificate verify failed".
    private static func tlsReason(_ line: String) -> String {
        if let range = line.range(of: "::") { return String(line[range.upperBound...]) }
        if let last = line.split(separator: ":").last { return last.trimmingCharacters(in: .whitespaces) }
        return line
    }
}
