import ArgumentParser
import MTTCore

/// `--mode` of `mtt collect`: the three ways to collect, and not `imported`, which only names
/// sessions that `mtt import` made.
struct CollectModeArgument: ExpressibleByArgument, Hashable {
    static let modes: [CollectionMode] = [.active, .matching, .listener]

    var mode: CollectionMode

    init?(argument: String) {
        guard let mode = CollectionMode(rawValue: argument), Self.modes.contains(mode) else { return nil }
        self.mode = mode
    }

    static var allValueStrings: [String] { modes.map(\.rawValue) }
}
