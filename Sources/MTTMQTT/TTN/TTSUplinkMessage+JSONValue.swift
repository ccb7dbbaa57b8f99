/// The same message read from a parsed document without Codable: several times faster, which is
/// what keeps up with a broker emptying its queue. Any field of an unexpected type throws, and the
/// caller falls back to `JSONDecoder`.
extension TTSUplinkMessage {
    init(json: JSONValue) throws(JSONFieldMismatch) {
        guard case .object = json else { throw JSONFieldMismatch() }
        end_device_ids = try json.object("end_device_ids").map { ids throws(JSONFieldMismatch) in
            EndDeviceIDs(
                device_id: try ids.string("device_id"),
                application_ids: try ids.object("application_ids").map { a throws(JSONFieldMismatch) in
                    EndDeviceIDs.ApplicationIDs(application_id: try a.string("application_id"))
                },
                dev_eui: try ids.string("dev_eui"), dev_addr: try ids.string("dev_addr"))
        }
        received_at = try json.string("received_at")
        simulated = try json.bool("simulated")
        uplink_message = try json.object("uplink_message").map { m throws(JSONFieldMismatch) in
            try UplinkMessage(json: m)
        }
    }
}

extension TTSUplinkMessage.UplinkMessage {
    init(json m: JSONValue) throws(JSONFieldMismatch) {
        f_port = try m.integer("f_port")
        f_cnt = try m.integer("f_cnt")
        frm_payload = try m.string("frm_payload")
        rx_metadata = try m.array("rx_metadata").map { list throws(JSONFieldMismatch) in
            var out: [TTSUplinkMessage.RxMetadata] = []
            out.reserveCapacity(list.count)
            for r in list { out.append(try TTSUplinkMessage.RxMetadata(json: r)) }
            return out
        }
        settings = try m.object("settings").map { s throws(JSONFieldMismatch) in
            TTSUplinkMessage.Settings(
                data_rate: try s.object("data_rate").map { d throws(JSONFieldMismatch) in
                    TTSUplinkMessage.Settings.DataRate(lora: try d.object("lora").map { l throws(JSONFieldMismatch) in
                        TTSUplinkMessage.Settings.DataRate.LoRa(
                            bandwidth: try l.integer("bandwidth"), spreading_factor: try l.integer("spreading_factor"),
                            coding_rate: try l.string("coding_rate"))
                    })
                },
                coding_rate: try s.string("coding_rate"), frequency: try s.string("frequency"))
        }
        received_at = try m.string("received_at")
        consumed_airtime = try m.string("consumed_airtime")
        network_ids = try m.object("network_ids").map { n throws(JSONFieldMismatch) in
            TTSUplinkMessage.NetworkIDs(net_id: try n.string("net_id"), tenant_id: try n.string("tenant_id"))
        }
    }
}

extension TTSUplinkMessage.RxMetadata {
    init(json r: JSONValue) throws(JSONFieldMismatch) {
        guard case .object = r else { throw JSONFieldMismatch() }
        gateway_ids = try r.object("gateway_ids").map { g throws(JSONFieldMismatch) in
            GatewayIDs(gateway_id: try g.string("gateway_id"), eui: try g.string("eui"))
        }
        packet_broker = try r.object("packet_broker").map { p throws(JSONFieldMismatch) in
            PacketBroker(forwarder_gateway_id: try p.string("forwarder_gateway_id"), forwarder_gateway_eui: try p.string("forwarder_gateway_eui"))
        }
        time = try r.string("time")
        timestamp = try r.integer("timestamp")
        rssi = try r.double("rssi")
        channel_rssi = try r.double("channel_rssi")
        signal_rssi = try r.double("signal_rssi")
        snr = try r.double("snr")
        channel_index = try r.integer("channel_index")
        antenna_index = try r.integer("antenna_index")
        location = try r.object("location").map { l throws(JSONFieldMismatch) in
            Location(latitude: try l.double("latitude"), longitude: try l.double("longitude"), altitude: try l.double("altitude"))
        }
    }
}
