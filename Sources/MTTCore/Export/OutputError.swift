import FoundationEssentials
import Glibc

/// Output that could not be written, in one line: `cannot write stdout: No space left on device`.
public struct OutputError: Error, CustomStringConvertible, Sendable {
    public var target: String
    public var code: Int32

    public init(target: String, errno code: Int32) {
        self.target = target
        self.code = code
    }

    /// The reader went away (`mtt collect | head -1`): a reason to stop, not a failure.
    public var isClosedPipe: Bool { code == EPIPE }

    public var description: String { "cannot write \(target): \(String(cString: strerror(code)))" }

    /// `write(2)` until every byte is out, through interruptions: the one loop for files, pipes and
    /// (blocking) sockets. mtt ignores SIGPIPE, so a closed reader shows here as EPIPE rather than
    /// killing the process mid-record; on a socket (`isSocket`) MSG_NOSIGNAL makes that so in any
    /// process, a test runner's too.
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32, target: String, isSocket: Bool = false) throws(OutputError) {
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = isSocket
                    ? Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                    : Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure != 0 { throw OutputError(target: target, errno: failure) }
    }
}
