import Foundation
import Logging

/// Log lines go to stderr so stdout stays clean for `--json` output; `MTT_LOG_LEVEL` sets the level.
enum LoggingSetup {
    static func bootstrap() {
        let level = ProcessInfo.processInfo.environment["MTT_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
