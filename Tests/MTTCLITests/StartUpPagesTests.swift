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
        // Above every library and below the stack, so that its line comes late in the maps file:
        // where the libraries end is where address-space randomization put them this time (a
        // fixed 0x7ff000000000 was below them in one run).
        let address = try Self.aboveTheLibraries(room: size)
        let wanted = UnsafeMutableRawPointer(bitPattern: address)
        let mapped = mmap(wanted, size, PROT_READ, MAP_PRIVATE | MAP_FIXED_NOREPLACE, fd, 0)
        try #require(mapped != MAP_FAILED && mapped == wanted, "could not map at \(String(address, radix: 16))")
        let start = String(address, radix: 16) + "-"
        defer { munmap(mapped, size) }
        var sum = 0
        for offset in stride(from: 0, to: size, by: 4096) { sum &+= Int(mapped!.load(fromByteOffset: offset, as: UInt8.self)) }
        #expect(sum == 7 * (size / 4096))

        let maps = try Self.mapsText()
        let line = try #require(maps.range(of: "\n" + start), "the mapping is not in /proc/self/maps")
        #expect(maps.utf8.distance(from: maps.startIndex, to: line.lowerBound) > 4096,
                "the mapping's line must lie past the maps file's first page for this test to mean anything")
        #expect(try Self.residentKB(of: start) == size / 1024)

        StartUpPages.release()
        #expect(try Self.residentKB(of: start) < size / 1024 / 4)
    }

    /// A page-aligned address `room` bytes free, 64 MiB above the highest mapping below the stack.
    static func aboveTheLibraries(room: Int) throws -> UInt {
        var highest: UInt = 0, stack: UInt = .max
        for line in try mapsText().split(separator: "\n") {
            let range = line.prefix { $0 != " " }.split(separator: "-").compactMap { UInt($0, radix: 16) }
            guard range.count == 2 else { continue }
            if line.hasSuffix("[stack]") { stack = range[0]; continue }
            if line.hasSuffix("[vvar]") || line.hasSuffix("[vdso]") || line.hasSuffix("[vsyscall]") { continue }
            if range[1] < stack { highest = max(highest, range[1]) }
        }
        let address = (highest + (64 << 20)) & ~UInt(0xFFFF)
        try #require(address + UInt(room) < stack, "no room between the libraries and the stack")
        return address
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
