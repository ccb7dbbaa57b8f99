/// What a target's answer means for the records of a request, and for the run.
public enum SyncVerdict: Sendable, Hashable {
    /// Stored by the target.
    case accepted
    /// Refused for good; retrying the same record would be refused again.
    case rejected(String)
    /// This kind of record is not taken by this server (an endpoint it does not have). The records
    /// stay queued for a server that does; the run goes on with other kinds.
    case kindNotAccepted(String)
    /// Nothing more can go to this target in this run (credentials refused, wrong URL).
    case stop(String)
    /// Worth trying again after a pause (server errors, overload).
    case retry(String)
}
