// Byte scans that Swift's SIMD types do not compile to vector instructions (on Linux they
// come out as one comparison per lane, slower than the eight-byte bit tricks they would
// replace). Each has a plain C loop as its definition and, where the compiler targets SSE2
// (every x86-64), a version that looks at sixteen bytes per step.
#ifndef CBYTESCAN_H
#define CBYTESCAN_H

#include <stddef.h>
#include <stdint.h>

/// The offset of the first byte in `bytes[0..<count]` that a JSON string must escape (below
/// 0x20, `"`, `\`) or that parselogs escapes (DEL, 0x7F); `count` when there is none.
size_t cbytescan_json_escape(const uint8_t *bytes, size_t count);

/// The offset of the first byte in `bytes[0..<count]` at or above 0x80 (the first that is
/// not ASCII); `count` when there is none.
size_t cbytescan_non_ascii(const uint8_t *bytes, size_t count);

/// The offset of the first colon in `bytes[start..<limit]` whose byte eight before it and
/// byte right before it may end a marker's first word (`LooseMarkers.quickPair`: `C`…`a`,
/// `C`…`t`, `e`…`r`); `limit` when there is none. `start` is at least 8: the byte eight
/// before each colon looked at is read.
size_t cbytescan_marker_colon(const uint8_t *bytes, size_t start, size_t limit);

#endif
