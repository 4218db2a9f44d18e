// The line and the small steps over it that the header, prefix and CloudKit token readers
// (header_scan.c, prefix_scan.c, cloudkit_token_scan.c) share. Private to CByteScan: the
// module's public header is include/CByteScan.h.
#ifndef CBYTESCAN_LINE_SCAN_H
#define CBYTESCAN_LINE_SCAN_H

#include "CByteScan.h"
#include <string.h>

typedef struct {
    const uint8_t *b;
    int64_t n;
} line_t;

// The small steps are inlined whatever their number of uses: called, a step costs more than it does.
#define STEP static inline __attribute__((always_inline))

// With SSE2 (every x86-64) the runs of blanks and digits and the bytes before a stop are
// found sixteen bytes a step where sixteen are left: one comparison or two and a mask of
// lanes, exact, in place of the word tricks (whose loops take a second step, and a branch
// that varies with the field's length, for most fields of eight bytes or more). Other
// processors, and CBYTESCAN_PORTABLE, take the word steps alone (scripts/test-byte-scans holds
// the builds equal).
#if !defined(CBYTESCAN_PORTABLE) && defined(__SSE2__)
#define LINE_BLOCKS 1
#include <emmintrin.h>

/// The lanes of the sixteen bytes at `at` that hold `c`, one bit each, the first lowest.
STEP unsigned block_lanes_of(const uint8_t *at, uint8_t c) {
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)at), _mm_set1_epi8((char)c)));
}

/// All ones in each lane of `block` that lies in `lo`…`lo + count - 1`: less `lo`, a lane
/// in the range is its own minimum with `count - 1`, unsigned.
STEP __m128i block_within(__m128i block, uint8_t lo, uint8_t count) {
    __m128i values = _mm_sub_epi8(block, _mm_set1_epi8((char)lo));
    return _mm_cmpeq_epi8(_mm_min_epu8(values, _mm_set1_epi8((char)(count - 1))), values);
}

STEP __m128i block_at(const uint8_t *at) { return _mm_loadu_si128((const __m128i *)at); }
STEP unsigned block_mask(__m128i lanes) { return (unsigned)_mm_movemask_epi8(lanes); }

/// The lanes of the sixteen bytes at `at` that hold a digit.
STEP unsigned block_digit(const uint8_t *at) { return block_mask(block_within(block_at(at), '0', 10)); }
/// The lanes of the sixteen bytes at `at` that hold a blank or a tab.
STEP unsigned block_blank(const uint8_t *at) { return block_lanes_of(at, ' ') | block_lanes_of(at, '\t'); }

// The byte classes of `skip_run` (`…_lanes` below), sixteen lanes at a time.
STEP unsigned block_hex(const uint8_t *at) {
    __m128i block = block_at(at), folded = _mm_or_si128(block, _mm_set1_epi8(0x20));
    return block_mask(_mm_or_si128(block_within(block, '0', 10), block_within(folded, 'a', 6)));
}
STEP unsigned block_lower(const uint8_t *at) { return block_mask(block_within(block_at(at), 'a', 26)); }
STEP unsigned block_word(const uint8_t *at) {
    __m128i block = block_at(at), folded = _mm_or_si128(block, _mm_set1_epi8(0x20));
    __m128i word = _mm_or_si128(block_within(block, '0', 10), block_within(folded, 'a', 26));
    return block_mask(_mm_or_si128(word, _mm_cmpeq_epi8(block, _mm_set1_epi8('_'))));
}
STEP unsigned block_non_space(const uint8_t *at) {
    __m128i block = block_at(at);
    __m128i space = _mm_or_si128(block_within(block, 0x09, 5), _mm_cmpeq_epi8(block, _mm_set1_epi8(' ')));
    return ~block_mask(space) & 0xFFFF;
}
#define RUN(l, i, kind) skip_run((l), (i), kind##_lanes, is_##kind##_byte, block_##kind)
#else
#define RUN(l, i, kind) skip_run((l), (i), kind##_lanes, is_##kind##_byte, NULL)
#endif

STEP int is_digit(uint8_t c) { return (uint8_t)(c - '0') < 10; }
STEP int is_blank_at(line_t l, int64_t i) { return i < l.n && (l.b[i] == ' ' || l.b[i] == '\t'); }
STEP int byte_at(line_t l, int64_t i, uint8_t c) { return i >= 0 && i < l.n && l.b[i] == c; }

