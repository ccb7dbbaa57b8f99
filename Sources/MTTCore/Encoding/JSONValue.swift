/// A JSON document held whole: what a network's payload decoder made of an uplink, whose shape
/// is the device maker's choice. Only the cases that nest are `indirect`: an indirect enum boxed
/// every number on the heap (a listener reads one decoded payload per uplink); with none indirect,
/// Swift Testing's reflection of a value crashed the test process.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    indirect case array([JSONValue])
    indirect case object([String: JSONValue])

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// A number, or a string that holds one (decoders send both).
    public var number: Double? {
        switch self {
        case .number(let value): value
        case .string(let text): Double(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// Nil for null: a field sent as null is a field not sent.
    public var nonNull: JSONValue? {
        self == .null ? nil : self
    }

    /// A boolean, or the strings `true` and `false`.
    public var bool: Bool? {
        switch self {
        case .bool(let value): value
        case .string("true"): true
        case .string("false"): false
        default: nil
        }
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
