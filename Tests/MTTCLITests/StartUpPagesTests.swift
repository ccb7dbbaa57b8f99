import Foundation
import Glibc
import MTTSystem
import TestSupport
import Testing

/// `StartUpPages.release()` gives back the pages of every read-only file mapping, however long
/// /proc/self/maps is. (It once read only that file's first 4 KiB: the binary's own mappings, and
/// none of the libraries after them.)
@Suite("Start-up pages")
struct StartUpPagesTests {
    @Test func aMappingPastTheFirstPageOfTheMapsFileIsReleased() throws {
        let folder = TemporaryDirectory("mtt-pages")
        let size = 4 << 20
        let path = folder.file("mapped")
        try Data(repeating: 7, count: size).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        // Above every library and below the stack, so that its line comes late in the maps file.
        let wanted = UnsafeMutableRawPointer(bitPattern: 0x7ff0_0000_0000)
        let mapped = mmap(wanted, size, PROT_READ, MAP_PRIVATE | MAP_FIXED_NOREPLACE, fd, 0)
        try #require(mapped != MAP_FAILED && mapped == wanted, "could not map at 0x7ff000000000")
        defer { munmap(mapped, size) }
        var sum = 0
        for offset in stride(from: 0, to: size, by: 4096) { sum &+= Int(mapped!.load(fromByteOffset: offset, as: UInt8.self)) }
        #expect(sum == 7 * (size / 4096))

        let maps = try Self.mapsText()
        let line = try #require(maps.range(of: "7ff000000000-"), "the mapping is not in /proc/self/maps")
        #expect(maps.utf8.distance(from: maps.startIndex, to: line.lowerBound) > 4096,
                "the mapping's line must lie past the maps file's first page for this test to mean anything")
        #expect(try Self.residentKB(of: "7ff000000000-") == size / 1024)

        StartUpPages.release()
        #expect(try Self.residentKB(of: "7ff000000000-") < size / 1024 / 4)
    }

    /// The whole maps file, read by another process (a read of our own could stop short too).
    static func mapsText() throws -> String {
        try ChildProcess.runBlocking("/bin/cat", ["/proc/\(getpid())/maps"]).stdout
    }

    /// The resident kilobytes of the mapping whose smaps header starts with `start`.
    static func residentKB(of start: String) throws -> Int {
        let smaps = try ChildProcess.runBlocking("/bin/cat", ["/proc/\(getpid())/smaps"]).stdout
        let lines = smaps.split(separator: "\n")
        guard let header = lines.firstIndex(where: { $0.hasPrefix(start) }),
              let rss = lines[header...].first(where: { $0.hasPrefix("Rss:") }) else { return -1 }
        return Int(rss.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? -1
    }
}
