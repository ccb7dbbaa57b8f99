#ifndef MTT_CSQLITE_SHIM_H
#define MTT_CSQLITE_SHIM_H

#if __has_include(<sqlite3.h>)
#include <sqlite3.h>
#else
#error "mtt needs the SQLite headers: install libsqlite3-dev (sudo apt-get install libsqlite3-dev)"
#endif

// sqlite3_config is variadic, which Swift cannot call: one function per setting mtt makes.
// Both only take effect before SQLite initialises (the first database opened in the process).

/// Connections without a mutex of their own unless opened with SQLITE_OPEN_FULLMUTEX.
static inline int mtt_sqlite3_config_multithread(void) {
    return sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
}

/// Whether SQLite counts its memory use, under a global mutex on every allocation.
static inline int mtt_sqlite3_config_memstatus(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}

#endif
