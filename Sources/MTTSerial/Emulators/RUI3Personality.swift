import MTTCore

/// RUI3's AT commands, as far as mtt uses them: values as `AT+X=value`, then a blank line and a status.
struct RUI3Personality: ModemPersonality {
    var joined: Bool
    var devEUI = "AC1F09FFFE0A1B2C"
    var appEUI = "0000000000000000"
    var appKey = "00000000000000000000000000000000"
    var devAddr: String
    var dataRate = 0
    var fCnt: UInt32 = 0
    /// `AT+LINKCHECK`: 0 off, 1 with the next uplink only, 2 with every uplink.
    var linkCheckMode = 0
    private(set) var transmissions: [ModemEmulator.Transmission] = []
    private(set) var joinRequests = 0

    /// - Parameter holdsKeys: OTAA keys kept from an earlier provisioning (`mac save`), as a
    ///   modem that was unplugged and plugged back has them; a joined modem always holds them.
    init(joined: Bool, holdsKeys: Bool = false) {
        self.joined = joined
        devAddr = joined ? "260B4A7C" : "00000000"
        if joined || holdsKeys { appKey = "2B7E151628AED2A6ABF7158809CF4F3C" }
    }

    private func value(_ name: String, _ value: String) -> [EmulatorReply] {
        [EmulatorReply(line: "\(name)=\(value)"), EmulatorReply(line: ""), EmulatorReply(line: "OK")]
    }

    private func status(_ text: String) -> [EmulatorReply] {
        [EmulatorReply(line: ""), EmulatorReply(line: text)]
    }

    mutating func answer(_ command: String, options: inout ModemEmulatorOptions, air: (ModemEmulator.Transmission) -> LinkCheck) -> [EmulatorReply] {
        let parts = command.split(separator: "=", maxSplits: 1).map(String.init)
        let name = parts[0]
        let argument = parts.count == 2 ? parts[1] : nil
        func setHex(_ digits: Int, _ apply: (inout Self, String) -> Void) -> [EmulatorReply] {
            guard let argument, argument.count == digits, Hex.bytes(argument) != nil else { return status("AT_PARAM_ERROR") }
            apply(&self, argument.uppercased())
            return status("OK")
        }
        switch (name, argument) {
        case ("AT", nil): return status("OK")
        case ("AT+VER", "?"): return value(name, "4.0.6")
        case ("AT+DEVEUI", "?"): return value(name, devEUI)
        case ("AT+DEVADDR", "?"): return value(name, devAddr)
        case ("AT+DR", "?"): return value(name, String(dataRate))
        case ("AT+BAND", "?"): return value(name, "4")
        case ("AT+NJS", "?"): return value(name, joined ? "1" : "0")
        case ("AT+NJM", "1"), ("AT+NJM", "0"): return status("OK")
        case ("AT+LINKCHECK", "?"): return value(name, String(linkCheckMode))
        case ("AT+LINKCHECK", let mode?):
            guard let value = Int(mode), (0...2).contains(value) else { return status("AT_PARAM_ERROR") }
            linkCheckMode = value
            return status("OK")
        case ("AT+DEVEUI", _): return setHex(16) { $0.devEUI = $1 }
        case ("AT+APPEUI", _): return setHex(16) { $0.appEUI = $1 }
        case ("AT+APPKEY", _): return setHex(32) { $0.appKey = $1 }
        case ("AT+DR", let dr?):
            guard let value = Int(dr), (0...5).contains(value) else { return status("AT_PARAM_ERROR") }
            dataRate = value
            return status("OK")
        case ("AT+JOIN", _):
            joinRequests += 1
            let denied = options.denyJoin()
            guard appKey != String(repeating: "0", count: 32), !denied else {
                return status("OK") + [EmulatorReply(line: "+EVT:JOIN_FAILED_RX_TIMEOUT", delay: options.airtime)]
            }
            joined = true
            devAddr = "260B4A7C"
            fCnt = 0
            return status("OK") + [EmulatorReply(line: "+EVT:JOINED", delay: options.airtime)]
        case ("AT+SEND", let argument?):
            let fields = argument.split(separator: ":").map(String.init)
            guard fields.count == 2, let port = Int(fields[0]), (1...223).contains(port), let payload = Hex.bytes(fields[1]), !payload.isEmpty else {
                return status("AT_PARAM_ERROR")
            }
            guard joined else { return status("AT_NO_NETWORK_JOINED") }
            switch options.nextSend() {
            case .busy: return status("AT_BUSY_ERROR")
            case .transmitError: return status("OK") + [EmulatorReply(line: "+EVT:SEND_CONFIRMED_FAILED(4)", delay: options.airtime)]
            case .noResult: return status("OK")
            case .unplug: return [EmulatorReply(line: ""), EmulatorReply(line: "OK", unplugAfter: true)]
            case .sent:
                var transmission = ModemEmulator.Transmission(payload: payload, frameCounter: fCnt)
                fCnt += 1
                let heard = air(transmission)
                var replies = status("OK") + [EmulatorReply(line: "+EVT:TX_DONE", delay: options.airtime)]
                if linkCheckMode > 0 {
                    if linkCheckMode == 1 { linkCheckMode = 0 }
                    transmission.linkCheck = .unanswered
                    switch heard {
                    case .answered(let gateways, let margin):
                        // An answer lost on its way back is reported by no event at all.
                        if !options.losesLinkCheck() {
                            // Newer firmware's colons; the downlink's RSSI and SNR as the node heard it.
                            replies.append(EmulatorReply(line: "+EVT:LINKCHECK:0:\(margin):\(gateways):-\(100 - min(margin, 60)):\(min(margin / 2, 10))"))
                            transmission.linkCheck = heard
                        }
                    case .unanswered:
                        // The documentation's commas: the check failed.
                        replies.append(EmulatorReply(line: "+EVT:LINKCHECK:1,0,0,0,0"))
                    }
                }
                transmissions.append(transmission)
                return replies
            }
        default:
            return status("AT_COMMAND_NOT_FOUND")
        }
    }
}
