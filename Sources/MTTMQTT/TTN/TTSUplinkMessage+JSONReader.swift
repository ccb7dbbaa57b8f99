import MTTCore

/// The message read in one pass without Codable, taking only the fields mtt stores: several times
/// faster than `JSONDecoder`, which is what keeps up with a broker emptying its queue. The only
/// reader of uplinks; its `Decodable` twin is what the differential test holds it to.
extension TTSUplinkMessage {
    typealias Mismatch = JSONReader.Mismatch

    init(reading r: inout JSONReader) throws(Mismatch) {
        var ids: EndDeviceIDs?
        var receivedAt: Time?
        var message: UplinkMessage?
        var simulated: Bool?
        guard try r.object({ key, r throws(Mismatch) in
            if key.matches("end_device_ids") {
                ids = try EndDeviceIDs(reading: &r)
            } else if key.matches("received_at") {
                receivedAt = try Time(reading: &r)
            } else if key.matches("uplink_message") {
                message = try UplinkMessage(reading: &r)
            } else if key.matches("simulated") {
                simulated = try r.bool()
            }
        }) else { throw r.mismatch("an object") }
        self.init(end_device_ids: ids, received_at: receivedAt, uplink_message: message, simulated: simulated)
    }
}

extension TTSUplinkMessage.Time {
    /// Nil for null.
    init?(reading r: inout JSONReader) throws(TTSUplinkMessage.Mismatch) {
        guard let time = try r.text({ text throws(TTSUplinkMessage.Mismatch) -> Self in
            if !text.escaped, let time = RFC3339.parse(utf8: text.bytes) { return .time(time) }
            guard let string = text.string else { throw TTSUplinkMessage.Mismatch() }
            return Self(string)
        }) else { return nil }
        self = time
    }
}

extension TTSUplinkMessage.EndDeviceIDs {
    init?(reading r: inout JSONReader) throws(TTSUplinkMessage.Mismatch) {
        var ids = Self()
        guard try r.object({ key, r throws(TTSUplinkMessage.Mismatch) in
            if key.matches("device_id") {
                ids.device_id = try r.string()
            } else if key.matches("dev_eui") {
                ids.dev_eui = try r.string()
            } else if key.matches("dev_addr") {
                ids.dev_addr = try r.string()
            } else if key.matches("application_ids") {
                var application = ApplicationIDs()
                if try r.object({ key, r throws(TTSUplinkMessage.Mismatch) in
                    if key.matches("application_id") { application.application_id = try r.string() }
                }) {
                    ids.application_ids = application
                }
            }
        }) else { return nil }
        self = ids
    }
}

extension TTSUplinkMessage.UplinkMessage {
    init?(reading r: inout JSONReader) throws(TTSUplinkMessage.Mismatch) {
        var m = Self()
        guard try r.object({ key, r throws(TTSUplinkMessage.Mismatch) in
            if key.matches("f_port") {
                m.f_port = try r.integer()
            } else if key.matches("f_cnt") {
                m.f_cnt = try r.integer()
            } else if key.matches("frm_payload") {
                m.frm_payload = try r.string()
            } else if key.matches("rx_metadata") {
                var list: [TTSUplinkMessage.RxMetadata] = []
                if try r.array({ r throws(TTSUplinkMessage.Mismatch) in
                    guard let entry = try TTSUplinkMessage.RxMetadata(reading: &r) else { throw r.mismatch("an object") }
                    list.append(entry)
                }) {
                    m.rx_metadata = list
                }
            } else if key.matches("settings") {
                m.settings = try TTSUplinkMessage.Settings(reading: &r)
            } else if key.matches("received_at") {
                m.received_at = try TTSUplinkMessage.Time(reading: &r)
            } else if key.matches("consumed_airtime") {
                m.consumed_airtime = try r.string()
            } else if key.matches("decoded_payload") {
                m.decoded_payload = try r.value().nonNull
            } else if key.matches("network_ids") {
                var ids = TTSUplinkMessage.NetworkIDs()
                if try r.object({ key, r throws(TTSUplinkMessage.Mismatch) in
                    if key.matches("net_id") {
                        ids.net_id = try r.string()
                    } else if key.matches("tenant_id") {
                        ids.tenant_id = try r.string()
                    }
                }) {
                    m.network_ids = ids
                }
            }
        }) else { return nil }
        self = m
    }
}

