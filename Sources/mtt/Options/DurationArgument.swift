import ArgumentParser

/// A length of time on the command line: `500ms`, `90s`, `10m`, `2h`, or plain seconds.
struct DurationArgument: ExpressibleByArgument, Hashable, CustomStringConvertible {
    var seconds: Double

    init(seconds: Double) {
        self.seconds = seconds
    }

    init?(argument: String) {
        let units: [(suffix: String, factor: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for unit in units where argument.hasSuffix(unit.suffix) {
            if let value = Double(argument.dropLast(unit.suffix.count)), value >= 0, value.isFinite {
                self.seconds = value * unit.factor
                return
            }
        }
        guard let value = Double(argument), value >= 0, value.isFinite else { return nil }
        self.seconds = value
    }

    var description: String {
        seconds.plainText + "s"
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
