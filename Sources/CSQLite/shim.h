#ifndef MTT_CSQLITE_SHIM_H
#define MTT_CSQLITE_SHIM_H

#if __has_include(<sqlite3.h>)
#include <sqlite3.h>
#else
#error "mtt needs the SQLite headers: install libsqlite3-dev (sudo apt-get install libsqlite3-dev)"
#endif

#endif
