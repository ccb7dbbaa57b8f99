import FuzzDriver
import MTTCore

/// Times and lengths of time as users write them (`--since`, `--duration`, `[fetch] since`, the
/// map's `?since=`) and as servers send them: no text may crash a parser (999999999999d used to
/// overflow), and every time read back must print as it reads.
@main
enum Fuzzer {
    static func main() { runFuzzer(fuzzOne) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
    let now = Timestamp(nanosecondsSinceEpoch: 1_782_000_000_000_000_000)
    if let seconds = DurationText.seconds(text), abs(seconds) > DurationText.longest {
        fatalError("a length of time beyond the limit was taken: \(text)")
    }
    _ = try? SinceText.parse(text, now: now)
    var filter = ExportFilter()
    _ = try? filter.setWindow(since: text, until: text, now: now)
    if let time = RFC3339.parse(text) {
        let printed = RFC3339.string(time, fractionDigits: 9)
        guard RFC3339.parse(printed) == time else { fatalError("\(text) read as \(printed), which reads differently") }
    }
    _ = RFC3339.isOutOfRange(text)
    return 0
}
