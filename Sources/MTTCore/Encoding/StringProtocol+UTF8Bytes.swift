extension StringProtocol {
    /// The text's UTF-8 where it stands (every native Swift string has it in one piece), or a copy
    /// for a string that does not: for the parsers and binds that run on every uplink.
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        return try Array(utf8).withUnsafeBufferPointer(body)
    }
}
