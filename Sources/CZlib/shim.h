// zlib, for reading .gz logs directly. Nothing else.
#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>

// inflateInit2 is a macro (it passes zlib's version and the struct's size), which Swift cannot
// import. 15 + 16: the largest window, and a gzip header and trailer around each member.
static inline int czlib_inflate_init_gzip(z_streamp stream) { return inflateInit2(stream, 15 + 16); }
#endif
