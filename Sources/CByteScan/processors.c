// How many processors this process may run on. Linux lets a process be held to some CPUs
// (`taskset`, a container's cpuset) and says which through sched_getaffinity, which Swift's
// Glibc module does not import (it needs _GNU_SOURCE); elsewhere the online processors.
#if defined(__linux__)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#endif
#include <unistd.h>

#include "CByteScan.h"

int cbytescan_usable_processors(void) {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int count = CPU_COUNT(&set);
        if (count > 0) return count;
    }
#endif
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)online : 1;
}