/// Whether `text` (a literal: its length folds to a constant, and memcmp of a constant length
/// to a few loads) stands at `i`.
#define HAS(l, i, text) has_text((l), (i), (text), sizeof(text) - 1)
STEP int has_text(line_t l, int64_t i, const char *text, int64_t count) {
    return i >= 0 && i + count <= l.n && l.b[i] == (uint8_t)text[0] && memcmp(l.b + i, text, (size_t)count) == 0;
}

// Eight bytes at a time where eight are left, a byte at a time after: runs of digits, blanks
// and the bytes before a stop are found with a few operations on a word.

STEP uint64_t word_at(line_t l, int64_t i) {
    uint64_t word;
    memcpy(&word, l.b + i, 8);
    return word;
}

STEP int64_t lowest_lane(uint64_t found) { return __builtin_ctzll(found) >> 3; }

/// The high bit set in each lane of `word` that holds `c`, and perhaps in lanes after the
/// first such: only the lowest lane set is sure (a lane's borrow reaches the lanes above it
/// only from a lane that holds `c`). So the lowest lane set in several of these ORed is too.
STEP uint64_t lanes_of(uint64_t word, uint8_t c) {
    uint64_t differences = word ^ (0x0101010101010101ULL * c);
    return (differences - 0x0101010101010101ULL) & ~differences & 0x8080808080808080ULL;
}

/// The high bit set in each lane that holds no digit, and perhaps after the first: each digit
/// lane less '0' leaves 0–9, to which adding 0x76 leaves the top bit clear.
STEP uint64_t non_digits(uint64_t word) {
    uint64_t values = word ^ 0x3030303030303030ULL;
    return (values | (values + 0x7676767676767676ULL)) & 0x8080808080808080ULL;
}

