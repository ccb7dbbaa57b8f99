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
    init(_ items: [(name: String, value: String)], allowing extra: Set<String> = [], now: Timestamp = .now()) throws(Invalid) {
        var since: String?
        var until: String?
        var seen: Set<String> = []
        for (name, value) in items {
            // Which of two would count is a guess either way: say so instead.
            guard seen.insert(name).inserted else { throw Invalid(description: "\(name) is given twice") }
            switch name {
            case "session":
                guard let id = Int64(value), id > 0 else { throw Invalid(description: "session must be a session number, not \(value)") }
                filter.session = id
            case "since":
                since = value
            case "until":
                until = value
            case _ where extra.contains(name):
                continue
            default:
                throw Invalid(description: "unknown parameter \(name) (session, since, until)")
            }
        }
        do throws(TimeTextError) {
            try filter.setWindow(since: since, until: until, now: now)
        } catch {
            throw Invalid(description: error.description)
        }
    }
}
