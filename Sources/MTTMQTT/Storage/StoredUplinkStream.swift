import FoundationEssentials
import Glibc
import MTTCore

/// Reads the body of a Storage Integration answer as it arrives: `{"result": <uplink message>}`
/// objects one per line (`application/json`) or separated by blank lines (`text/event-stream`),
/// perhaps ended by an `{"error": …}` object. Each message goes through the MQTT decoder, so a
/// fetched uplink is exactly what the same message would have been live.
/// Used by one answer's read loop at a time, on the transport's thread.
final class StoredUplinkStream: @unchecked Sendable {
    /// Larger objects are broken (a stored uplink is a few KB).
    static let largestObject = 1 << 20

    private let handle: @Sendable (StoredUplinkItem) -> Bool
    private let separator: [UInt8]
    private var pending: [UInt8] = []
    /// Skipping the rest of an object that grew too large, up to the next separator.
    private var discarding = false
    /// Objects read in this answer, broken ones included: a short page is the last one.
    private(set) var objects = 0
    /// The newest network receive time seen, for paging by `after`.
    private(set) var latest: Timestamp?
    /// The message of an `{"error": …}` object that ended the stream.
    private(set) var error: String?
    /// The consumer asked to stop.
    private(set) var stopped = false
    /// Objects that were uplinks or other valid messages, and those that could not be read.
    private(set) var readable = 0
    private(set) var broken = 0
    /// Why the first broken object was broken.
    private(set) var firstBroken: String?

    init(eventStream: Bool, handle: @escaping @Sendable (StoredUplinkItem) -> Bool) {
        self.handle = handle
        separator = eventStream ? Array("\n\n".utf8) : Array("\n".utf8)
    }

    /// For the transport: a piece of the body. False once the stream should not be read further.
    func consume(_ bytes: Data) -> Bool {
        pending.append(contentsOf: bytes)
        var start = 0
        while let end = Self.find(separator, in: pending, from: start) {
            if discarding {
                discarding = false
            } else {
                emit(pending[start..<end])
            }
            start = end + separator.count
            if stopped || error != nil { return false }
        }
        pending.removeFirst(start)
        if pending.count > Self.largestObject {
            if !discarding { broken("an object longer than \(Self.largestObject >> 20) MiB") }
            discarding = true
            pending.removeAll(keepingCapacity: true)
        }
        return !stopped && error == nil
    }

    /// The end of the body: what is left is the last object.
    func finish() {
        if !discarding, !stopped, error == nil { emit(pending[...]) }
        pending.removeAll()
    }

    private func emit(_ object: ArraySlice<UInt8>) {
        let trimmed = object.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard let last = trimmed.lastIndex(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else { return }
        let text = Array(trimmed[...last])
        objects += 1
        var result: Range<Int>?
        var errorMessage: String?
        do throws(JSONReader.Mismatch) {
            try JSONReader.read(text) { r throws(JSONReader.Mismatch) in
                try r.object { key, r throws(JSONReader.Mismatch) in
                    if key.matches("result") {
                        result = try r.skippedRange()
                    } else if key.matches("error") {
                        errorMessage = try Self.message(of: &r)
                    } else {
                        try r.skip()
                    }
                }
            }
        } catch {
            broken("not JSON: \(String(decoding: text.prefix(60), as: UTF8.self))")
            return
        }
        if let errorMessage {
            error = errorMessage
            return
        }
        guard let result else {
            broken("an object without a result")
            return
        }
        do {
            switch try UplinkDecoder.decode(Array(text[result])) {
            case .uplink(let uplink):
                readable += 1
                if latest.map({ uplink.receivedAt > $0 }) ?? true { latest = uplink.receivedAt }
                deliver(.uplink(uplink))
            case .simulated, .notAnUplink, .unsupported:
                readable += 1
                deliver(.skipped)
            }
        } catch {
            broken(error.description)
        }
    }

    private func broken(_ reason: String) {
        broken += 1
        if firstBroken == nil { firstBroken = reason }
        deliver(.broken(reason: reason))
    }

    private func deliver(_ item: StoredUplinkItem) {
        if !handle(item) { stopped = true }
    }

    /// `{"error": {"message": "…", …}}` or `{"error": "…"}`.
    private static func message(of r: inout JSONReader) throws(JSONReader.Mismatch) -> String {
        if let text = try? r.string() { return text }
        var message = "the server ended the stream with an error"
        try r.object { key, r throws(JSONReader.Mismatch) in
            if key.matches("message"), let text = try r.string() {
                message = text
            } else {
                try r.skip()
            }
        }
        return message
    }

    private static func find(_ separator: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count - start >= separator.count else { return nil }
        var i = start
        let first = separator[0]
        while i <= bytes.count - separator.count {
            if bytes[i] == first, separator.count == 1 || bytes[i + 1] == separator[1] { return i }
            i += 1
        }
        return nil
    }
}