/// The high bit set in each lane that holds neither a blank nor a tab, exactly.
STEP uint64_t non_blanks(uint64_t word) {
    uint64_t blank = word ^ 0x2020202020202020ULL, tab = word ^ 0x0909090909090909ULL;
    uint64_t non_zero_blank = (((blank & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | blank) & 0x8080808080808080ULL;
    uint64_t non_zero_tab = (((tab & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | tab) & 0x8080808080808080ULL;
    return non_zero_blank & non_zero_tab;
}

/// The high bit set in each lane of `low` (a word with every lane's top bit clear) that lies
/// in `lo`…`hi`, exactly: each lane plus 0x80 - lo, and plus 0x7F - hi, stays within its lane
/// (at most 0x7F + 0x80), its top bit set when the lane is at least lo, and above hi.
STEP uint64_t lanes_within(uint64_t low, uint8_t lo, uint8_t hi) {
    uint64_t at_least = low + 0x0101010101010101ULL * (uint8_t)(0x80 - lo);
    uint64_t above = low + 0x0101010101010101ULL * (uint8_t)(0x7F - hi);
    return at_least & ~above & 0x8080808080808080ULL;
}

/// The high bit set in each lane of `word` that holds `\s` (blank, tab, line feed, vertical
/// tab, form feed, carriage return), exactly.
STEP uint64_t space_lanes(uint64_t word) {
    uint64_t low = word & 0x7F7F7F7F7F7F7F7FULL;
    return (lanes_within(low, 0x09, 0x0D) | lanes_within(low, ' ', ' ')) & ~word;
}

/// The high bit set in each lane of `word` that holds `\w` without Unicode (`[0-9A-Za-z_]`), exactly.
STEP uint64_t word_lanes(uint64_t word) {
    uint64_t low = word & 0x7F7F7F7F7F7F7F7FULL;
    return (lanes_within(low, '0', '9') | lanes_within(low, 'A', 'Z') | lanes_within(low, 'a', 'z') | lanes_within(low, '_', '_')) &
           ~word;
}

/// The high bit set in each lane of `word` that holds `[0-9A-Fa-f]`, exactly.
STEP uint64_t hex_lanes(uint64_t word) {
    uint64_t low = word & 0x7F7F7F7F7F7F7F7FULL;
    return (lanes_within(low, '0', '9') | lanes_within(low, 'A', 'F') | lanes_within(low, 'a', 'f')) & ~word;
}

/// The high bit set in each lane of `word` that holds `[a-z]`, exactly.
STEP uint64_t lower_lanes(uint64_t word) { return lanes_within(word & 0x7F7F7F7F7F7F7F7FULL, 'a', 'z') & ~word; }

STEP int is_space_byte(uint8_t c) { return c == ' ' || (uint8_t)(c - 0x09) <= 4; }
STEP int is_word_byte(uint8_t c) {
    return (uint8_t)(c - '0') < 10 || (uint8_t)((c | 0x20) - 'a') < 26 || c == '_';
}
STEP int is_hex_byte(uint8_t c) { return (uint8_t)(c - '0') < 10 || (uint8_t)((c | 0x20) - 'a') < 6; }
STEP int is_lower_byte(uint8_t c) { return (uint8_t)(c - 'a') < 26; }
STEP uint64_t non_space_lanes(uint64_t word) { return ~space_lanes(word); }
STEP int is_non_space_byte(uint8_t c) { return !is_space_byte(c); }

/// The end of a run from `i` of the bytes whose lanes `member` marks (`member_byte` the same
/// test of one byte, `block_member` of sixteen): sixteen or eight bytes a step where they are
/// left. Always inlined, with the tests given as constants (`RUN`), so that each run's loop
/// has its test in place and no call.
STEP int64_t skip_run(line_t l, int64_t i, uint64_t (*member)(uint64_t), int (*member_byte)(uint8_t),
                      unsigned (*block_member)(const uint8_t *)) {
#if defined(LINE_BLOCKS)
    for (; i + 16 <= l.n; i += 16) {
        unsigned others = ~block_member(l.b + i) & 0xFFFF;
        if (others) return i + __builtin_ctz(others);
    }
#else
    (void)block_member;
#endif
    for (; i + 8 <= l.n; i += 8) {
        uint64_t others = ~member(word_at(l, i)) & 0x8080808080808080ULL;
        if (others) return i + lowest_lane(others);
    }
    while (i < l.n && member_byte(l.b[i])) i++;
    return i;
}

// Digits and blanks as `skip_run`'s classes: their lanes are the complements of the lanes
// `non_digits` and `non_blanks` mark, whose lowest is exact.
STEP uint64_t digit_lanes(uint64_t word) { return ~non_digits(word); }
STEP int is_digit_byte(uint8_t c) { return is_digit(c); }
STEP uint64_t blank_lanes(uint64_t word) { return ~non_blanks(word); }
STEP int is_blank_byte(uint8_t c) { return c == ' ' || c == '\t'; }

/// The end of a run of digits from `i`.
STEP int64_t skip_digits(line_t l, int64_t i) { return RUN(l, i, digit); }

/// `[ \t]+` from `i`: its end, or `i` when there is none.
STEP int64_t skip_blanks(line_t l, int64_t i) { return RUN(l, i, blank); }

/// The first `c` from `i` on, if no line feed comes first; -1 otherwise.
STEP int64_t first_of(line_t l, int64_t i, uint8_t c) {
#if defined(LINE_BLOCKS)
    for (; i + 16 <= l.n; i += 16) {
        unsigned found = block_lanes_of(l.b + i, c) | block_lanes_of(l.b + i, 0x0A);
        if (found) {
            i += __builtin_ctz(found);
            return l.b[i] == c ? i : -1;
        }
    }
#endif
    for (; i + 8 <= l.n; i += 8) {
        uint64_t word = word_at(l, i);
        uint64_t found = lanes_of(word, c) | lanes_of(word, 0x0A);
        if (found) {
            i += lowest_lane(found);
            return l.b[i] == c ? i : -1;
        }
    }
    for (; i < l.n; i++) {
        if (l.b[i] == c) return i;
        if (l.b[i] == 0x0A) return -1;
    }
    return -1;
}

STEP void place(cbytescan_place *p, int64_t lower, int64_t upper) {
    p->lower = (int32_t)lower;
    p->upper = (int32_t)upper;
}

STEP void no_place(cbytescan_place *p) {
    p->lower = -1;
    p->upper = 0;
}

/// The number the first `digits` (1 to 8) lanes of `word` spell, each a digit: the digits
/// moved to the top lanes (zeros before them), then added up in pairs, fours and eights.
STEP int64_t decimal(uint64_t word, int64_t digits) {
    uint64_t value = (word ^ 0x3030303030303030ULL) << (64 - 8 * digits);
    value = ((value * 2561) >> 8) & 0x00FF00FF00FF00FFULL;
    value = ((value * 6553601) >> 16) & 0x0000FFFF0000FFFFULL;
    return (int64_t)((value * 42949672960001ULL) >> 32);
}

/// The value of up to 18 digits (`HeaderParser.number`); -1 for more, or none. Eight or fewer
/// with eight bytes left (every pid) are read as one word.
STEP int64_t number(line_t l, int64_t lower, int64_t upper) {
    int64_t digits = upper - lower;
    if (digits <= 0 || digits > 18) return -1;
    if (digits <= 8 && lower + 8 <= l.n) return decimal(word_at(l, lower), digits);
    int64_t value = 0;
    for (int64_t i = lower; i < upper; i++) value = value * 10 + (l.b[i] - '0');
    return value;
}

#endif
