/// A `--gps` or `--node` value mtt cannot use, with the forms it accepts.
public struct SpecError: Error, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
