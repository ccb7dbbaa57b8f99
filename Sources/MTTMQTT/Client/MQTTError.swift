/// A connection that cannot even be attempted, with the reason in a user's words.
public struct MQTTError: Error, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
