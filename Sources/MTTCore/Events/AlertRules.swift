/// When the run calls coverage lost and a battery low, and where the map is: the `[alerts]`
/// section of the configuration.
public struct AlertRules: Sendable, Hashable {
    /// Attempts in a row nobody heard before coverage is lost.
    public var coverageLostAfter = 5
    /// Seconds without any uplink before coverage is lost (in active mode only while attempts go
    /// unheard: a mapper standing still sends nothing).
    public var coverageSilence: Double = 600
    /// Percent at or under which a node's battery is low.
    public var batteryLow = 20
    /// A confirmed attempt not heard within this many seconds is lost. TTN delivers in about a
    /// second; a delayed broker must not make false alarms.
    public var heardWithin: Double = 30
    /// The `mtt serve` page events link to (`http://raspberrypi.local:8080/`), when there is one.
    public var mapURL: String?

    public init() {}
}
