/// The kinds of transport a sync target can ask for; the command line builds one of each that a
/// run needs (`SyncTransports`).
public enum SyncTransportKind: String, Sendable, Hashable {
    case http
    case file
}
