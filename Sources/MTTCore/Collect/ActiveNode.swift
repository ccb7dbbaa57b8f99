/// A node active mode drives, with the identity it is heard under on the network.
public struct ActiveNode: Sendable {
    public var link: any NodeLink
    /// 16 upper-case hex digits; how heard uplinks are joined to attempts.
    public var devEUI: String?

    public init(link: any NodeLink, devEUI: String?) {
        self.link = link
        self.devEUI = devEUI
    }
}
