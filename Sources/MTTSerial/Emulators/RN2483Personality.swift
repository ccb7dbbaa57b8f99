import MTTCore

/// The LoRaWAN command set of Microchip's RN2483 and RN2903, as far as mtt uses it.
struct RN2483Personality: ModemPersonality {
    /// What `sys get ver` answers: the model comes first.
    let version: String
    /// The region's data rates, which `mac set dr` takes.
    let plan: DataRatePlan
    var joined: Bool
    var devEUI = "0004A30B001C0530"
    var appEUI = "0000000000000000"
    var appKey = "00000000000000000000000000000000"
    var devAddr: String
    var dataRate: Int
    var upctr: UInt32 = 0
    var abpKeys = 0
    /// `mac set linkchk`: 0 is off; else every uplink carries a LinkCheckReq (mtt sends them at
    /// least a second apart, so the interval is always over).
    var linkCheckInterval = 0
    /// Downlinks received, and the last LinkCheckAns's margin (255 before any) and gateway count.
    var dnctr: UInt32 = 0
    var mrgn = 255
    var gwnb = 0
    private(set) var transmissions: [ModemEmulator.Transmission] = []
    private(set) var joinRequests = 0

    /// - Parameter holdsKeys: OTAA keys kept from an earlier provisioning (`mac save`), as a
    ///   modem that was unplugged and plugged back has them; a joined modem always holds them.
    init(joined: Bool, holdsKeys: Bool = false, version: String = "RN2483 1.0.5 Oct 31 2018 15:06:52", plan: DataRatePlan = .eu868) {
        self.version = version
        self.plan = plan
        // SF7, as the modems come.
        dataRate = (try? plan.dataRate(spreadingFactor: 7, node: "")) ?? 0
        self.joined = joined
        devAddr = joined ? "26011F01" : "00000000"
        if joined || holdsKeys { appKey = "2B7E151628AED2A6ABF7158809CF4F3C" }
    }

    mutating func answer(_ command: String, options: inout ModemEmulatorOptions, air: (ModemEmulator.Transmission) -> LinkCheck) -> [EmulatorReply] {
        let words = command.split(separator: " ").map(String.init)
        func hex(_ index: Int, digits: Int) -> String? {
            guard index < words.count, words[index].count == digits, Hex.bytes(words[index]) != nil else { return nil }
            return words[index].uppercased()
        }
        switch words.prefix(3).joined(separator: " ") {
        case "sys get ver": return [EmulatorReply(line: version)]
        case "mac get deveui": return [EmulatorReply(line: devEUI)]
        case "mac get devaddr": return [EmulatorReply(line: devAddr)]
        case "mac get dr": return [EmulatorReply(line: String(dataRate))]
        case "mac get status": return [EmulatorReply(line: joined ? "00000001" : "00000000")]
        case "mac get upctr": return [EmulatorReply(line: String(upctr))]
        case "mac get dnctr": return [EmulatorReply(line: String(dnctr))]
        case "mac get mrgn": return [EmulatorReply(line: String(mrgn))]
        case "mac get gwnb": return [EmulatorReply(line: String(gwnb))]
        case "mac set linkchk":
            guard words.count == 4, let seconds = Int(words[3]), (0...65535).contains(seconds) else { return [EmulatorReply(line: "invalid_param")] }
            linkCheckInterval = seconds
            return [EmulatorReply(line: "ok")]
        case "mac set deveui":
            guard let value = hex(3, digits: 16) else { return [EmulatorReply(line: "invalid_param")] }
            devEUI = value
            return [EmulatorReply(line: "ok")]
        case "mac set appeui":
            guard let value = hex(3, digits: 16) else { return [EmulatorReply(line: "invalid_param")] }
            appEUI = value
            return [EmulatorReply(line: "ok")]
        case "mac set appkey":
            guard let value = hex(3, digits: 32) else { return [EmulatorReply(line: "invalid_param")] }
            appKey = value
            return [EmulatorReply(line: "ok")]
        case "mac set devaddr":
            guard let value = hex(3, digits: 8) else { return [EmulatorReply(line: "invalid_param")] }
            devAddr = value
            return [EmulatorReply(line: "ok")]
        case "mac set nwkskey", "mac set appskey":
            guard hex(3, digits: 32) != nil else { return [EmulatorReply(line: "invalid_param")] }
            abpKeys += 1
            return [EmulatorReply(line: "ok")]
        case "mac join abp":
            guard devAddr != "00000000", abpKeys >= 2 else { return [EmulatorReply(line: "keys_not_init")] }
            joined = true
            upctr = 0
            return [EmulatorReply(line: "ok"), EmulatorReply(line: "accepted")]
        case "mac set dr":
            guard words.count == 4, let dr = Int(words[3]), (0...plan.highestDataRate).contains(dr) else { return [EmulatorReply(line: "invalid_param")] }
            dataRate = dr
            return [EmulatorReply(line: "ok")]
        case "mac save": return [EmulatorReply(line: "ok")]
        case "mac join otaa":
            guard appKey != String(repeating: "0", count: 32) else { return [EmulatorReply(line: "keys_not_init")] }
            joinRequests += 1
            if options.denyJoin() {
                return [EmulatorReply(line: "ok"), EmulatorReply(line: "denied", delay: options.airtime)]
            }
            joined = true
            devAddr = "26011F01"
            upctr = 0
            return [EmulatorReply(line: "ok"), EmulatorReply(line: "accepted", delay: options.airtime)]
        case "mac tx uncnf", "mac tx cnf":
            guard words.count == 5, let port = Int(words[3]), (1...223).contains(port),
                  let payload = Hex.bytes(words[4]), !payload.isEmpty
            else { return [EmulatorReply(line: "invalid_param")] }
            guard joined else { return [EmulatorReply(line: "not_joined")] }
            switch options.nextSend() {
            case .busy: return [EmulatorReply(line: "busy")]
            case .transmitError: return [EmulatorReply(line: "ok"), EmulatorReply(line: "mac_err", delay: options.airtime)]
            case .noResult: return [EmulatorReply(line: "ok")]
            case .unplug: return [EmulatorReply(line: "ok", unplugAfter: true)]
            case .sent:
                var transmission = ModemEmulator.Transmission(payload: payload, frameCounter: upctr)
                upctr += 1
                let heard = air(transmission)
                if linkCheckInterval > 0 {
                    transmission.linkCheck = .unanswered
                    // The answer is a downlink: it moves the downlink counter and keeps its figures.
                    if case .answered(let gateways, let margin) = heard, !options.losesLinkCheck() {
                        dnctr += 1
                        mrgn = margin
                        gwnb = gateways
                        transmission.linkCheck = heard
                    }
                }
                transmissions.append(transmission)
                return [EmulatorReply(line: "ok"), EmulatorReply(line: "mac_tx_ok", delay: options.airtime)]
            }
        default:
            return [EmulatorReply(line: "invalid_param")]
        }
    }
}
