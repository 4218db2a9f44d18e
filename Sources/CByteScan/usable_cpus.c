// How many CPUs may run the process: sched_getaffinity is a GNU extension that Swift's Glibc
// module does not show, so it is read here.
#if defined(__linux__)
#define _GNU_SOURCE
#include <sched.h>
#endif
#include <unistd.h>
#include "CByteScan.h"

int cbytescan_usable_cpus(void) {
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
