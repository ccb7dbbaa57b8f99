import MTTCore

extension NodeKind {
    /// The kinds of MapTheThings node MTTBluetooth speaks to, in the order help lists them. A new
    /// one is a file declaring its `NodeKind` and one line here.
    public static let mapTheThings: [NodeKind] = [
        .ble,
        .unix,
        .fake,
    ]
}
