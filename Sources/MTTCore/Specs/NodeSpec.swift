/// A `--node` value (DESIGN.md).
public enum NodeSpec: Sendable, Hashable, CustomStringConvertible {
    /// `ble:AA:BB:CC:DD:EE:FF`, or nil address for `ble:auto`.
    case ble(address: String?)
    /// `serial:/dev/ttyUSB0?modem=rn2483&baud=57600`, kept as text for MTTSerial to read.
    case serial(String)
    /// ATT PDUs over a Unix SOCK_SEQPACKET socket, for emulators.
    case unix(path: String)
    /// N emulated BLE nodes, behaving as the options say.
    case fake(count: Int, options: EmulatorOptions = EmulatorOptions())
    /// An emulated serial modem of the named kind (`fake-rn2483?busy=0.1`); MTTSerial knows the
    /// kinds and reads the options.
    case fakeModem(kind: String, options: String = "")

    /// Every form a `--node` takes, for help and messages. KIND is a modem kind of MTTSerial's
    /// registry, which the command line lists beside this.
    public static let forms = "ble:AA:BB:CC:DD:EE:FF, ble:auto, serial:DEVICE?modem=KIND[&baud=N], unix:PATH, fake[:N][?airtime=S&fail=SHARE] or fake-KIND[?OPTIONS]"

    public init(parsing text: String) throws(SpecError) {
        // The emulated node's options: fake:2?fail=0.2.
        if text.hasPrefix("fake"), !text.hasPrefix("fake-"), let question = text.firstIndex(of: "?") {
            guard case .fake(let count, _) = try NodeSpec(parsing: String(text[..<question])) else {
                throw SpecError("bad node spec \(text): use \(Self.forms)")
            }
            self = .fake(count: count, options: try EmulatorOptions(parsing: text[text.index(after: question)...], spec: text))
            return
        }
        switch text {
        case "ble:auto": self = .ble(address: nil)
        case "fake": self = .fake(count: 1)
        default:
            if text.hasPrefix("ble:") {
                let address = String(text.dropFirst(4)).uppercased()
                let octets = address.split(separator: ":", omittingEmptySubsequences: false)
                guard octets.count == 6, octets.allSatisfy({ $0.count == 2 && Hex.bytes(String($0)) != nil }) else {
                    throw SpecError("bad node spec \(text): a BLE address is six hex pairs, e.g. ble:F1:E2:D3:C4:B5:A6, or ble:auto")
                }
                self = .ble(address: address)
            } else if text.hasPrefix("serial:") {
                self = .serial(text)
            } else if text.hasPrefix("unix:"), text.count > 5 {
                self = .unix(path: String(text.dropFirst(5)))
            } else if text.hasPrefix("fake:"), let n = Int(text.dropFirst(5)), (1...16).contains(n) {
                self = .fake(count: n)
            } else if text.hasPrefix("fake-") {
                let parts = text.dropFirst(5).split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
                guard !parts[0].isEmpty, parts[0].allSatisfy({ $0.isLetter || $0.isNumber }) else {
                    throw SpecError("bad node spec \(text): use \(Self.forms)")
                }
                self = .fakeModem(kind: parts[0].lowercased(), options: parts.count == 2 ? String(parts[1]) : "")
            } else {
                throw SpecError("bad node spec \(text): use \(Self.forms)")
            }
        }
    }

    public var description: String {
        switch self {
        case .ble(let address): return "ble:\(address ?? "auto")"
        case .serial(let text): return text
        case .unix(let path): return "unix:\(path)"
        case .fake(let count, let options):
            let base = count == 1 ? "fake" : "fake:\(count)"
            return options.description.isEmpty ? base : base + "?" + options.description
        case .fakeModem(let kind, let options): return "fake-\(kind)" + (options.isEmpty ? "" : "?" + options)
        }
    }
}
