import Glibc
import MTTCore
import Testing

/// A descriptor let go while another thread may still use it: the other end sees it closed at once,
/// but its number is not handed to the next file opened until the owner is gone (a modem
/// emulator's late reply went into an HTTP connection opened meanwhile).
@Suite("A descriptor let go under a thread still using it")
struct SharedDescriptorTests {
    func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    @Test func theOtherEndSeesItClosedButTheNumberStaysTakenWhileTheOwnerLives() throws {
        let (mine, peer) = try socketPair()
        defer { close(peer) }
        var shared: SharedDescriptor? = SharedDescriptor(taking: mine)
        #expect(shared?.release() == true)
        #expect(shared?.release() == false)
        #expect(shared?.isReleased == true)

        var byte: UInt8 = 0
        #expect(read(peer, &byte, 1) == 0, "the peer sees end of file as after a close")
        // A thread that had not noticed yet: its read ends, its write goes nowhere.
        #expect(read(mine, &byte, 1) == 0)
        #expect(write(mine, "late", 4) == 4)

        // Files opened meanwhile get other numbers.
        var pipeEnds: [Int32] = [0, 0]
        try #require(pipe(&pipeEnds) == 0)
        defer { pipeEnds.forEach { close($0) } }
        #expect(!pipeEnds.contains(mine))
        #expect(fcntl(mine, F_GETFD) != -1)
        // (Whether the number is closed once the owner is gone cannot be asked here: tests run
        // side by side in this process, and another may have been handed the number already.)
        shared = nil
    }

    @Test func aDescriptorNeverReleasedIsClosedWithItsOwner() throws {
        let (mine, peer) = try socketPair()
        defer { close(peer) }
        var shared: SharedDescriptor? = SharedDescriptor(taking: mine)
        #expect(shared?.isReleased == false)
        shared = nil
        var byte: UInt8 = 0
        #expect(read(peer, &byte, 1) == 0, "the owner gone, the peer sees end of file")
    }
}
