/// How long mtt waits for a modem. Tests shorten them; the defaults suit real hardware.
public struct ModemTimeouts: Sendable, Hashable {
    /// For the immediate answer to a command ("ok", "OK", a value).
    public var command: Double
    /// For the result of a transmission (the modem waits for both receive windows first).
    public var transmission: Double
    /// For the answer to a join request.
    public var join: Double
    /// For a link check's answer after the transmission's result (RUI3 reports it as an event of
    /// its own): none by then is no answer.
    public var linkCheck: Double

    public init(command: Double = 3, transmission: Double = 25, join: Double = 30, linkCheck: Double = 3) {
        self.command = command
        self.transmission = transmission
        self.join = join
        self.linkCheck = linkCheck
    }
}
