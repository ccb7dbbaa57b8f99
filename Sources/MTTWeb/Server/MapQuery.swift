import MTTCore

/// The filters of the map and its API (`?session=3&since=…&until=…`), each checked: a value that
/// cannot be read is a 400 with the reason, not a silent "everything".
struct MapQuery: Sendable, Hashable {
    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    var filter = ExportFilter()

    /// Reads the query items a request carries; unknown names are refused too (a typo would
    /// otherwise show everything).
    init(_ items: [(name: String, value: String)], allowing extra: Set<String> = []) throws(Invalid) {
        for (name, value) in items {
            switch name {
            case "session":
                guard let id = Int64(value), id > 0 else { throw Invalid(description: "session must be a session number, not \(value)") }
                filter.session = id
            case "since", "until":
                guard let time = RFC3339.parse(value) else {
                    throw Invalid(description: "\(name) must be an RFC 3339 time such as 2026-06-21T08:00:00Z, not \(value)")
                }
                if name == "since" { filter.since = time } else { filter.until = time }
            case _ where extra.contains(name):
                continue
            default:
                throw Invalid(description: "unknown parameter \(name) (session, since, until)")
            }
        }
        if let since = filter.since, let until = filter.until, until < since {
            throw Invalid(description: "until is before since")
        }
    }
}
