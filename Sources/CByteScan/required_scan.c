// The required-text scan (`RequiredTextScan`): which slots have one of their texts in a subject,
// in one pass over it. See CByteScan.h.
//
// The vector paths look a block up in nibble tables, as Hyperscan's Teddy does: each text's
// fingerprint, its four bytes from its anchor on (fewer where it ends: any byte after), goes
// into one of eight buckets, and each byte of a block is a candidate for the buckets whose
// fingerprints may start there (for each of the four bytes from it, both its nibbles are those
// of that byte of some fingerprint of the bucket). Candidates are checked by `required_at`.
#include "vector_blocks.h"
#include <stdlib.h>

/// The bit of `t->quads` for the four bytes `word` (as memcpy loads them).
static inline unsigned quad_bit(uint32_t word) { return (word * 0x9E3779B1u) >> 20; }

/// The texts at `q` whose anchor byte is `subject[q]`, each of a slot not yet found: their
/// slots' bits added to `present`.
__attribute__((noinline)) static uint64_t required_walk(const uint8_t *subject, size_t count, size_t q,
                                                        const cbytescan_required_texts *t, uint64_t present) {
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

/// `required_walk` at `q`, which most candidates never reach: the four bytes from `q` are looked
/// at first, as one word (`quads`; the byte after `q` alone, `pair_bits`, where fewer are left
/// or some text has fewer): where no text has them at its anchor, none of them stands at `q`.
static inline uint64_t required_at(const uint8_t *subject, size_t count, size_t q, const cbytescan_required_texts *t,
                                   uint64_t present) {
    if (q + 4 <= count && t->has_quads) {
        uint32_t word;
        memcpy(&word, subject + q, 4);
        unsigned bit = quad_bit(word);
        if (((t->quads[bit >> 6] >> (bit & 63)) & 1) == 0) return present;
    } else if (q + 1 < count) {
        unsigned pair = (unsigned)subject[q] << 8 | subject[q + 1];
        if ((t->pair_bits[pair >> 3] & (1u << (pair & 7))) == 0) return present;
    }
    return required_walk(subject, count, q, t, present);
}

// ---- The buckets (`cbytescan_required_prepare`).

enum { FINGERPRINT = 4, BUCKETS = 8 };

/// The nibbles a fingerprint (or a bucket's fingerprints) may have at each of its bytes, a bit
/// for each.
typedef struct {
    uint16_t low[FINGERPRINT], high[FINGERPRINT];
} nibble_sets;

/// Text `text`'s fingerprint as one word: its bytes from its anchor on (up to four), and how
/// many there are.
static uint64_t fingerprint_key(const cbytescan_required_texts *t, size_t text) {
    const uint8_t *from_anchor = t->pool + t->start[text] + t->anchor[text];
    int32_t room = t->length[text] - t->anchor[text];
    if (room > FINGERPRINT) room = FINGERPRINT;
    uint64_t key = (uint64_t)room << 32;
    for (int32_t k = 0; k < room; k++) key |= (uint64_t)from_anchor[k] << (8 * k);
    return key;
}

/// The nibble sets of a fingerprint `key`: any byte past its end.
static nibble_sets fingerprint_sets(uint64_t key) {
    nibble_sets sets;
    uint32_t room = (uint32_t)(key >> 32);
    for (uint32_t k = 0; k < FINGERPRINT; k++) {
        uint8_t byte = (uint8_t)(key >> (8 * k));
        sets.low[k] = k < room ? (uint16_t)(1u << (byte & 0x0F)) : 0xFFFF;
        sets.high[k] = k < room ? (uint16_t)(1u << (byte >> 4)) : 0xFFFF;
    }
    return sets;
}

/// A bucket: its nibbles; for each byte of the fingerprint, the weight of the bytes its tables
/// pass there (a guess at how often a byte of a log passes: the product over the four is how
/// often the bucket is expected to be a candidate); by high nibble, the weight of the bytes with
/// that high nibble and a low one it passes (`row`), and by low nibble, of those with that low
/// nibble and a high one it passes (`column`).
typedef struct {
    nibble_sets sets;
    double passed[FINGERPRINT];
    double row[FINGERPRINT][16], column[FINGERPRINT][16];
} bucket_state;

/// The weight of the bytes that adding the nibbles `highs` and `lows` at byte `k` newly passes:
/// a new low nibble with an old high one, a new high one with any low one.
static double newly_passed(const bucket_state *bucket, int k, unsigned highs, unsigned lows, const double *weight) {
    unsigned new_lows = lows & ~bucket->sets.low[k], new_highs = highs & ~bucket->sets.high[k];
    if ((new_lows & (new_lows - 1)) == 0 && (new_highs & (new_highs - 1)) == 0) {
        // One byte's nibbles (a fingerprint's byte), each new or not.
        unsigned l = (unsigned)__builtin_ctz(new_lows | 0x10000), h = (unsigned)__builtin_ctz(new_highs | 0x10000);
        double sum = new_lows ? bucket->column[k][l] : 0;
        if (new_highs) sum += bucket->row[k][h] + (new_lows ? weight[16 * h + l] : 0);
        return sum;
    }
    double sum = 0;
    for (unsigned l = new_lows; l != 0; l &= l - 1) sum += bucket->column[k][__builtin_ctz(l)];
    for (unsigned h = new_highs; h != 0; h &= h - 1) {
        sum += bucket->row[k][__builtin_ctz(h)];
        for (unsigned l = new_lows; l != 0; l &= l - 1) sum += weight[16 * __builtin_ctz(h) + __builtin_ctz(l)];
    }
    return sum;
}

/// How many expected candidates adding `mine` to `bucket` adds.
static double added_candidates(const bucket_state *bucket, const nibble_sets *mine, const double *weight) {
    double before = 1, after = 1;
    for (int k = 0; k < FINGERPRINT; k++) {
        before *= bucket->passed[k];
        after *= bucket->passed[k] + newly_passed(bucket, k, mine->high[k], mine->low[k], weight);
    }
    return after - before;
}

/// Adds `mine` to `bucket`.
static void add_to_bucket(bucket_state *bucket, const nibble_sets *mine, const double *weight) {
    for (int k = 0; k < FINGERPRINT; k++) {
        bucket->passed[k] += newly_passed(bucket, k, mine->high[k], mine->low[k], weight);
        for (unsigned l = mine->low[k] & ~bucket->sets.low[k]; l != 0; l &= l - 1) {
            for (int h = 0; h < 16; h++) bucket->row[k][h] += weight[16 * h + __builtin_ctz(l)];
        }
        for (unsigned h = mine->high[k] & ~bucket->sets.high[k]; h != 0; h &= h - 1) {
            for (int l = 0; l < 16; l++) bucket->column[k][l] += weight[16 * __builtin_ctz(h) + l];
        }
        bucket->sets.high[k] |= mine->high[k];
        bucket->sets.low[k] |= mine->low[k];
    }
}

/// Each byte's weight, a guess at how often it stands in logs from its rank: each rank 5% more
/// than the one below it (a byte without a rank as the least common).
static void byte_weights(const uint8_t *rank, double *weight) {
    double by_rank[256];
    by_rank[0] = 1.0 / 256;
    for (int r = 1; r < 256; r++) by_rank[r] = by_rank[r - 1] * 1.05;
    for (int c = 0; c < 256; c++) weight[c] = rank ? by_rank[rank[c]] : by_rank[0];
}

/// Puts the `distinct` fingerprints `keys` in the buckets (`bucket_of`, and `sets` each bucket's
/// nibbles): the most common first, each where it adds the fewest expected candidates (an empty
/// bucket adds its own), so that a bucket holds fingerprints whose nibbles cross into few other
/// byte strings.
static void place_in_buckets(const uint8_t *rank, const uint64_t *keys, size_t distinct, uint8_t *bucket_of, nibble_sets *sets) {
    double weight[256];
    byte_weights(rank, weight);
    double all = 0;
    for (int c = 0; c < 256; c++) all += weight[c];
    double *cost = malloc(distinct * sizeof *cost);
    int32_t *order = malloc(distinct * sizeof *order);
    // The most common first: insertion sorted, a few hundred at most.
    for (size_t d = 0; d < distinct; d++) {
        // Its own: the weight of its byte at each of the four (of every byte past its end).
        cost[d] = 1;
        for (uint32_t k = 0; k < FINGERPRINT; k++) cost[d] *= k < (uint32_t)(keys[d] >> 32) ? weight[(uint8_t)(keys[d] >> (8 * k))] : all;
        size_t at = d;
        for (; at > 0 && cost[order[at - 1]] < cost[d]; at--) order[at] = order[at - 1];
        order[at] = (int32_t)d;
    }
    bucket_state buckets[BUCKETS];
    int used = 0;
    for (size_t i = 0; i < distinct; i++) {
        int32_t d = order[i];
        nibble_sets mine = fingerprint_sets(keys[d]);
        int best = -1;
        double best_added = 0;
        for (int b = 0; b <= used && b < BUCKETS; b++) {
            double added = b < used ? added_candidates(&buckets[b], &mine, weight) : cost[d];
            if (best < 0 || added < best_added) {
                best = b;
                best_added = added;
            }
        }
        if (best == used) memset(&buckets[used++], 0, sizeof buckets[0]);
        add_to_bucket(&buckets[best], &mine, weight);
        bucket_of[d] = (uint8_t)best;
    }
    for (int b = 0; b < used; b++) sets[b] = buckets[b].sets;
    free(order);
    free(cost);
}

/// The buckets: each distinct fingerprint its own where there are eight or fewer, else as
/// `place_in_buckets` puts them. `bucket` gets each text's (0xFF for an empty text); `sets`
/// each bucket's nibbles.
static void fill_buckets(const cbytescan_required_texts *t, size_t texts, uint8_t *bucket, nibble_sets *sets) {
    // The distinct fingerprints, by a hash of their key in a table at least twice as large as
    // the texts.
    uint64_t *keys = malloc(texts * sizeof *keys);
    int32_t *of_text = malloc(texts * sizeof *of_text);
    size_t slots = 16;
    while (slots < 2 * texts) slots *= 2;
    int32_t *slot_of = malloc(slots * sizeof *slot_of);
    for (size_t i = 0; i < slots; i++) slot_of[i] = -1;
    size_t distinct = 0;
    for (size_t n = 0; n < texts; n++) {
        of_text[n] = -1;
        if (t->length[n] == 0) continue;
        uint64_t key = fingerprint_key(t, n);
        size_t slot = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (slots - 1);
        while (slot_of[slot] >= 0 && keys[slot_of[slot]] != key) slot = (slot + 1) & (slots - 1);
        if (slot_of[slot] < 0) {
            slot_of[slot] = (int32_t)distinct;
            keys[distinct++] = key;
        }
        of_text[n] = slot_of[slot];
    }
    free(slot_of);
    uint8_t *bucket_of = malloc(distinct + 1);
    if (distinct <= BUCKETS) {
        // A bucket each.
        for (size_t d = 0; d < distinct; d++) {
            bucket_of[d] = (uint8_t)d;
            sets[d] = fingerprint_sets(keys[d]);
        }
    } else {
        place_in_buckets(t->byte_rank, keys, distinct, bucket_of, sets);
    }
    for (size_t n = 0; n < texts; n++) bucket[n] = of_text[n] >= 0 ? bucket_of[of_text[n]] : 0xFF;
    free(bucket_of);
    free(of_text);
    free(keys);
}

// `quads` gets the bit of each text's four bytes from its anchor on, and is used only when
// every text has four.
void cbytescan_required_prepare(cbytescan_required_texts *t) {
    memset(t->nibbles, 0, 32 * FINGERPRINT);
    memset(t->quads, 0, 64 * sizeof t->quads[0]);
    t->has_quads = 1;
    // Every text is on the chain of its anchor byte.
    size_t texts = 0;
    for (size_t a = 0; a < t->anchor_count; a++) {
        for (int32_t text = t->first_by_byte[t->anchor_bytes[a]]; text >= 0; text = t->next_text[text]) {
            if ((size_t)text + 1 > texts) texts = (size_t)text + 1;
        }
    }
    if (texts == 0) return;
    uint8_t *bucket = malloc(texts);
    nibble_sets sets[BUCKETS];
    memset(sets, 0, sizeof sets);
    fill_buckets(t, texts, bucket, sets);
    for (int b = 0; b < BUCKETS; b++) {
        for (int k = 0; k < FINGERPRINT; k++) {
            for (unsigned l = sets[b].low[k]; l != 0; l &= l - 1) t->nibbles[32 * k + __builtin_ctz(l)] |= (uint8_t)(1u << b);
            for (unsigned h = sets[b].high[k]; h != 0; h &= h - 1) t->nibbles[32 * k + 16 + __builtin_ctz(h)] |= (uint8_t)(1u << b);
        }
    }
    for (size_t n = 0; n < texts; n++) {
        if (bucket[n] == 0xFF) continue;
        int32_t room = t->length[n] - t->anchor[n];
        if (room >= 4) {
            uint32_t word;
            memcpy(&word, t->pool + t->start[n] + t->anchor[n], 4);
            unsigned bit = quad_bit(word);
            t->quads[bit >> 6] |= 1ull << (bit & 63);
        } else {
            t->has_quads = 0;
        }
    }
    free(bucket);
}

// ---- The vector paths: AVX2's byte shuffle (where an x86-64 processor has it) thirty-two bytes
// a step; sixteen a step, NEON's table lookup (every AArch64) or SSSE3's shuffle (asked of an
// x86-64 processor at run time).
#if defined(CBYTESCAN_AVX2) || defined(CBYTESCAN_NEON) || (defined(CBYTESCAN_SSE2) && !defined(CBYTESCAN_NO_SSSE3))
#define CBYTESCAN_TABLES 1

/// The candidates `mask` (the lanes of a block at `index`, `1 << lane_shift` bits each, one of
/// them set for a candidate) each given to `required_at`; whether every slot is found.
static inline int required_in_mask(const uint8_t *subject, size_t count, size_t index, uint64_t mask, int lane_shift,
                                   const cbytescan_required_texts *t, uint64_t *present) {
    while (mask != 0) {
        size_t q = index + ((size_t)__builtin_ctzll(mask) >> lane_shift);
        mask &= mask - 1;
        *present = required_at(subject, count, q, t, *present);
        if (*present == t->all) return 1;
    }
    return 0;
}

/// `count` bytes, 1 to 34, from `from` to `padded` (64 bytes, zeros after them), in a few loads
/// and stores of fixed sizes.
static inline void pad_tail(uint8_t *padded, const uint8_t *from, size_t count) {
    memset(padded, 0, 64);
    size_t head = count < 32 ? count : 32;
    if (head >= 16) {
        memcpy(padded, from, 16);
        memcpy(padded + head - 16, from + head - 16, 16);
    } else if (head >= 8) {
        memcpy(padded, from, 8);
        memcpy(padded + head - 8, from + head - 8, 8);
    } else if (head >= 4) {
        memcpy(padded, from, 4);
        memcpy(padded + head - 4, from + head - 4, 4);
    } else {
        padded[0] = from[0];
        padded[head / 2] = from[head / 2];
        padded[head - 1] = from[head - 1];
    }
    for (size_t i = 32; i < count; i++) padded[i] = from[i];
}

/// The lanes of a block that are candidates (`width` lanes from `bytes`, `1 << lane_shift` bits
/// each); the block's bytes and the three after them are read.
typedef uint64_t (*candidates_in)(const uint8_t *bytes, const void *tables);

/// `cbytescan_required_present` `width` bytes a step (16 or 32), the lanes of each block told by
/// `candidates` (`tables` passed on); the last bytes (after the last block that has three bytes
/// after it) looked at in the block that ends three bytes before the end, or copied into a
/// block of their own, padded with zeros (a fingerprint cut by the subject's end is not a
/// text there). Inlined into each vector path, so that `candidates` is too.
__attribute__((always_inline)) static inline uint64_t required_blocks(const uint8_t *subject, size_t count,
                                                                      const cbytescan_required_texts *t, size_t width,
                                                                      int lane_shift, candidates_in candidates,
                                                                      const void *tables) {
    uint64_t present = 0;
    size_t index = 0;
    for (; index + width + FINGERPRINT - 1 <= count; index += width) {
        if (required_in_mask(subject, count, index, candidates(subject + index, tables), lane_shift, t, &present)) return present;
    }
    if (index < count && t->has_quads && count >= width + FINGERPRINT - 1) {
        // Every text has four bytes from its anchor on, so none has it in the last three: the
        // block that ends three bytes before the end, its lanes before `index` left out.
        size_t from = count - (width + FINGERPRINT - 1);
        if (index + FINGERPRINT - 1 < count) {
            uint64_t mask = candidates(subject + from, tables) & (~0ull << ((index - from) << lane_shift));
            required_in_mask(subject, count, from, mask, lane_shift, t, &present);
        }
        return present;
    }
    for (; index < count; index += width) {
        uint8_t padded[64];
        size_t left = count - index;  // 1 to width + 2
        pad_tail(padded, subject + index, left);
        uint64_t mask = candidates(padded, tables);
        if (left < width) mask &= (1ull << (left << lane_shift)) - 1;  // not the padding
        if (required_in_mask(subject, count, index, mask, lane_shift, t, &present)) return present;
    }
    return present;
}

#endif

#if defined(CBYTESCAN_AVX2)
/// For each lane of `block`, the buckets whose tables (`low`: by the byte's low nibble, `high`:
/// by its high one) both hold it.
__attribute__((target("avx2")))
static inline __m256i required_buckets(__m256i block, __m256i low, __m256i high) {
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    return _mm256_and_si256(_mm256_shuffle_epi8(low, _mm256_and_si256(block, nibble)),
                            _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16(block, 4), nibble)));
}

