import MTTCore

/// ChirpStack v4's uplink event as its MQTT integration publishes it (SPEC.md section 8): the
/// protobuf JSON mapping of `integration.UplinkEvent`, camelCase, every field optional (proto3
/// leaves out zero values). Read in one pass by `init(reading:)`, only the fields mtt stores; a
/// member not read is skipped by the reader.
struct ChirpStackUplinkEvent {
    struct DeviceInfo {
        var devEui: String?
        var deviceName: String?
        var applicationId: String?
    }

    struct RxInfo {
        var gatewayId: String?
        var gwTime: TTSUplinkMessage.Time?
        var nsTime: TTSUplinkMessage.Time?
        var rssi: Double?
        var snr: Double?
        var channel: Int?
        var antenna: Int?
        var location: TTSUplinkMessage.RxMetadata.Location?
    }

    struct TxInfo {
        var frequency: UInt64?
        var bandwidth: Int?
        var spreadingFactor: Int?
        var codeRate: String?
        /// The modulation is FSK (or LR-FHSS): no spreading factor.
        var notLoRa = false
    }

    var time: TTSUplinkMessage.Time?
    var deviceInfo: DeviceInfo?
    var devAddr: String?
    var fCnt: UInt32?
    var fPort: Int?
    var data: String?
    /// The device profile's codec's output.
    var object: JSONValue?
    var rxInfo: [RxInfo] = []
    var txInfo: TxInfo?
    /// A relay's end device: the gateways heard the relay, not the device where it was.
    var relayed = false
    /// Fields of ChirpStack v3's layout (`applicationID`, `devEUI`): another, retired format.
    var looksLikeVersion3 = false

    typealias Mismatch = JSONReader.Mismatch

    init(reading r: inout JSONReader) throws(Mismatch) {
        var event = Self()
        guard try r.object({ key, r throws(Mismatch) in
            if key.matches("time") {
                event.time = try TTSUplinkMessage.Time(reading: &r)
            } else if key.matches("deviceInfo") {
                var info = DeviceInfo()
                guard try r.object({ key, r throws(Mismatch) in
                    if key.matches("devEui") {
                        info.devEui = try r.string()
                    } else if key.matches("deviceName") {
                        info.deviceName = try r.string()
                    } else if key.matches("applicationId") {
                        info.applicationId = try r.string()
                    }
                }) else { return }
                event.deviceInfo = info
            } else if key.matches("devAddr") {
                event.devAddr = try r.string()
            } else if key.matches("fCnt") {
                event.fCnt = try r.integer()
            } else if key.matches("fPort") {
                event.fPort = try r.integer()
            } else if key.matches("data") {
                event.data = try r.string()
            } else if key.matches("object") {
                event.object = try r.value().nonNull
            } else if key.matches("rxInfo") {
                _ = try r.array({ r throws(Mismatch) in
                    guard let entry = try RxInfo(reading: &r) else { throw r.mismatch("an object") }
                    event.rxInfo.append(entry)
                })
            } else if key.matches("txInfo") {
                event.txInfo = try TxInfo(reading: &r)
            } else if key.matches("relayRxInfo") {
                event.relayed = true
            } else if key.matches("applicationID") || key.matches("devEUI") {
                event.looksLikeVersion3 = true
            }
        }) else { throw r.mismatch("an object") }
        self = event
    }

    private init() {}
}

extension ChirpStackUplinkEvent.RxInfo {
    init?(reading r: inout JSONReader) throws(ChirpStackUplinkEvent.Mismatch) {
        var rx = Self()
        guard try r.object({ key, r throws(ChirpStackUplinkEvent.Mismatch) in
            if key.matches("gatewayId") {
                rx.gatewayId = try r.string()
            } else if key.matches("gwTime") {
                rx.gwTime = try TTSUplinkMessage.Time(reading: &r)
            } else if key.matches("nsTime") {
                rx.nsTime = try TTSUplinkMessage.Time(reading: &r)
            } else if key.matches("rssi") {
                rx.rssi = try r.double()
            } else if key.matches("snr") {
                rx.snr = try r.double()
            } else if key.matches("channel") {
                rx.channel = try r.integer()
            } else if key.matches("antenna") {
                rx.antenna = try r.integer()
            } else if key.matches("location") {
                rx.location = try TTSUplinkMessage.RxMetadata.Location(reading: &r)
            }
        }) else { return nil }
        self = rx
    }
}

extension ChirpStackUplinkEvent.TxInfo {
    init?(reading r: inout JSONReader) throws(ChirpStackUplinkEvent.Mismatch) {
        var tx = Self()
        guard try r.object({ key, r throws(ChirpStackUplinkEvent.Mismatch) in
            if key.matches("frequency") {
                tx.frequency = try r.integer()
            } else if key.matches("modulation") {
                _ = try r.object({ key, r throws(ChirpStackUplinkEvent.Mismatch) in
                    if key.matches("lora") {
                        _ = try r.object({ key, r throws(ChirpStackUplinkEvent.Mismatch) in
                            if key.matches("bandwidth") {
                                tx.bandwidth = try r.integer()
                            } else if key.matches("spreadingFactor") {
                                tx.spreadingFactor = try r.integer()
                            } else if key.matches("codeRate") {
                                tx.codeRate = try r.string()
                            }
                        })
                    } else {
                        tx.notLoRa = true
                    }
                })
            }
        }) else { return nil }
        self = tx
    }
}
