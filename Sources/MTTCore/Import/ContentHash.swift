/// A file's content as a short text, to recognise a file imported before under any name: FNV-1a
/// over its bytes, with its length. Not a defence against anyone (nobody gains by a collision);
/// MTTCore links no crypto library.
enum ContentHash {
    static func of(path: String) throws -> String? {
        guard let file = ReadOnlyFile(path: path) else { return nil }
        var hash = FNV1a()
        var length = 0
        while true {
            let bytes = try file.read(upTo: 1 << 16)
            if bytes.isEmpty { break }
            length += bytes.count
            hash.add(bytes)
        }
        return "fnv1a64:" + String(hash.value, radix: 16) + ":\(length)"
    }
}
