/// A `--node` value (DESIGN.md).
public enum NodeSpec: Sendable, Hashable, CustomStringConvertible {
    /// `ble:AA:BB:CC:DD:EE:FF[?type=public|random]`, or nil address for `ble:auto`. Without a
    /// type, an address starting C0 to FF is taken as random static (as the node's nRF51 uses),
    /// anything else as public.
    case ble(address: String?, type: BLEAddressType? = nil)
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
    public static let forms = "ble:AA:BB:CC:DD:EE:FF[?type=public|random], ble:auto, serial:DEVICE?modem=KIND[&baud=N], unix:PATH, fake[:N][?airtime=S&fail=SHARE] or fake-KIND[?OPTIONS]"

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
                let parts = text.dropFirst(4).split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
                var type: BLEAddressType?
                if parts.count == 2 {
                    guard parts[1].hasPrefix("type="), let named = BLEAddressType(rawValue: String(parts[1].dropFirst(5))) else {
                        throw SpecError("bad node spec \(text): the address type is ?type=public or ?type=random")
                    }
                    type = named
                }
                let address = String(parts[0]).uppercased()
                let octets = address.split(separator: ":", omittingEmptySubsequences: false)
                guard octets.count == 6, octets.allSatisfy({ $0.count == 2 && Hex.bytes(String($0)) != nil }) else {
                    throw SpecError("bad node spec \(text): a BLE address is six hex pairs, e.g. ble:F1:E2:D3:C4:B5:A6, or ble:auto")
                }
                self = .ble(address: address, type: type)
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
        case .ble(let address, let type): return "ble:\(address ?? "auto")" + (type.map { "?type=\($0.rawValue)" } ?? "")
        case .serial(let text): return text
        case .unix(let path): return "unix:\(path)"
        case .fake(let count, let options):
            let base = count == 1 ? "fake" : "fake:\(count)"
            return options.description.isEmpty ? base : base + "?" + options.description
        case .fakeModem(let kind, let options): return "fake-\(kind)" + (options.isEmpty ? "" : "?" + options)
        }
    }
}

/// How a Bluetooth LE device's address is to be read: the public address of its adapter, or a
/// random static one it chose.
public enum BLEAddressType: String, Sendable, Hashable {
    case `public`
    case random

    /// The type an address is taken to be when nobody says: random static addresses have their two
    /// top bits set.
    public static func guess(_ address: String) -> BLEAddressType {
        guard let first = address.split(separator: ":").first, let octet = UInt8(first, radix: 16) else { return .public }
        return octet >= 0xC0 ? .random : .public
    }
}
