#ifndef MTT_CMALLOC_SHIM_H
#define MTT_CMALLOC_SHIM_H

// glibc's allocator settings (mallopt), which the Glibc module does not bring in.
#include <malloc.h>

#endif
