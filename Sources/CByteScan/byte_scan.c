// See CByteScan.h. The plain loops are the whole definition where there is no vector unit
// this file knows (or with CBYTESCAN_PORTABLE defined); with SSE2 (every x86-64) or AArch64's
// NEON (Apple silicon, arm64 Linux), every byte is looked at in blocks of sixteen, through the
// few block operations below, which each of the two defines. scripts/test-byte-scans holds
// every build (AVX2, SSE2 alone with CBYTESCAN_NO_AVX2, NEON under qemu, the plain loops) to
// reference loops in its test driver, on random and edge-case inputs.
#include "vector_blocks.h"

#if !defined(CBYTESCAN_BLOCKS)
static inline int needs_escape(uint8_t byte) {
    return byte < 0x20 || byte == '"' || byte == '\\' || byte == 0x7F;
}
#endif


/// `byte`'s JSON escape written at `out`, the letter of a two-byte one from a table; its length.
static inline size_t write_escape(uint8_t *out, uint8_t byte) {
    static const char hex[] = "0123456789abcdef";
    static const uint8_t letters[128] = {
        [0x08] = 'b', ['\t'] = 't', ['\n'] = 'n', [0x0C] = 'f', ['\r'] = 'r', ['"'] = '"', ['\\'] = '\\',
    };
    out[0] = '\\';
    uint8_t letter = letters[byte & 0x7F];
    if (letter != 0) { out[1] = letter; return 2; }
    out[1] = 'u';
    out[2] = '0';
    out[3] = '0';
    out[4] = (uint8_t)hex[byte >> 4];
    out[5] = (uint8_t)hex[byte & 0x0F];
    return 6;
}

// JSON Lines' strings, the record's text above all, were written by Swift around
// a scan (`cbytescan_json_escape`, gone) for each byte to escape, a copy (memcpy) of the run
// before it, the escape written in Swift, and a separate pass (`cbytescan_non_ascii`) to
// check the text was UTF-8 before any of it was written. Here one pass does it all: each
// block of sixteen is stored to the output whole, then the output moves on by the bytes
// that need no escape (all sixteen, nearly always); the blocks' top bits and `#`s are
// gathered on the way, so the UTF-8 check runs only for text that has a byte above 0x7F and
// the check for workflow commands only for a line that has a `#`. (The escape and the ASCII
// scans with the Swift around them cost some 1,870 instructions a ~420-byte record and 1,300
// a record of the default mix; this, with blocks of thirty-two where there is AVX2, 1,070 and
// 780. Callgrind, --format jsonl, one thread, 3 MB slices.)
static size_t json_write_16(uint8_t *out, const uint8_t *bytes, size_t count, unsigned *seen) {
    size_t in = 0, written = 0;
#if defined(CBYTESCAN_BLOCKS)
    block_t high = zero_block(), hashes = zero_block();
    // The output mirrors the input from `clean` on (`written - in` further on): no escape since.
    size_t clean = 0;
    while (in + 16 <= count) {
        size_t start = in;
        block_t block = load_block(bytes + in);
        store_block(out + written, block);
        high = or_blocks(high, block);
        hashes = or_blocks(hashes, lanes_equal(block, '#'));
        lanes_t mask = top_bits(escapes(block));
        // Each escape of the block from the one mask, the sixteen bytes after it stored after it.
        while (mask != 0) {
            size_t at = start + first_lane(mask);
            written += at - in;
            written += write_escape(out + written, bytes[at]);
            in = at + 1;
            clean = in;
            mask &= mask - 1;
            if (in + 16 > count) goto tail;
            store_block(out + written, load_block(bytes + in));
        }
        written += start + 16 - in;
        in = start + 16;
    }
tail:
    if (in < count && count >= 16 && count - 16 >= clean) {
        // The last sixteen bytes read as one block and written over the last sixteen written,
        // which are the same bytes as far as they overlap (those before `in`, already found
        // clean): no padded copy.
        size_t back = 16 - (count - in);
        block_t block = load_block(bytes + count - 16);
        store_block(out + written - back, block);
        high = or_blocks(high, block);
        hashes = or_blocks(hashes, lanes_equal(block, '#'));
        lanes_t mask = top_bits(escapes(block));
        if (mask == 0) {
            written += count - in;
            in = count;
        } else {
            size_t at = first_lane(mask) - back;
            in += at;
            written += at;
            written += write_escape(out + written, bytes[in]);
            in += 1;
        }
    }
    // Short texts and what follows an escape near the end: a padded copy as one block.
    while (in < count) {
        size_t rest = count - in;
        block_t block = short_block(bytes + in, rest);
        store_block(out + written, block);
        high = or_blocks(high, block);
        hashes = or_blocks(hashes, lanes_equal(block, '#'));
        lanes_t mask = top_bits(escapes(block));
        if (mask == 0) {
            written += rest;
            break;
        }
        size_t at = first_lane(mask);
        in += at;
        written += at;
        written += write_escape(out + written, bytes[in]);
        in += 1;
    }
    unsigned found = 0;
    if (top_bits(high) != 0) found |= CBYTESCAN_SEEN_NON_ASCII;
    if (top_bits(hashes) != 0) found |= CBYTESCAN_SEEN_HASH;
    *seen |= found;
#else
    unsigned found = 0;
    for (; in < count; in++) {
        uint8_t byte = bytes[in];
        if (byte >= 0x80) found |= CBYTESCAN_SEEN_NON_ASCII;
        if (byte == '#') found |= CBYTESCAN_SEEN_HASH;
        if (needs_escape(byte)) {
            written += write_escape(out + written, byte);
        } else {
            out[written++] = byte;
        }
    }
    *seen |= found;
#endif
    return written;
}

