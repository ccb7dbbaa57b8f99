import Foundation
import FuzzDriver
@testable import MTTMQTT

/// A network's MQTT message: the TTS and ChirpStack decoders and the reader's skipping must take
/// any bytes without crashing, and whatever JSONDecoder reads as a v3 message the one-pass reader must read alike
/// (JSONReaderTests checks the same on every fixture; here on every input the fuzzer makes).
@main
enum Fuzzer {
    static func main() { runFuzzer(fuzzOne) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    _ = try? UplinkDecoder.decode(bytes)
    _ = try? ChirpStackDecoder.decode(topic: "application/a/device/0004a30b001c0530/event/up", bytes, networkID: "NS_CHIRP://fuzz")
    // Compared only on JSON as RFC 8259 has it: JSONDecoder lets through raw control bytes in
    // strings and numbers with leading zeros, which the reader refuses and no encoder writes.
    let strictJSON = (try? JSONReader.read(bytes) { r throws(JSONReader.Mismatch) in try r.skip() }) != nil
    if strictJSON, !hasDuplicateKeys(bytes), let reference = try? JSONDecoder().decode(TTSUplinkMessage.self, from: Data(bytes)) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let read = try? JSONReader.read(bytes, { r throws(JSONReader.Mismatch) in try TTSUplinkMessage(reading: &r) }) else {
            fatalError("JSONDecoder read a message the reader refused: \(String(decoding: bytes, as: UTF8.self))")
        }
        guard (try? encoder.encode(read)) == (try? encoder.encode(reference)) else {
            fatalError("the reader and JSONDecoder read a message differently: \(String(decoding: bytes, as: UTF8.self))")
        }
    }
    return 0
}

/// An object that names a key twice: RFC 8259 leaves its meaning open; the reader takes the last
/// (as JavaScript and Go do), JSONDecoder the first, so such messages are not compared. Called on
/// strict JSON only, so a mismatch here only says the value is not an object (or not an array).
func hasDuplicateKeys(_ bytes: [UInt8]) -> Bool {
    func walk(_ r: inout JSONReader) throws(JSONReader.Mismatch) -> Bool {
        var found = false
        var keys = Set<String>()
        do throws(JSONReader.Mismatch) {
            try r.object { key, r throws(JSONReader.Mismatch) in
                if !keys.insert(key.string ?? "").inserted { found = true }
                if try walk(&r) { found = true }
            }
            return found
        } catch {}
        do throws(JSONReader.Mismatch) {
            try r.array { r throws(JSONReader.Mismatch) in
                if try walk(&r) { found = true }
            }
            return found
        } catch {}
        try r.skip()
        return false
    }
    return (try? JSONReader.read(bytes) { r throws(JSONReader.Mismatch) in try walk(&r) }) ?? false
}
