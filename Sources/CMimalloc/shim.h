// mimalloc, the memory allocator the executable runs on (see Package.swift). Nothing else.
#ifndef CMIMALLOC_SHIM_H
#define CMIMALLOC_SHIM_H
#include <mimalloc.h>
#endif
