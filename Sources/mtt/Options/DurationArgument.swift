import ArgumentParser
import MTTCore

/// A length of time on the command line: `500ms`, `90s`, `10m`, `2h`, `2d`, or plain seconds. A negative
/// one, or one longer than 100 years, is read (so the command can say what is wrong with it) and
/// refused by the command's checks or the configuration's.
struct DurationArgument: ExpressibleByArgument, Hashable, CustomStringConvertible {
    var seconds: Double

    init(seconds: Double) {
        self.seconds = seconds
    }

    init?(argument: String) {
        do {
            seconds = try DurationText.parse(argument)
        } catch {
            // Too long to be meant becomes infinite here, which every check refuses by name.
            guard error.isTooLong else { return nil }
            seconds = .infinity
        }
    }

    /// Throws the usage error for a length that must be above 0 (or at least 0).
    func check(_ option: String, allowingZero: Bool = false) throws {
        guard seconds.isFinite else { throw ValidationError("\(option) takes a length of time up to 100 years") }
        guard allowingZero ? seconds >= 0 : seconds > 0 else {
            throw ValidationError("\(option) takes a length of time \(allowingZero ? "of 0 or more" : "above 0"), such as 90s, 10m or 2h")
        }
    }

    var description: String {
        seconds.plainText + "s"
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