#if defined(CBYTESCAN_AVX2)
/// `top_bits(escapes(block))` for thirty-two bytes.
__attribute__((target("avx2")))
static inline unsigned escape_mask_32(__m256i block) {
    const __m256i highest_control = _mm256_set1_epi8(0x1F);
    __m256i control = _mm256_cmpeq_epi8(_mm256_max_epu8(block, highest_control), highest_control);
    __m256i found = _mm256_or_si256(_mm256_or_si256(control, _mm256_cmpeq_epi8(block, _mm256_set1_epi8('"'))),
                                    _mm256_or_si256(_mm256_cmpeq_epi8(block, _mm256_set1_epi8('\\')),
                                                    _mm256_cmpeq_epi8(block, _mm256_set1_epi8(0x7F))));
    return (unsigned)_mm256_movemask_epi8(found);
}

/// `json_write_16` thirty-two bytes a step, where the processor has AVX2: a block costs
/// about what a block of sixteen did, and a record's text is mostly whole blocks (the strings
/// of a ~420-byte record: 1,470 instructions with blocks of sixteen alone, 1,030 with these).
/// What is left after the last whole block and an escape in it goes to `json_write_16`.
__attribute__((target("avx2")))
static size_t json_write_32(uint8_t *out, const uint8_t *bytes, size_t count, unsigned *seen) {
    size_t in = 0, written = 0;
    const __m256i hash = _mm256_set1_epi8('#');
    __m256i high = _mm256_setzero_si256(), hashes = _mm256_setzero_si256();
    // As in `json_write_16`: the output mirrors the input from `clean` on.
    size_t clean = 0;
    while (in + 32 <= count) {
        size_t start = in;
        __m256i block = _mm256_loadu_si256((const __m256i *)(bytes + in));
        _mm256_storeu_si256((__m256i *)(out + written), block);
        high = _mm256_or_si256(high, block);
        hashes = _mm256_or_si256(hashes, _mm256_cmpeq_epi8(block, hash));
        unsigned mask = escape_mask_32(block);
        while (mask != 0) {
            size_t at = start + (size_t)__builtin_ctz(mask);
            written += at - in;
            written += write_escape(out + written, bytes[at]);
            in = at + 1;
            clean = in;
            mask &= mask - 1;
            if (in + 32 > count) goto tail;
            _mm256_storeu_si256((__m256i *)(out + written), _mm256_loadu_si256((const __m256i *)(bytes + in)));
        }
        written += start + 32 - in;
        in = start + 32;
    }
tail:
    if (in < count && count - 32 >= clean) {
        // As in `json_write_16`: the last thirty-two bytes over the last thirty-two written.
        size_t back = 32 - (count - in);
        __m256i block = _mm256_loadu_si256((const __m256i *)(bytes + count - 32));
        _mm256_storeu_si256((__m256i *)(out + written - back), block);
        high = _mm256_or_si256(high, block);
        hashes = _mm256_or_si256(hashes, _mm256_cmpeq_epi8(block, hash));
        unsigned mask = escape_mask_32(block);
        if (mask == 0) {
            written += count - in;
            in = count;
        } else {
            size_t at = (size_t)__builtin_ctz(mask) - back;
            in += at;
            written += at;
            written += write_escape(out + written, bytes[in]);
            in += 1;
        }
    }
    unsigned found = 0;
    if (_mm256_movemask_epi8(high) != 0) found |= CBYTESCAN_SEEN_NON_ASCII;
    if (_mm256_movemask_epi8(hashes) != 0) found |= CBYTESCAN_SEEN_HASH;
    *seen |= found;
    if (in < count) written += json_write_16(out + written, bytes + in, count - in, seen);
    return written;
}
#endif

