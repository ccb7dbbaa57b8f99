#ifndef MTT_CGPS_SHIM_H
#define MTT_CGPS_SHIM_H

#if __has_include(<gps.h>)
#include <gps.h>
#else
#error "mtt needs the libgps headers: install libgps-dev (sudo apt-get install libgps-dev)"
#endif

#endif
