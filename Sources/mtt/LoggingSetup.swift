import Foundation
import Logging
import MTTSystem

/// Log lines go to stderr so stdout stays clean for `--json` output; `MTT_LOG_LEVEL` sets the level.
/// When stderr is the systemd journal, each line carries its priority (`<4>`) and no timestamp:
/// the journal keeps both.
enum LoggingSetup {
    static func bootstrap() {
        let level = ProcessInfo.processInfo.environment["MTT_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        let journal = JournalStream.isStandardError
        LoggingSystem.bootstrap { label in
            if journal {
                var handler = JournalLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}

/// One line per message on stderr as journald reads it: `<priority>label: message`.
struct JournalLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let priority = switch event.level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
        StandardOutput.writeError("<\(priority)>\(label): \(event.message)\n")
    }
}
