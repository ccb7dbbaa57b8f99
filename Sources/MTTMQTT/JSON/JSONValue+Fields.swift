/// A field of the wrong type: the caller gives up on the fast path and lets `JSONDecoder` say what is
/// wrong, so both paths accept and refuse the same messages.
struct JSONFieldMismatch: Error {}

/// Optional fields as Codable's `decodeIfPresent` reads them: absent or null is nil, any other type
/// than the one asked for is a mismatch.
extension JSONValue {
    private func field(_ key: StaticString) -> JSONValue? {
        guard let value = member(key) else { return nil }
        if case .null = value { return nil }
        return value
    }

    func string(_ key: StaticString) throws(JSONFieldMismatch) -> String? {
        guard let value = field(key) else { return nil }
        guard case .string(let text) = value, let string = text.string else { throw JSONFieldMismatch() }
        return string
    }

    func bool(_ key: StaticString) throws(JSONFieldMismatch) -> Bool? {
        guard let value = field(key) else { return nil }
        guard case .bool(let flag) = value else { throw JSONFieldMismatch() }
        return flag
    }

    func double(_ key: StaticString) throws(JSONFieldMismatch) -> Double? {
        guard let value = field(key) else { return nil }
        guard case .number(let number, _) = value else { throw JSONFieldMismatch() }
        return number
    }

    func integer<T: FixedWidthInteger>(_ key: StaticString, as type: T.Type = T.self) throws(JSONFieldMismatch) -> T? {
        guard let value = field(key) else { return nil }
        guard case .number(_, let integer?) = value, let exact = T(exactly: integer) else { throw JSONFieldMismatch() }
        return exact
    }

    func object(_ key: StaticString) throws(JSONFieldMismatch) -> JSONValue? {
        guard let value = field(key) else { return nil }
        guard case .object = value else { throw JSONFieldMismatch() }
        return value
    }

    func array(_ key: StaticString) throws(JSONFieldMismatch) -> [JSONValue]? {
        guard let value = field(key) else { return nil }
        guard case .array(let elements) = value else { throw JSONFieldMismatch() }
        return elements
    }
}
