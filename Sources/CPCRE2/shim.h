// Makes PCRE2's 8-bit API importable into Swift: fixes the code unit width before the
// header is read, and wraps the macros Swift cannot import as inline functions.
#ifndef CPCRE2_SHIM_H
#define CPCRE2_SHIM_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

static inline PCRE2_SIZE cpcre2_zero_terminated(void) { return PCRE2_ZERO_TERMINATED; }
static inline PCRE2_SIZE cpcre2_unset(void) { return PCRE2_UNSET; }

#endif
