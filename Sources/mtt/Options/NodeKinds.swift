import MTTBluetooth
import MTTCore
import MTTSerial

extension NodeKind {
    /// Every kind `--node` and `collect.nodes` take, in the order help lists them: the
    /// MapTheThings nodes', then the serial modems'; one line for each kind another adapter implements.
    static let registered: [NodeKind] = NodeKind.mapTheThings + NodeKind.modems

    /// `--node` read through the registry.
    static func spec(_ text: String) throws(SpecError) -> NodeSpec {
        try NodeSpec(parsing: text, kinds: registered)
    }

    /// The forms, for help, with the modem models KIND names.
    static var formsHelp: String { "\(formsText(registered)); KIND \(ModemKind.namesText)" }
}
