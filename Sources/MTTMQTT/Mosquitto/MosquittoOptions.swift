import CMosquitto
import Foundation

/// The connection options every mtt MQTT client sets: MQTT 3.1.1, credentials, verified TLS,
/// reconnect delays.
enum MosquittoOptions {
    static func apply(_ settings: MQTTSettings, to mosq: OpaquePointer) throws(MQTTError) {
        _ = mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
        if let username = settings.username {
            try check(mosquitto_username_pw_set(mosq, username, settings.password), "set the MQTT username")
        }
        if settings.endpoint.usesTLS {
            if let caFile = settings.caFile {
                guard FileManager.default.isReadableFile(atPath: caFile) else {
                    throw MQTTError("cannot read the CA certificate \(caFile)")
                }
                try check(mosquitto_tls_set(mosq, caFile, nil, nil, nil, nil), "use the CA certificate \(caFile)")
            } else {
                try check(mosquitto_int_option(mosq, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "load the system's CA certificates")
            }
            // Verify the server's certificate and host name; there is deliberately no switch to turn this off.
            try check(mosquitto_tls_opts_set(mosq, 1, nil, nil), "require certificate verification")
            try check(mosquitto_tls_insecure_set(mosq, false), "require host name verification")
        }
        _ = mosquitto_reconnect_delay_set(
            mosq, UInt32(settings.reconnectDelay.lowerBound), UInt32(settings.reconnectDelay.upperBound), true)
    }

    static func check(_ rc: Int32, _ what: String) throws(MQTTError) {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            throw MQTTError("cannot \(what): \(String(cString: mosquitto_strerror(rc)))")
        }
    }
}
