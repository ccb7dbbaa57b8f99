import MTTCore

/// A kind of serial modem: its command set's driver, its default speed and the emulator's
/// personality for `fake-NAME`. A kind is one file declaring its `ModemKind` (and, for a new
/// command set, its driver and personality) and one line in `registered`; `serial:…?modem=`,
/// `fake-NAME` and the help read the list.
public struct ModemKind: RegisteredKind {
    public let name: String
    /// What it is, for help.
    public let help: String
    public let defaultBaud: Int
    let open: @Sendable (SerialNodeSpec, ModemTimeouts) async throws -> any ModemLink
    let personality: @Sendable (_ joined: Bool, _ holdsKeys: Bool) -> any ModemPersonality

    init(
        name: String, help: String, defaultBaud: Int, open: @escaping @Sendable (SerialNodeSpec, ModemTimeouts) async throws -> any ModemLink,
        personality: @escaping @Sendable (_ joined: Bool, _ holdsKeys: Bool) -> any ModemPersonality
    ) {
        self.name = name
        self.help = help
        self.defaultBaud = defaultBaud
        self.open = open
        self.personality = personality
    }

    /// Every kind mtt drives.
    public static let registered: [ModemKind] = [
        .rn2483,
        .rn2903,
        .rui3,
    ]
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
        guard text.hasPrefix("serial:") else { throw SpecError("bad node spec \(text): serial nodes are serial:DEVICE?modem=KIND[&baud=N], KIND \(ModemKind.namesText)") }
        let rest = text.dropFirst("serial:".count)
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        guard path.hasPrefix("/") else { throw SpecError("bad node spec \(text): give the device's path, e.g. serial:/dev/ttyUSB0?modem=rn2483") }
        var modem: ModemKind?
        var baud: Int?
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard kv.count == 2 else { throw SpecError("bad node spec \(text): options are modem=KIND (\(ModemKind.namesText)) and baud=N") }
                switch kv[0] {
                case "modem":
                    guard let kind = ModemKind(rawValue: kv[1]) else { throw SpecError("bad node spec \(text): modem is \(ModemKind.namesText)") }
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
        guard let modem else { throw SpecError("bad node spec \(text): say which command set with ?modem=KIND, KIND \(ModemKind.namesText)") }
        self.init(path: path, modem: modem, baud: baud)
    }

    public var description: String { "serial:\(path)?modem=\(modem.rawValue)&baud=\(baud)" }
}
