#ifndef MTT_CSPAWN_SHIM_H
#define MTT_CSPAWN_SHIM_H

#include <spawn.h>

// glibc 2.34 and later (Debian 12, Ubuntu 22.04, Raspberry Pi OS bookworm) have it, but declare it
// only under _GNU_SOURCE, which the Glibc module is built without.
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

#endif
