// See CByteScan.h. The plain loops are the whole definition where there is no vector unit
// this file knows (or with CBYTESCAN_PORTABLE defined); with SSE2 (every x86-64) or AArch64's
// NEON (Apple silicon, arm64 Linux), every byte is looked at in blocks of sixteen, through the
// few block operations below, which each of the two defines. scripts/test-byte-scans holds
// every build (AVX2, SSE2 alone with CBYTESCAN_NO_AVX2, NEON under qemu, the plain loops) to
// reference loops in its test driver, on random and edge-case inputs.
#include "CByteScan.h"
#include <string.h>

#if !defined(CBYTESCAN_PORTABLE) && defined(__SSE2__)
#define CBYTESCAN_SSE2 1
#include <emmintrin.h>
#elif !defined(CBYTESCAN_PORTABLE) && defined(__ARM_NEON) && defined(__aarch64__)
#define CBYTESCAN_NEON 1
#include <arm_neon.h>
#endif
#if defined(CBYTESCAN_SSE2) && !defined(CBYTESCAN_NO_AVX2) && defined(__x86_64__) && defined(__clang__)
#include <cpuid.h>
#include <immintrin.h>
#define CBYTESCAN_AVX2 1
#endif
#if defined(CBYTESCAN_SSE2) || defined(CBYTESCAN_NEON)
#define CBYTESCAN_BLOCKS 1
#endif

#if !defined(CBYTESCAN_BLOCKS)
static inline int needs_escape(uint8_t byte) {
    return byte < 0x20 || byte == '"' || byte == '\\' || byte == 0x7F;
}
#endif

// A block is sixteen bytes in a vector register. `lanes_t` holds a mask of a block's lanes
// (bytes), the first lane's bits lowest: `first_lane` is the index of the lowest lane set,
// `mask &= mask - 1` clears that lane, and `LANE_BITS` is how many bits a lane takes.
#if defined(CBYTESCAN_SSE2)
typedef __m128i block_t;
/// One bit a lane (`_mm_movemask_epi8`).
typedef unsigned lanes_t;
#define LANE_BITS 1
#define ALL_LANES 0xFFFFu

static inline block_t load_block(const uint8_t *bytes) { return _mm_loadu_si128((const __m128i *)bytes); }
static inline void store_block(uint8_t *out, block_t block) { _mm_storeu_si128((__m128i *)out, block); }
static inline block_t zero_block(void) { return _mm_setzero_si128(); }
static inline block_t or_blocks(block_t a, block_t b) { return _mm_or_si128(a, b); }
/// All ones in each lane equal to `byte`, zeros elsewhere.
static inline block_t lanes_equal(block_t block, uint8_t byte) { return _mm_cmpeq_epi8(block, _mm_set1_epi8((char)byte)); }
/// The lanes whose top bit is set: a comparison's lanes that hold, or bytes at or above 0x80.
static inline lanes_t top_bits(block_t block) { return (lanes_t)_mm_movemask_epi8(block); }
static inline size_t first_lane(lanes_t mask) { return (size_t)__builtin_ctz(mask); }

/// All ones in each lane that a JSON string escapes (`cbytescan_json_write`).
static inline block_t escapes(block_t block) {
    const __m128i highest_control = _mm_set1_epi8(0x1F);
    // Unsigned `byte <= 0x1F`: SSE2 compares bytes as signed, but max(byte, 0x1F) is 0x1F
    // exactly for those.
    __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(block, highest_control), highest_control);
    return _mm_or_si128(_mm_or_si128(control, _mm_cmpeq_epi8(block, _mm_set1_epi8('"'))),
                        _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8('\\')),
                                     _mm_cmpeq_epi8(block, _mm_set1_epi8(0x7F))));
}
#elif defined(CBYTESCAN_NEON)
typedef uint8x16_t block_t;
/// Four bits a lane, of which only the highest is kept, so that clearing the lowest bit set
/// clears its lane. NEON has no movemask: each sixteen-bit pair of lanes shifted right by
/// four and narrowed to eight bits (`vshrn_n_u16`) keeps four bits of each lane, in order.
typedef uint64_t lanes_t;
#define LANE_BITS 4
#define ALL_LANES UINT64_MAX

