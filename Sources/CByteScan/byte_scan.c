// See CByteScan.h. The plain loops are the whole definition where there is no SSE2; with it,
// every byte is looked at in blocks of sixteen.
#include "CByteScan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline int needs_escape(uint8_t byte) {
    return byte < 0x20 || byte == '"' || byte == '\\' || byte == 0x7F;
}

#if defined(__SSE2__)
/// One bit per byte of `block` that `cbytescan_json_escape` stops at.
static inline int escape_mask(__m128i block) {
    const __m128i highest_control = _mm_set1_epi8(0x1F);
    // Unsigned `byte <= 0x1F`: SSE2 compares bytes as signed, but max(byte, 0x1F) is 0x1F
    // exactly for those.
    __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(block, highest_control), highest_control);
    __m128i found = _mm_or_si128(_mm_or_si128(control, _mm_cmpeq_epi8(block, _mm_set1_epi8('"'))),
                                 _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8('\\')),
                                              _mm_cmpeq_epi8(block, _mm_set1_epi8(0x7F))));
    return _mm_movemask_epi8(found);
}

/// The last `count` (under 16) bytes as one block, the rest of it a byte no scan stops at
/// ('a': ASCII, and no JSON escape). Read past `count` is not allowed, so they are copied.
static inline __m128i short_block(const uint8_t *bytes, size_t count) {
    uint8_t padded[16];
    __builtin_memset(padded, 'a', sizeof padded);
    __builtin_memcpy(padded, bytes, count);
    return _mm_loadu_si128((const __m128i *)padded);
}
#endif

// The bytes after the last whole block of sixteen were looked at one at a time, some seven
// instructions a byte: a short string (a key, a field's value, a message line) and the end
// of every run between escapes paid up to fifteen of those. They are now one more block: the
// last sixteen bytes read again (those before `index` already found clean, so any bit set is
// past it), or, where there are fewer than sixteen in all, a padded copy of them. With
// `--format jsonl` (65,587 calls for 10,071 records of the 3 MB default mix) the scan went
// from 10.0 M instructions to 7.8 M, some 230 a record fewer (callgrind).
size_t cbytescan_json_escape(const uint8_t *bytes, size_t count) {
    size_t index = 0;
#if defined(__SSE2__)
    if (count < 16) {
        if (count == 0) return 0;
        int mask = escape_mask(short_block(bytes, count));
        return mask != 0 ? (size_t)__builtin_ctz((unsigned)mask) : count;
    }
    for (; index + 16 <= count; index += 16) {
        int mask = escape_mask(_mm_loadu_si128((const __m128i *)(bytes + index)));
        if (mask != 0) return index + (size_t)__builtin_ctz((unsigned)mask);
    }
    if (index < count) {
        int mask = escape_mask(_mm_loadu_si128((const __m128i *)(bytes + count - 16)));
        if (mask != 0) return count - 16 + (size_t)__builtin_ctz((unsigned)mask);
    }
    return count;
#else
    for (; index < count; index++) {
        if (needs_escape(bytes[index])) return index;
    }
    return count;
#endif
}

// The last bytes as `cbytescan_json_escape` takes them (see there).
size_t cbytescan_non_ascii(const uint8_t *bytes, size_t count) {
    size_t index = 0;
#if defined(__SSE2__)
    if (count < 16) {
        if (count == 0) return 0;
        int mask = _mm_movemask_epi8(short_block(bytes, count));
        return mask != 0 ? (size_t)__builtin_ctz((unsigned)mask) : count;
    }
    for (; index + 16 <= count; index += 16) {
        // The top bit of each byte, one bit per byte.
        int mask = _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(bytes + index)));
        if (mask != 0) return index + (size_t)__builtin_ctz((unsigned)mask);
    }
    if (index < count) {
        int mask = _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(bytes + count - 16)));
        if (mask != 0) return count - 16 + (size_t)__builtin_ctz((unsigned)mask);
    }
    return count;
#else
    for (; index < count; index++) {
        if (bytes[index] >= 0x80) return index;
    }
    return count;
#endif
}

/// `LooseMarkers.quickPair`, which the tests hold this to for every pair of bytes.
static inline int marker_pair(uint8_t first, uint8_t last) {
    return (first == 'C' && (last == 'a' || last == 't')) || (first == 'e' && last == 'r');
}

/// The colons of a block as bits, from `index` on, each checked for a marker's pair; the
/// offset of the first that passes, or `SIZE_MAX`.
static inline size_t first_marker_colon(const uint8_t *bytes, size_t index, unsigned mask) {
    while (mask != 0) {
        size_t at = index + (size_t)__builtin_ctz(mask);
        if (marker_pair(bytes[at - 8], bytes[at - 1])) return at;
        mask &= mask - 1;
    }
    return SIZE_MAX;
}

// Every line that starts no header, and every header line whose message starts with no
// marker, is searched for a marker near its start (`LooseMarkers.firstMarker`): colons found
// one memchr call at a time, each then checked in Swift, cost some 182 instructions a line that
// starts no header (callgrind, -q, one thread, ~420-byte records: three lines in four start
// none; they are short, some 60 bytes of window and one colon on average). Here the window is
// looked at sixteen bytes at a time and each colon's pair checked in place (164 a line, 87 once
// the Swift around it was called only at a colon that passes); the last bytes are the last
// sixteen read again, as in `cbytescan_json_escape`.
size_t cbytescan_marker_colon(const uint8_t *bytes, size_t start, size_t limit) {
    size_t index = start;
#if defined(__SSE2__)
    const __m128i colon = _mm_set1_epi8(':');
    for (; index + 16 <= limit; index += 16) {
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(bytes + index)), colon));
        if (mask != 0) {
            size_t found = first_marker_colon(bytes, index, mask);
            if (found != SIZE_MAX) return found;
        }
    }
    if (index < limit && limit >= 16) {
        // Lanes before `index` were looked at already.
        size_t block = limit - 16;
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(bytes + block)), colon));
        mask &= ~0u << (index - block);
        size_t found = first_marker_colon(bytes, block, mask & 0xFFFF);
        return found != SIZE_MAX ? found : limit;
    }
#endif
    for (; index < limit; index++) {
        if (bytes[index] == ':' && marker_pair(bytes[index - 8], bytes[index - 1])) return index;
    }
    return limit;
}
