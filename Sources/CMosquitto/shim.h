#ifndef MTT_CMOSQUITTO_SHIM_H
#define MTT_CMOSQUITTO_SHIM_H

#if __has_include(<mosquitto.h>)
#include <mosquitto.h>
#else
#error "mtt needs the libmosquitto headers: install libmosquitto-dev (sudo apt-get install libmosquitto-dev)"
#endif

#endif
