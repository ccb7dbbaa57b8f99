import MTTCore

extension NodeKind {
    /// The kinds of node MTTSerial drives, in the order help lists them. A new modem model is a
    /// `ModemKind`; a new kind of node is a file declaring its `NodeKind` and one line here.
    public static let modems: [NodeKind] = [
        .serial,
        .emulatedModem,
    ]
}
