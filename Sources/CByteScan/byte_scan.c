// See CByteScan.h. The loops after the vector ones finish the last bytes and are, alone, the
// whole definition where there is no SSE2.
#include "CByteScan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline int needs_escape(uint8_t byte) {
    return byte < 0x20 || byte == '"' || byte == '\\' || byte == 0x7F;
}

size_t cbytescan_json_escape(const uint8_t *bytes, size_t count) {
    size_t index = 0;
#if defined(__SSE2__)
    const __m128i highest_control = _mm_set1_epi8(0x1F);
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i del = _mm_set1_epi8(0x7F);
    for (; index + 16 <= count; index += 16) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + index));
        // Unsigned `byte <= 0x1F`: SSE2 compares bytes as signed, but max(byte, 0x1F) is 0x1F
        // exactly for those.
        __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(block, highest_control), highest_control);
        __m128i found = _mm_or_si128(_mm_or_si128(control, _mm_cmpeq_epi8(block, quote)),
                                     _mm_or_si128(_mm_cmpeq_epi8(block, backslash), _mm_cmpeq_epi8(block, del)));
        int mask = _mm_movemask_epi8(found);
        if (mask != 0) return index + (size_t)__builtin_ctz((unsigned)mask);
    }
#endif
    for (; index < count; index++) {
        if (needs_escape(bytes[index])) return index;
    }
    return count;
}

size_t cbytescan_non_ascii(const uint8_t *bytes, size_t count) {
    size_t index = 0;
#if defined(__SSE2__)
    for (; index + 16 <= count; index += 16) {
        // The top bit of each byte, one bit per byte.
        int mask = _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(bytes + index)));
        if (mask != 0) return index + (size_t)__builtin_ctz((unsigned)mask);
    }
#endif
    for (; index < count; index++) {
        if (bytes[index] >= 0x80) return index;
    }
    return count;
}