static inline block_t load_block(const uint8_t *bytes) { return vld1q_u8(bytes); }
static inline void store_block(uint8_t *out, block_t block) { vst1q_u8(out, block); }
static inline block_t zero_block(void) { return vdupq_n_u8(0); }
static inline block_t or_blocks(block_t a, block_t b) { return vorrq_u8(a, b); }
/// All ones in each lane equal to `byte`, zeros elsewhere.
static inline block_t lanes_equal(block_t block, uint8_t byte) { return vceqq_u8(block, vdupq_n_u8(byte)); }
/// The lanes whose top bit is set: a comparison's lanes that hold, or bytes at or above 0x80.
static inline lanes_t top_bits(block_t block) {
    // Each lane's top bit copied over the lane (an arithmetic shift), then four bits a lane.
    uint8x16_t spread = vreinterpretq_u8_s8(vshrq_n_s8(vreinterpretq_s8_u8(block), 7));
    uint8x8_t narrowed = vshrn_n_u16(vreinterpretq_u16_u8(spread), 4);
    return vget_lane_u64(vreinterpret_u64_u8(narrowed), 0) & 0x8888888888888888ull;
}
static inline size_t first_lane(lanes_t mask) { return (size_t)__builtin_ctzll(mask) >> 2; }

/// All ones in each lane that a JSON string escapes (`cbytescan_json_write`).
static inline block_t escapes(block_t block) {
    uint8x16_t control = vcleq_u8(block, vdupq_n_u8(0x1F));
    return vorrq_u8(vorrq_u8(control, vceqq_u8(block, vdupq_n_u8('"'))),
                    vorrq_u8(vceqq_u8(block, vdupq_n_u8('\\')), vceqq_u8(block, vdupq_n_u8(0x7F))));
}
#endif

#if defined(CBYTESCAN_BLOCKS)
/// The last `count` (under 16) bytes as one block, the rest of it a byte no scan stops at
/// ('a': ASCII, and no JSON escape). Read past `count` is not allowed, so they are copied.
static inline block_t short_block(const uint8_t *bytes, size_t count) {
    uint8_t padded[16];
    __builtin_memset(padded, 'a', sizeof padded);
    __builtin_memcpy(padded, bytes, count);
    return load_block(padded);
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

/// Whether the processor and the system (which saves the wide registers) allow AVX2.
static int has_avx2(void) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    // OSXSAVE and AVX, then the system's XCR0 keeping both SSE and AVX state.
    if ((ecx & (1u << 27)) == 0 || (ecx & (1u << 28)) == 0) return 0;
    unsigned xcr0_low, xcr0_high;
    __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 6u) != 6u) return 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    return (ebx & (1u << 5)) != 0;
}
#endif

