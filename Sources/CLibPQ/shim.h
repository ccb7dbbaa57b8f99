#ifndef MTT_CLIBPQ_SHIM_H
#define MTT_CLIBPQ_SHIM_H

#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#elif __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#error "mtt needs the libpq headers: install libpq-dev (sudo apt-get install libpq-dev)"
#endif

#endif