size_t cbytescan_json_write(uint8_t *out, const uint8_t *bytes, size_t count, unsigned *seen) {
#if defined(CBYTESCAN_AVX2)
    // Short texts (a field, a key) have no whole block of thirty-two to gain on.
    if (count >= 32 && uses_avx2()) return json_write_32(out, bytes, count, seen);
#endif
    return json_write_16(out, bytes, count, seen);
}

size_t cbytescan_json_write_narrow(uint8_t *out, const uint8_t *bytes, size_t count, unsigned *seen) {
    return json_write_16(out, bytes, count, seen);
}

// The bytes after the last whole block of sixteen, looked at one at a time, cost some seven
// instructions a byte; they are one more block: the last sixteen bytes read again (those
// before `index` already found clean, so any bit set is past it), or, where there are fewer
// than sixteen in all, a padded copy of them.
size_t cbytescan_non_ascii(const uint8_t *bytes, size_t count) {
    size_t index = 0;
#if defined(CBYTESCAN_BLOCKS)
    if (count < 16) {
        if (count == 0) return 0;
        lanes_t mask = top_bits(short_block(bytes, count));
        return mask != 0 ? first_lane(mask) : count;
    }
    for (; index + 16 <= count; index += 16) {
        lanes_t mask = top_bits(load_block(bytes + index));
        if (mask != 0) return index + first_lane(mask);
    }
    if (index < count) {
        lanes_t mask = top_bits(load_block(bytes + count - 16));
        if (mask != 0) return count - 16 + first_lane(mask);
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
    return (first == 'C' && (last == 'a' || last == 't')) || (first == 'e' && last == 'r') || (first == 'o' && last == 'a');
}

#if defined(CBYTESCAN_BLOCKS)
/// The colons of a block as lanes, from `index` on, each checked for a marker's pair; the
/// offset of the first that passes, or `SIZE_MAX`.
static inline size_t first_marker_colon(const uint8_t *bytes, size_t index, lanes_t mask) {
    while (mask != 0) {
        size_t at = index + first_lane(mask);
        if (marker_pair(bytes[at - 8], bytes[at - 1])) return at;
        mask &= mask - 1;
    }
    return SIZE_MAX;
}
#endif

// Every line that starts no header, and every header line whose message starts with no
// marker, is searched for a marker near its start (`LooseMarkers.firstMarker`): colons found
// one memchr call at a time, each then checked in Swift, cost some 182 instructions a line that
// starts no header (callgrind, -q, one thread, ~420-byte records: three lines in four start
// none; they are short, some 60 bytes of window and one colon on average). Here the window is
// looked at sixteen bytes at a time and each colon's pair checked in place (164 a line, 87 once
// the Swift around it was called only at a colon that passes); the last bytes are the last
// sixteen read again, as in `cbytescan_non_ascii`.
size_t cbytescan_marker_colon(const uint8_t *bytes, size_t start, size_t limit) {
    size_t index = start;
#if defined(CBYTESCAN_BLOCKS)
    for (; index + 16 <= limit; index += 16) {
        lanes_t mask = top_bits(lanes_equal(load_block(bytes + index), ':'));
        if (mask != 0) {
            size_t found = first_marker_colon(bytes, index, mask);
            if (found != SIZE_MAX) return found;
        }
    }
    if (index < limit && limit >= 16) {
        // Lanes before `index` were looked at already (`index - block` is 1 to 15).
        size_t block = limit - 16;
        lanes_t mask = top_bits(lanes_equal(load_block(bytes + block), ':'));
        mask &= ALL_LANES << (LANE_BITS * (index - block));
        size_t found = first_marker_colon(bytes, block, mask);
        return found != SIZE_MAX ? found : limit;
    }
#endif
    for (; index < limit; index++) {
        if (bytes[index] == ':' && marker_pair(bytes[index - 8], bytes[index - 1])) return index;
    }
    return limit;
}
