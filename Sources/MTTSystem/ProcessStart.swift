import CMalloc
import Glibc

/// What every mtt process sets up before it does anything else: the C library's settings.
public enum ProcessStart {
    public static func prepare() {
        // glibc gives each thread that allocates an arena of its own, up to 8 per core, and keeps
        // their freed pages: a listener burst left about 1 MB more resident with the default than
        // with two arenas, at the same speed (scripts/load). mtt has a handful of threads.
        mallopt(M_ARENA_MAX, 2)
        // Fixed thresholds, not glibc's sliding ones: once a large block was freed, glibc raised
        // both to its size, so later large blocks came from the heap and their freed pages stayed.
        // The listener burst of 200,000 uplinks: 9.5-9.8 MB of heap and anonymous pages at the
        // end without, 7.5-7.8 MB with (scripts/load).
        mallopt(M_MMAP_THRESHOLD, 128 * 1024)
        mallopt(M_TRIM_THRESHOLD, 128 * 1024)
        // Stop requests are taken by a thread of their own, whatever the parent left blocked
        // (test runners block SIGTERM): see `StopSignals`.
        StopSignals.takeOver()
        // A reader that goes away (`mtt collect | head -1`) must not kill mtt between two writes
        // of a record: the write fails with EPIPE instead, and the command ends cleanly.
        signal(SIGPIPE, SIG_IGN)
        // A file-size limit (`ulimit -f`) makes a write fail with EFBIG, said and cleaned up,
        // instead of killing mtt without a word halfway through a report.
        signal(SIGXFSZ, SIG_IGN)
    }
}