/// The lanes of the thirty-two bytes at `bytes` that are candidates; the thirty-five bytes from
/// `bytes` are read, those after the first thirty-two only where the block has a byte that may
/// start a fingerprint (in a long message most blocks have none).
__attribute__((target("avx2")))
static uint64_t required_candidates_32(const uint8_t *bytes, const void *table_bytes) {
    const __m256i *tables = table_bytes;
    __m256i found = required_buckets(_mm256_loadu_si256((const __m256i *)bytes), tables[0], tables[1]);
    if (_mm256_testz_si256(found, found)) return 0;
    for (int k = 1; k < FINGERPRINT; k++) {
        found = _mm256_and_si256(found, required_buckets(_mm256_loadu_si256((const __m256i *)(bytes + k)), tables[2 * k],
                                                         tables[2 * k + 1]));
    }
    return ~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(found, _mm256_setzero_si256()));
}

/// `cbytescan_required_present` thirty-two bytes a step, where the processor has AVX2.
__attribute__((target("avx2")))
static uint64_t required_present_32(const uint8_t *subject, size_t count, const cbytescan_required_texts *t) {
    __m256i tables[8];
    for (int i = 0; i < 8; i++) tables[i] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(t->nibbles + 16 * i)));
    return required_blocks(subject, count, t, 32, 0, required_candidates_32, tables);
}
#endif

