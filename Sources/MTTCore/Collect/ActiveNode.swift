/// A node active mode drives, with the identity it is heard under on the network and the way to
/// reach it again when its link drops.
public struct ActiveNode: Sendable {
    public var link: any NodeLink
    /// 16 upper-case hex digits; how heard uplinks are joined to attempts.
    public var devEUI: String?
    /// Opens the node again after a loss; without one, a lost node is driven no more (the others are).
    public var connector: (any NodeConnector)?

    public init(link: any NodeLink, devEUI: String?, connector: (any NodeConnector)? = nil) {
        self.link = link
        self.devEUI = devEUI
        self.connector = connector
    }
}
