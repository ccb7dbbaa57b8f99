import CMosquitto
import Foundation
import Synchronization

/// Publishes messages (QoS 0) to an MQTT server: how the simulated network plays The Things Stack
/// on a real broker, so the subscribing side runs for real.
public final class MQTTPublisher: Sendable {
    private nonisolated(unsafe) let mosq: OpaquePointer
    public let settings: MQTTSettings
    private let closed = Mutex(false)

    /// Connects (blocking, up to the socket's own timeout) and starts libmosquitto's network thread.
    public init(settings: MQTTSettings) throws(MQTTError) {
        guard MosquittoLibrary.initialise() else { throw MQTTError("libmosquitto failed to initialise") }
        guard let mosq = mosquitto_new(settings.clientID + "-pub", true, nil) else {
            throw MQTTError("cannot create an MQTT client: \(String(cString: strerror(errno)))")
        }
        self.mosq = mosq
        self.settings = settings
        do {
            try MosquittoOptions.apply(settings, to: mosq)
            let rc = mosquitto_connect(mosq, settings.endpoint.host, Int32(settings.endpoint.port), Int32(settings.keepAlive))
            try MosquittoOptions.check(rc, "connect to \(settings.endpoint.host):\(settings.endpoint.port)")
            try MosquittoOptions.check(mosquitto_loop_start(mosq), "start the MQTT network thread")
        } catch {
            mosquitto_destroy(mosq)
            throw error
        }
    }

    public func publish(topic: String, payload: [UInt8]) throws(MQTTError) {
        let rc = payload.withUnsafeBytes { mosquitto_publish(mosq, nil, topic, Int32($0.count), $0.baseAddress, 0, false) }
        try MosquittoOptions.check(rc, "publish to \(topic)")
    }

    public func close() {
        let wasOpen = closed.withLock { c in
            defer { c = true }
            return !c
        }
        guard wasOpen else { return }
        _ = mosquitto_disconnect(mosq)
        _ = mosquitto_loop_stop(mosq, false)
    }

    deinit {
        close()
        mosquitto_destroy(mosq)
    }
}
