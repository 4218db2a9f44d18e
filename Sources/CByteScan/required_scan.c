// The required-text scan (`RequiredTextScan`): which slots have one of their texts in a subject,
// in one pass over it. See CByteScan.h.
#include "vector_blocks.h"

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
    if (uses_avx2()) return required_present_32(subject, count, t);
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