size_t cbytescan_json_write(uint8_t *out, const uint8_t *bytes, size_t count, unsigned *seen) {
#if defined(CBYTESCAN_AVX2)
    // Decided on the first call: 1 without AVX2, 2 with. A race between threads on the first
    // calls only decides the same thing twice.
    static int level = 0;
    int known = __atomic_load_n(&level, __ATOMIC_RELAXED);
    if (known == 0) {
        known = has_avx2() ? 2 : 1;
        __atomic_store_n(&level, known, __ATOMIC_RELAXED);
    }
    // Short texts (a field, a key) have no whole block of thirty-two to gain on.
    if (known == 2 && count >= 32) return json_write_32(out, bytes, count, seen);
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

/// The texts at `q` whose anchor byte is `subject[q]`, each of a slot not yet found: their
/// slots' bits added to `present`. The byte after `q` is looked at first: where no text has
/// this pair of bytes at its anchor, none of them stands at `q`.
static inline uint64_t required_at(const uint8_t *subject, size_t count, size_t q, const cbytescan_required_texts *t,
                                   uint64_t present) {
    if (q + 1 < count) {
        unsigned pair = (unsigned)subject[q] << 8 | subject[q + 1];
        if ((t->pair_bits[pair >> 3] & (1u << (pair & 7))) == 0) return present;
    }
    for (int32_t text = t->first_by_byte[subject[q]]; text >= 0; text = t->next_text[text]) {
        if (present & t->slot_bit[text]) continue;
        int64_t offset = (int64_t)q - t->anchor[text];
        int64_t length = t->length[text];
        if (offset < 0 || offset + length > (int64_t)count) continue;
        const uint8_t *expected = t->pool + t->start[text];
        // The byte after the anchor, then the first eight bytes as a word: a call to memcmp
        // costs more than most texts these rule out.
        if (t->anchor[text] + 1 < length && subject[q + 1] != expected[t->anchor[text] + 1]) continue;
        if (length >= 8) {
            uint64_t word;
            memcpy(&word, subject + offset, 8);
            if (word != t->head[text]) continue;
        }
        if (memcmp(subject + offset, expected, (size_t)length) == 0) present |= t->slot_bit[text];
    }
    return present;
}

/// Bit `bucket` set in `tables[byte & 0x0F]` and `tables[16 + (byte >> 4)]`.
static void nibble_bucket(uint8_t *tables, uint8_t byte, uint8_t bucket) {
    tables[byte & 0x0F] |= (uint8_t)(1u << bucket);
    tables[16 + (byte >> 4)] |= (uint8_t)(1u << bucket);
}

// The anchor bytes go into eight buckets: by their high nibble (the low three bits of it), and
// where that leaves buckets free, the most common anchor bytes of a shared one (the first in
// `anchor_bytes`) each into one of its own. A byte of a subject is a candidate for a bucket
// when its two nibbles are both those of some anchor byte of the bucket, and the byte after it
// both those of a byte that follows some anchor byte of the bucket in a text (any byte, for a
// text that ends at its anchor): every place `required_at` would pass is a candidate, and a
// common byte in a bucket of its own is one only where the byte after it can follow it.
void cbytescan_required_prepare(cbytescan_required_texts *t) {
    memset(t->nibbles, 0, 64);
    size_t in_group[8] = {0};
    for (size_t a = 0; a < t->anchor_count; a++) in_group[(t->anchor_bytes[a] >> 4) & 7]++;
    int free_buckets = 8;
    for (int g = 0; g < 8; g++) free_buckets -= in_group[g] > 0;
    int group_bucket[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    uint8_t bucket_of[256];
    int next_bucket = 0;
    for (size_t a = 0; a < t->anchor_count; a++) {
        uint8_t byte = t->anchor_bytes[a];
        int group = (byte >> 4) & 7;
        if (free_buckets > 0 && in_group[group] > 1) {
            in_group[group]--;
            free_buckets--;
            bucket_of[byte] = (uint8_t)next_bucket++;
        } else {
            bucket_of[byte] = 0xFF;
        }
    }
    for (size_t a = 0; a < t->anchor_count; a++) {
        uint8_t byte = t->anchor_bytes[a];
        if (bucket_of[byte] == 0xFF) {
            int group = (byte >> 4) & 7;
            if (group_bucket[group] < 0) group_bucket[group] = next_bucket++;
            bucket_of[byte] = (uint8_t)group_bucket[group];
        }
        uint8_t bucket = bucket_of[byte];
        nibble_bucket(t->nibbles, byte, bucket);
        for (int32_t text = t->first_by_byte[byte]; text >= 0; text = t->next_text[text]) {
            int32_t after = t->anchor[text] + 1;
            if (after < t->length[text]) {
                nibble_bucket(t->nibbles + 32, t->pool[t->start[text] + after], bucket);
            } else {
                for (int c = 0; c < 256; c++) nibble_bucket(t->nibbles + 32, (uint8_t)c, bucket);
            }
        }
    }
}

#if defined(CBYTESCAN_AVX2)
/// The lanes of `block` that are candidates (see `cbytescan_required_prepare`), `next` being
/// the bytes one further on (read only where the block has an anchor byte: in a long message
/// most blocks have none).
__attribute__((target("avx2")))
static inline unsigned required_candidates(__m256i block, const uint8_t *next, const __m256i tables[4]) {
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    __m256i first = _mm256_and_si256(_mm256_shuffle_epi8(tables[0], _mm256_and_si256(block, nibble)),
                                     _mm256_shuffle_epi8(tables[1], _mm256_and_si256(_mm256_srli_epi16(block, 4), nibble)));
    if (_mm256_testz_si256(first, first)) return 0;
    __m256i after = _mm256_loadu_si256((const __m256i *)next);
    __m256i second = _mm256_and_si256(_mm256_shuffle_epi8(tables[2], _mm256_and_si256(after, nibble)),
                                      _mm256_shuffle_epi8(tables[3], _mm256_and_si256(_mm256_srli_epi16(after, 4), nibble)));
    return ~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(first, second), _mm256_setzero_si256()));
}

