import MTTCore

/// The serial command sets mtt speaks.
public enum ModemKind: String, Sendable, Hashable, CaseIterable {
    /// Microchip RN2483 (EU868) and RN2903 (US915) LoRaWAN command set.
    case rn2483
    /// RAKwireless RUI3 AT commands (RAK3172, RAK4630, …).
    case rui3

    public var defaultBaud: Int {
        switch self {
        case .rn2483: return 57_600
        case .rui3: return 115_200
        }
    }
}

/// `serial:/dev/ttyUSB0?modem=rn2483&baud=57600`.
public struct SerialNodeSpec: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var modem: ModemKind
    public var baud: Int

    public init(path: String, modem: ModemKind, baud: Int? = nil) {
        self.path = path
        self.modem = modem
        self.baud = baud ?? modem.defaultBaud
    }

    public init(parsing text: String) throws(SpecError) {
        guard text.hasPrefix("serial:") else { throw SpecError("bad node spec \(text): serial nodes are serial:DEVICE?modem=rn2483|rui3[&baud=N]") }
        let rest = text.dropFirst("serial:".count)
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        guard path.hasPrefix("/") else { throw SpecError("bad node spec \(text): give the device's path, e.g. serial:/dev/ttyUSB0?modem=rn2483") }
        var modem: ModemKind?
        var baud: Int?
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard kv.count == 2 else { throw SpecError("bad node spec \(text): options are modem=rn2483|rui3 and baud=N") }
                switch kv[0] {
                case "modem":
                    guard let kind = ModemKind(rawValue: kv[1]) else { throw SpecError("bad node spec \(text): modem is rn2483 or rui3") }
                    modem = kind
                case "baud":
                    guard let value = Int(kv[1]), [9600, 19200, 38400, 57600, 115200, 230400].contains(value) else {
                        throw SpecError("bad node spec \(text): baud is 9600, 19200, 38400, 57600, 115200 or 230400")
                    }
                    baud = value
                default:
                    throw SpecError("bad node spec \(text): unknown option \(kv[0]) (options are modem and baud)")
                }
            }
        }
        guard let modem else { throw SpecError("bad node spec \(text): say which command set with ?modem=rn2483 or ?modem=rui3") }
        self.init(path: path, modem: modem, baud: baud)
    }

    public var description: String { "serial:\(path)?modem=\(modem.rawValue)&baud=\(baud)" }
}