extension TTSUplinkMessage.RxMetadata {
    /// Nil for a null entry, which Codable would refuse: the caller turns it into a mismatch.
    init?(reading r: inout JSONReader) throws(TTSUplinkMessage.Mismatch) {
        var m = Self()
        guard try r.object({ key, r throws(TTSUplinkMessage.Mismatch) in
            if key.matches("gateway_ids") {
                var ids = GatewayIDs()
                if try r.object({ key, r throws(TTSUplinkMessage.Mismatch) in
                    if key.matches("gateway_id") {
                        ids.gateway_id = try r.string()
                    } else if key.matches("eui") {
                        ids.eui = try r.string()
                    }
                }) {
                    m.gateway_ids = ids
                }
            } else if key.matches("packet_broker") {
                var broker = PacketBroker()
                if try r.object({ key, r throws(TTSUplinkMessage.Mismatch) in
                    if key.matches("forwarder_gateway_id") {
                        broker.forwarder_gateway_id = try r.string()
                    } else if key.matches("forwarder_gateway_eui") {
                        broker.forwarder_gateway_eui = try r.string()
                    }
                }) {
                    m.packet_broker = broker
                }
            } else if key.matches("time") {
                m.time = try TTSUplinkMessage.Time(reading: &r)
            } else if key.matches("timestamp") {
                m.timestamp = try r.integer()
            } else if key.matches("rssi") {
                m.rssi = try r.double()
            } else if key.matches("channel_rssi") {
                m.channel_rssi = try r.double()
            } else if key.matches("signal_rssi") {
                m.signal_rssi = try r.double()
            } else if key.matches("snr") {
                m.snr = try r.double()
            } else if key.matches("channel_index") {
                m.channel_index = try r.integer()
            } else if key.matches("antenna_index") {
                m.antenna_index = try r.integer()
            } else if key.matches("location") {
                m.location = try Location(reading: &r)
            }
        }) else { return nil }
        self = m
    }
}

extension TTSUplinkMessage.RxMetadata.Location {
    /// A gateway's `location` object (The Things Stack's and ChirpStack's alike); nil for null.
    init?(reading r: inout JSONReader) throws(TTSUplinkMessage.Mismatch) {
        var location = Self()
        guard try r.object({ key, r throws(TTSUplinkMessage.Mismatch) in
            if key.matches("latitude") {
                location.latitude = try r.double()
            } else if key.matches("longitude") {
                location.longitude = try r.double()
            } else if key.matches("altitude") {
                location.altitude = try r.double()
            }
        }) else { return nil }
        self = location
    }

    /// Where the gateway is, when the object says (an empty one does not).
    var point: GeoPoint? {
        guard latitude != nil || longitude != nil else { return nil }
        return GeoPoint(latitude: latitude ?? 0, longitude: longitude ?? 0, altitude: altitude ?? 0)
    }
}

extension TTSUplinkMessage.Settings {
    init?(reading r: inout JSONReader) throws(TTSUplinkMessage.Mismatch) {
        var s = Self()
        guard try r.object({ key, r throws(TTSUplinkMessage.Mismatch) in
            if key.matches("data_rate") {
                var rate = DataRate()
                if try r.object({ key, r throws(TTSUplinkMessage.Mismatch) in
                    guard key.matches("lora") else { return }
                    var lora = DataRate.LoRa()
                    if try r.object({ key, r throws(TTSUplinkMessage.Mismatch) in
                        if key.matches("bandwidth") {
                            lora.bandwidth = try r.integer()
                        } else if key.matches("spreading_factor") {
                            lora.spreading_factor = try r.integer()
                        } else if key.matches("coding_rate") {
                            lora.coding_rate = try r.string()
                        }
                    }) {
                        rate.lora = lora
                    }
                }) {
                    s.data_rate = rate
                }
            } else if key.matches("coding_rate") {
                s.coding_rate = try r.string()
            } else if key.matches("frequency") {
                s.frequency = try r.string()
            }
        }) else { return nil }
        self = s
    }
}