/// `count` bytes, 1 to 32, from `from` to `to`, in a few loads and stores of fixed sizes.
static inline void copy_short(uint8_t *to, const uint8_t *from, size_t count) {
    if (count >= 16) {
        memcpy(to, from, 16);
        memcpy(to + count - 16, from + count - 16, 16);
    } else if (count >= 8) {
        memcpy(to, from, 8);
        memcpy(to + count - 8, from + count - 8, 8);
    } else if (count >= 4) {
        memcpy(to, from, 4);
        memcpy(to + count - 4, from + count - 4, 4);
    } else {
        to[0] = from[0];
        to[count / 2] = from[count / 2];
        to[count - 1] = from[count - 1];
    }
}

/// `cbytescan_required_present` thirty-two bytes a step, where the processor has AVX2: the
/// candidates of a block (see `cbytescan_required_prepare`) found with four table lookups,
/// however many anchor bytes there are; the last bytes (after the last block that has a byte
/// after it) copied into a block of their own, padded with zeros.
__attribute__((target("avx2")))
static uint64_t required_present_32(const uint8_t *subject, size_t count, const cbytescan_required_texts *t) {
    __m256i tables[4];
    for (int i = 0; i < 4; i++) tables[i] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(t->nibbles + 16 * i)));
    uint64_t present = 0;
    size_t index = 0;
    for (; index + 33 <= count; index += 32) {
        unsigned mask = required_candidates(_mm256_loadu_si256((const __m256i *)(subject + index)), subject + index + 1, tables);
        while (mask != 0) {
            size_t q = index + (size_t)__builtin_ctz(mask);
            mask &= mask - 1;
            present = required_at(subject, count, q, t, present);
            if (present == t->all) return present;
        }
    }
    if (index < count) {
        uint8_t padded[64] __attribute__((aligned(32)));
        _mm256_store_si256((__m256i *)padded, _mm256_setzero_si256());
        _mm256_store_si256((__m256i *)(padded + 32), _mm256_setzero_si256());
        size_t left = count - index;
        copy_short(padded, subject + index, left);
        unsigned mask = required_candidates(_mm256_load_si256((const __m256i *)padded), padded + 1, tables);
        if (left < 32) mask &= (1u << left) - 1;  // not the padding
        while (mask != 0) {
            size_t q = index + (size_t)__builtin_ctz(mask);
            mask &= mask - 1;
            present = required_at(subject, count, q, t, present);
            if (present == t->all) return present;
        }
    }
    return present;
}
#endif

// Every anchor byte looked for at once: a short message (a console's line of another
// process) costs a few steps where a search for each text took a memchr each.
uint64_t cbytescan_required_present(const uint8_t *subject, size_t count, const cbytescan_required_texts *t) {
#if defined(CBYTESCAN_AVX2)
    static int level = 0;
    int known = __atomic_load_n(&level, __ATOMIC_RELAXED);
    if (known == 0) {
        known = has_avx2() ? 2 : 1;
        __atomic_store_n(&level, known, __ATOMIC_RELAXED);
    }
    if (known == 2) return required_present_32(subject, count, t);
#endif
    return cbytescan_required_present_narrow(subject, count, t);
}

uint64_t cbytescan_required_present_narrow(const uint8_t *subject, size_t count, const cbytescan_required_texts *t) {
    uint64_t present = 0;
    size_t index = 0;
#if defined(CBYTESCAN_BLOCKS)
    for (; index < count; index += 16) {
        block_t block = index + 16 <= count ? load_block(subject + index) : short_block(subject + index, count - index);
        block_t hits = zero_block();
        for (size_t a = 0; a < t->anchor_count; a++) hits = or_blocks(hits, lanes_equal(block, t->anchor_bytes[a]));
        lanes_t mask = top_bits(hits);
        while (mask != 0) {
            size_t q = index + first_lane(mask);
            mask &= mask - 1;
            // The padding of a short block is 'a', which may be an anchor byte.
            if (q >= count) break;
            present = required_at(subject, count, q, t, present);
            if (present == t->all) return present;
        }
    }
#else
    for (; index < count; index++) {
        if (t->first_by_byte[subject[index]] < 0) continue;
        present = required_at(subject, count, index, t, present);
        if (present == t->all) return present;
    }
#endif
    return present;
}
