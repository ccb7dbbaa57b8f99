import FuzzDriver
import MTTGPS

/// NMEA from a GPS or a capture file: every line through the sentence parser and the assembler.
@main
enum Fuzzer {
    static func main() { runFuzzer(fuzzOne) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    var assembler = NMEAFixAssembler(source: "fuzz", today: { 20_000 })
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
        _ = try? NMEASentence(line: line)
        _ = assembler.consume(line: line)
    }
    _ = assembler.finish()
    return 0
}
