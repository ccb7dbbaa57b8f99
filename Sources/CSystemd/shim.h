#ifndef MTT_CSYSTEMD_SHIM_H
#define MTT_CSYSTEMD_SHIM_H

#if __has_include(<systemd/sd-daemon.h>)
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#else
#error "mtt needs the libsystemd headers: install libsystemd-dev (sudo apt-get install libsystemd-dev)"
#endif

#endif
