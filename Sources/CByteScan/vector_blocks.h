// The block operations the byte scans (byte_scan.c, required_scan.c) share: sixteen bytes in
// a vector register with SSE2 (every x86-64) or AArch64's NEON, none with CBYTESCAN_PORTABLE
// or elsewhere; and where AVX2 may be used. Private to CByteScan: the module's public header is
// include/CByteScan.h.
#ifndef CBYTESCAN_VECTOR_BLOCKS_H
#define CBYTESCAN_VECTOR_BLOCKS_H

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

#if defined(CBYTESCAN_SSE2)
/// What `ask` tells of the processor, asked once and kept in `*answer` (0 before, then 1 for no,
/// 2 for yes): a race between threads on the first calls only decides the same thing twice.
static inline int asked_once(int *answer, int (*ask)(void)) {
    int known = __atomic_load_n(answer, __ATOMIC_RELAXED);
    if (known == 0) {
        known = ask() ? 2 : 1;
        __atomic_store_n(answer, known, __ATOMIC_RELAXED);
    }
    return known == 2;
}
#endif

#if defined(CBYTESCAN_AVX2)
/// Whether the processor and the system (which saves the wide registers) allow AVX2.
static inline int has_avx2(void) {
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

/// `has_avx2()`, asked once (`asked_once`).
static inline int uses_avx2(void) {
    static int answer = 0;
    return asked_once(&answer, has_avx2);
}
#endif

#endif