#if defined(CBYTESCAN_NEON)
#define TABLES_TARGET
typedef uint8x16_t table_t;
static inline table_t load_table(const uint8_t *bytes) { return vld1q_u8(bytes); }

/// For each lane of the sixteen bytes at `bytes`, the buckets whose tables `tables[0]` (by the
/// low nibble) and `tables[1]` (by the high one) both hold it.
static inline table_t required_buckets_16(const uint8_t *bytes, const table_t *tables) {
    uint8x16_t block = vld1q_u8(bytes);
    return vandq_u8(vqtbl1q_u8(tables[0], vandq_u8(block, vdupq_n_u8(0x0F))), vqtbl1q_u8(tables[1], vshrq_n_u8(block, 4)));
}
static inline table_t and_tables(table_t a, table_t b) { return vandq_u8(a, b); }
/// The lanes of `found` not zero.
static inline lanes_t nonzero_lanes(table_t found) { return top_bits(vtstq_u8(found, found)); }
#elif defined(CBYTESCAN_SSE2) && !defined(CBYTESCAN_NO_SSSE3)
#include <cpuid.h>
#include <tmmintrin.h>
#define CBYTESCAN_SSSE3 1
#define TABLES_TARGET __attribute__((target("ssse3")))
typedef __m128i table_t;
static inline table_t load_table(const uint8_t *bytes) { return _mm_loadu_si128((const __m128i *)bytes); }

