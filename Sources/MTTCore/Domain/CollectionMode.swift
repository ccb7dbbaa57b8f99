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
