/// How long mtt waits for a modem. Tests shorten them; the defaults suit real hardware.
public struct ModemTimeouts: Sendable, Hashable {
    /// For the immediate answer to a command ("ok", "OK", a value).
    public var command: Double
    /// For the result of a transmission (the modem waits for both receive windows first).
    public var transmission: Double
    /// For the answer to a join request.
    public var join: Double

    public init(command: Double = 3, transmission: Double = 25, join: Double = 30) {
        self.command = command
        self.transmission = transmission
        self.join = join
    }
}
