// The required-text scan (`RequiredTextScan`): which slots have one of their texts in a subject,
// in one pass over it. See CByteScan.h.
#include "vector_blocks.h"

/// The bit of `t->quads` for the four bytes `word` (as memcpy loads them).
static inline unsigned quad_bit(uint32_t word) { return (word * 0x9E3779B1u) >> 20; }

/// The texts at `q` whose anchor byte is `subject[q]`, each of a slot not yet found: their
/// slots' bits added to `present`. The four bytes from `q` are looked at first, as one word
/// (`quads`; the byte after `q` alone, `pair_bits`, where fewer are left or some text has
/// fewer): where no text has them at its anchor, none of them stands at `q`. Most candidates
/// end at that one look, a branch that seldom goes the other way; a walk of the texts costs
/// several that do.
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

/// Bit `bucket` set for every byte in `tables` (after a text's last byte, any byte may stand).
static void any_byte_bucket(uint8_t *tables, uint8_t bucket) {
    for (int c = 0; c < 256; c++) nibble_bucket(tables, (uint8_t)c, bucket);
}

// The anchor bytes go into eight buckets: by their high nibble (the low three bits of it), and
// where that leaves buckets free, the most common anchor bytes of a shared one (the first in
// `anchor_bytes`) each into one of its own. A byte of a subject is a candidate for a bucket
// when its two nibbles are both those of some anchor byte of the bucket, and the two bytes
// after it both those of the bytes that follow, one and two bytes on, some anchor byte of the
// bucket in a text (any byte past a text's end): every place `required_at` would pass is a
// candidate, and a common byte in a bucket of its own is one only where the bytes after it can
// follow it. `quads` gets the bit of each text's four bytes from its anchor on, and is used
// only when every text has four.
void cbytescan_required_prepare(cbytescan_required_texts *t) {
    memset(t->nibbles, 0, 96);
    memset(t->quads, 0, 64 * sizeof t->quads[0]);
    t->has_quads = 1;
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
            const uint8_t *from_anchor = t->pool + t->start[text] + t->anchor[text];
            int32_t room = t->length[text] - t->anchor[text];
            for (int32_t after = 1; after <= 2; after++) {
                if (after < room) {
                    nibble_bucket(t->nibbles + 32 * after, from_anchor[after], bucket);
                } else {
                    any_byte_bucket(t->nibbles + 32 * after, bucket);
                }
            }
            if (room >= 4) {
                uint32_t word;
                memcpy(&word, from_anchor, 4);
                unsigned bit = quad_bit(word);
                t->quads[bit >> 6] |= 1ull << (bit & 63);
            } else {
                t->has_quads = 0;
            }
        }
    }
}

#if defined(CBYTESCAN_AVX2)
/// For each lane of `block`, the buckets whose tables (`low`: by the byte's low nibble, `high`:
/// by its high one) both hold it.
__attribute__((target("avx2")))
static inline __m256i required_buckets(__m256i block, __m256i low, __m256i high) {
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    return _mm256_and_si256(_mm256_shuffle_epi8(low, _mm256_and_si256(block, nibble)),
                            _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16(block, 4), nibble)));
}

/// The lanes of the thirty-two bytes at `bytes` that are candidates (see
/// `cbytescan_required_prepare`); the thirty-four bytes from `bytes` are read, those after the
/// first thirty-two only where the block has an anchor byte (in a long message most blocks
/// have none).
__attribute__((target("avx2")))
static inline unsigned required_candidates(const uint8_t *bytes, const __m256i tables[6]) {
    __m256i found = required_buckets(_mm256_loadu_si256((const __m256i *)bytes), tables[0], tables[1]);
    if (_mm256_testz_si256(found, found)) return 0;
    found = _mm256_and_si256(found, required_buckets(_mm256_loadu_si256((const __m256i *)(bytes + 1)), tables[2], tables[3]));
    found = _mm256_and_si256(found, required_buckets(_mm256_loadu_si256((const __m256i *)(bytes + 2)), tables[4], tables[5]));
    return ~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(found, _mm256_setzero_si256()));
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

/// The candidates `mask` of the block at `index`, each given to `required_at`; whether every
/// slot is found.
static inline int required_in_block(const uint8_t *subject, size_t count, size_t index, unsigned mask,
                                    const cbytescan_required_texts *t, uint64_t *present) {
    while (mask != 0) {
        size_t q = index + (size_t)__builtin_ctz(mask);
        mask &= mask - 1;
        *present = required_at(subject, count, q, t, *present);
        if (*present == t->all) return 1;
    }
    return 0;
}

/// `cbytescan_required_present` thirty-two bytes a step, where the processor has AVX2: the
/// candidates of a block (see `cbytescan_required_prepare`) found with six table lookups,
/// however many anchor bytes there are; the last bytes (after the last block that has two
/// bytes after it) copied into a block of their own, padded with zeros.
__attribute__((target("avx2")))
static uint64_t required_present_32(const uint8_t *subject, size_t count, const cbytescan_required_texts *t) {
    __m256i tables[6];
    for (int i = 0; i < 6; i++) tables[i] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(t->nibbles + 16 * i)));
    uint64_t present = 0;
    size_t index = 0;
    for (; index + 34 <= count; index += 32) {
        if (required_in_block(subject, count, index, required_candidates(subject + index, tables), t, &present)) return present;
    }
    if (index < count) {
        uint8_t padded[64] __attribute__((aligned(32)));
        _mm256_store_si256((__m256i *)padded, _mm256_setzero_si256());
        _mm256_store_si256((__m256i *)(padded + 32), _mm256_setzero_si256());
        size_t left = count - index;  // 1 to 33
        copy_short(padded, subject + index, left < 32 ? left : 32);
        if (left > 32) padded[32] = subject[index + 32];
        unsigned mask = required_candidates(padded, tables);
        if (left < 32) mask &= (1u << left) - 1;  // not the padding
        if (required_in_block(subject, count, index, mask, t, &present)) return present;
        // The last byte, past the block when 33 are left: only a text that ends at its anchor
        // can stand there.
        if (left > 32 && t->first_by_byte[subject[count - 1]] >= 0) present = required_at(subject, count, count - 1, t, present);
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