TABLES_TARGET static inline table_t required_buckets_16(const uint8_t *bytes, const table_t *tables) {
    const __m128i nibble = _mm_set1_epi8(0x0F);
    __m128i block = _mm_loadu_si128((const __m128i *)bytes);
    return _mm_and_si128(_mm_shuffle_epi8(tables[0], _mm_and_si128(block, nibble)),
                         _mm_shuffle_epi8(tables[1], _mm_and_si128(_mm_srli_epi16(block, 4), nibble)));
}
static inline table_t and_tables(table_t a, table_t b) { return _mm_and_si128(a, b); }
static inline lanes_t nonzero_lanes(table_t found) {
    return ~(lanes_t)_mm_movemask_epi8(_mm_cmpeq_epi8(found, _mm_setzero_si128())) & ALL_LANES;
}

/// Whether the processor has SSSE3.
static int asks_ssse3(void) {
    unsigned eax, ebx, ecx, edx;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 9)) != 0;
}

/// `asks_ssse3()`, asked once (`asked_once`).
static int has_ssse3(void) {
    static int answer = 0;
    return asked_once(&answer, asks_ssse3);
}
#endif

#if defined(CBYTESCAN_NEON) || defined(CBYTESCAN_SSSE3)
/// The lanes of the sixteen bytes at `bytes` that are candidates; the nineteen from `bytes` are read.
TABLES_TARGET static uint64_t required_candidates_16(const uint8_t *bytes, const void *table_bytes) {
    const table_t *tables = table_bytes;
    table_t found = required_buckets_16(bytes, tables);
    for (int k = 1; k < FINGERPRINT; k++) found = and_tables(found, required_buckets_16(bytes + k, tables + 2 * k));
    return nonzero_lanes(found);
}

