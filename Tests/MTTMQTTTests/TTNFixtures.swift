import Foundation
import MTTCore
import MTTMQTT
import TestSupport

enum TTNFixtures {
    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func own(_ name: String) throws -> [UInt8] {
        try bytes(FixtureFiles.own("ttn/\(name)"))
    }

    struct NotAnUplink: Error {}

    static func uplink(_ bytes: [UInt8], arrival: Timestamp = .now()) throws -> Uplink {
        guard case .uplink(let uplink) = try UplinkDecoder.decode(bytes, arrival: arrival) else { throw NotAnUplink() }
        return uplink
    }

    static func ns(_ text: String) -> Timestamp { RFC3339.parse(text)! }
}
