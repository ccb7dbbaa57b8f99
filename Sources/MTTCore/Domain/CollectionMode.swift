/// The three ways mtt collects coverage (DESIGN.md "The modes"), plus records brought in by `mtt import`.
public enum CollectionMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// mtt makes a node transmit and records every attempt.
    case active
    /// The node transmits on its own; mtt records the track and aligns heard uplinks to it.
    case matching
    /// mtt listens to the network and positions each uplink of the chosen devices.
    case listener
    /// Samples read from a MapTheThings data set.
    case imported

    /// Seconds between track points when the configuration says nothing: a listener positions
    /// uplinks that come at any moment, a matching run the node's own regular ones.
    public var defaultTrackInterval: Double { self == .listener ? 1 : 5 }
}

extension CollectionMode {
    /// Why these nodes do not go with this mode, in words for the user; nil when they do. Active
    /// mode drives nodes; the others only listen and record the track.
    public func nodeProblem(_ nodes: [NodeSpec]) -> String? {
        if self == .active && nodes.isEmpty { return "active mode drives a node: give --node (fake for a simulated one)" }
        if self != .active && !nodes.isEmpty { return "\(rawValue) mode does not drive nodes: leave out --node" }
        return nil
    }
}
