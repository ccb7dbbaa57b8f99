/// A file's content as a short text, to recognise a file imported before under any name: FNV-1a
/// over its bytes, with its length. Not a defence against anyone (nobody gains by a collision);
/// MTTCore links no crypto library, and this is twelve lines.
enum ContentHash {
    static func of(path: String) throws -> String? {
        guard let file = ReadOnlyFile(path: path) else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var length = 0
        while true {
            let bytes = try file.read(upTo: 1 << 16)
            if bytes.isEmpty { break }
            length += bytes.count
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        return "fnv1a64:" + String(hash, radix: 16) + ":\(length)"
    }
}