/// `cbytescan_required_present` by the nibble tables, sixteen bytes a step.
TABLES_TARGET static uint64_t required_present_16(const uint8_t *subject, size_t count, const cbytescan_required_texts *t) {
    table_t tables[8];
    for (int i = 0; i < 8; i++) tables[i] = load_table(t->nibbles + 16 * i);
    return required_blocks(subject, count, t, 16, LANE_BITS == 4 ? 2 : 0, required_candidates_16, tables);
}
#endif

// Every text looked for at once: a short message (a console's line of another process) costs
// a few steps where a search for each text took a memchr each.
uint64_t cbytescan_required_present(const uint8_t *subject, size_t count, const cbytescan_required_texts *t) {
#if defined(CBYTESCAN_AVX2)
    if (uses_avx2()) return required_present_32(subject, count, t);
#endif
    return cbytescan_required_present_narrow(subject, count, t);
}

uint64_t cbytescan_required_present_narrow(const uint8_t *subject, size_t count, const cbytescan_required_texts *t) {
#if defined(CBYTESCAN_NEON)
    return required_present_16(subject, count, t);
#else
#if defined(CBYTESCAN_SSSE3)
    if (has_ssse3()) return required_present_16(subject, count, t);
#endif
    uint64_t present = 0;
    size_t index = 0;
#if defined(CBYTESCAN_BLOCKS)
    // SSE2 alone: each anchor byte compared with the block.
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
#endif
}
