// Holds one build of Sources/CByteScan to plain reference loops written here, for
// scripts/test-byte-scans, which builds it several ways (AVX2, SSE2 alone, the portable
// loops, NEON under qemu) and compares what each prints.
//
//   equivalence [LOG_FILE ...]
//
// The byte scans (`cbytescan_json_write`, `_narrow`, `cbytescan_non_ascii`,
// `cbytescan_marker_colon`) are checked against the references on every length from 0 to 70,
// lengths around the blocks of 16 and 32 up to 1,100, every alignment to 16, and inputs
// random, clean, with one byte that matters at each place, with bytes of 0x80 and above,
// quotes, backslashes, DEL and control bytes. Each input ends where a page that may not be
// read starts, and each output buffer where the room the contract gives ends: a read or a
// write past them is a crash. `cbytescan_required_present` and its `_narrow` form are held to
// a search for each text in turn, on random sets of texts and subjects with texts planted at
// their start, their end and anywhere. The header reader (`cbytescan_header_read` and what
// follows a header) has no reference here (HeaderParserTests holds it to the patterns); the
// lines of the LOG_FILEs and bent copies of them are read, and what it found goes into the
// digest.
//
// Prints `checks N digest HEX` on success, where the digest covers every output: builds
// that differ in any output print different digests. On a mismatch, prints what differed and
// exits 1.
#include "CByteScan.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t next_random(void) {
    // xorshift64*: the same sequence on every build and machine.
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static size_t below(size_t n) { return (size_t)(next_random() % n); }

static uint64_t digest = 0xCBF29CE484222325ull;  // FNV-1a, 64 bits
static unsigned long checks = 0;
static unsigned long failures = 0;

static void mix_bytes(const void *data, size_t count) {
    const uint8_t *bytes = data;
    for (size_t i = 0; i < count; i++) {
        digest ^= bytes[i];
        digest *= 0x100000001B3ull;
    }
}

static void mix(uint64_t value) {
    uint8_t bytes[8];
    for (int i = 0; i < 8; i++) bytes[i] = (uint8_t)(value >> (8 * i));
    mix_bytes(bytes, 8);
}

static void show(const char *what, const uint8_t *bytes, size_t count) {
    fprintf(stderr, "  %s (%zu bytes):", what, count);
    for (size_t i = 0; i < count && i < 96; i++) fprintf(stderr, " %02x", bytes[i]);
    fprintf(stderr, count > 96 ? " ...\n" : "\n");
}

static void fail(const char *function, const char *what, const uint8_t *input, size_t count) {
    failures++;
    if (failures <= 20) {
        fprintf(stderr, "FAIL %s: %s\n", function, what);
        show("input", input, count);
    }
}

// ---- References: one byte at a time, from the contract in CByteScan.h.

static size_t ref_json_write(uint8_t *out, const uint8_t *bytes, size_t count, unsigned *seen) {
    static const char hex[] = "0123456789abcdef";
    size_t written = 0;
    for (size_t i = 0; i < count; i++) {
        uint8_t byte = bytes[i];
        if (byte >= 0x80) *seen |= CBYTESCAN_SEEN_NON_ASCII;
        if (byte == '#') *seen |= CBYTESCAN_SEEN_HASH;
        const char *short_escape = NULL;
        switch (byte) {
        case '"': short_escape = "\\\""; break;
        case '\\': short_escape = "\\\\"; break;
        case '\n': short_escape = "\\n"; break;
        case '\r': short_escape = "\\r"; break;
        case '\t': short_escape = "\\t"; break;
        case 0x08: short_escape = "\\b"; break;
        case 0x0C: short_escape = "\\f"; break;
        default: break;
        }
        if (short_escape != NULL) {
            out[written++] = (uint8_t)short_escape[0];
            out[written++] = (uint8_t)short_escape[1];
        } else if (byte < 0x20 || byte == 0x7F) {
            out[written++] = '\\';
            out[written++] = 'u';
            out[written++] = '0';
            out[written++] = '0';
            out[written++] = (uint8_t)hex[byte >> 4];
            out[written++] = (uint8_t)hex[byte & 0x0F];
        } else {
            out[written++] = byte;
        }
    }
    return written;
}

static size_t ref_non_ascii(const uint8_t *bytes, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (bytes[i] >= 0x80) return i;
    }
    return count;
}

static size_t ref_marker_colon(const uint8_t *bytes, size_t start, size_t limit) {
    for (size_t i = start; i < limit; i++) {
        if (bytes[i] != ':') continue;
        uint8_t first = bytes[i - 8], last = bytes[i - 1];
        if ((first == 'C' && (last == 'a' || last == 't')) || (first == 'e' && last == 'r') || (first == 'o' && last == 'a')) return i;
    }
    return limit;
}

/// `cbytescan_bracket_stop`'s reference, held to it as the byte scans above are to theirs.
static size_t ref_bracket_stop(const uint8_t *bytes, size_t start, size_t limit) {
    for (size_t i = start; i < limit; i++) {
        if (bytes[i] == ']' || bytes[i] == '[' || bytes[i] == '\n') return i;
    }
    return limit;
}

// ---- Buffers that end where an unreadable page starts.

typedef struct {
    uint8_t *base;
    size_t size;  // readable bytes before the guard page
} guarded;

static guarded guarded_make(size_t size) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t readable = (size + page - 1) / page * page;
    if (readable == 0) readable = page;
    uint8_t *map = mmap(NULL, readable + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED || mprotect(map + readable, page, PROT_NONE) != 0) {
        perror("equivalence: mmap");
        exit(2);
    }
    guarded buffer = {map, readable};
    return buffer;
}

/// Where `count` bytes placed in `buffer` end at its guard page.
static uint8_t *at_end(guarded buffer, size_t count) { return buffer.base + buffer.size - count; }

// ---- Inputs.

enum { MAX_INPUT = 1100 };

/// Bytes that matter to one scan or another.
static const uint8_t specials[] = {'"', '\\', '\n', '\r', '\t', 0x08, 0x0C, 0x00, 0x01, 0x1F, 0x20, 0x7E, 0x7F,
                                   0x80, 0xC3, 0xFF, '#', ':', 'C', 'a', 't', 'e', 'r'};

static uint8_t random_byte(int kind) {
    switch (kind) {
    case 0: return (uint8_t)next_random();                                  // any byte
    case 1: return (uint8_t)('a' + below(26));                             // clean ASCII
    case 2: return below(8) == 0 ? specials[below(sizeof specials)] : (uint8_t)(' ' + below(95));
    default: return below(3) == 0 ? ':' : (uint8_t)"CateratCroa: x"[below(14)];  // marker pairs
    }
}

static void fill(uint8_t *bytes, size_t count, int kind) {
    for (size_t i = 0; i < count; i++) bytes[i] = random_byte(kind);
}

// ---- The checks.

static uint8_t *expected_area;
static guarded input_page, output_page;

static void check_json(const char *name, size_t (*function)(uint8_t *, const uint8_t *, size_t, unsigned *),
                       const uint8_t *input, size_t count) {
    size_t room = count * 6 + 16;
    uint8_t *out = at_end(output_page, room);
    memset(out, 0xEE, room);
    unsigned seen = 4;  // a bit of the caller's own, which must stay
    size_t written = function(out, input, count, &seen);
    unsigned expected_seen = 4;
    size_t expected_written = ref_json_write(expected_area, input, count, &expected_seen);
    checks++;
    if (written != expected_written || memcmp(out, expected_area, written) != 0) {
        fail(name, "the escaped text differs from the reference", input, count);
        show("written", out, written < room ? written : room);
        show("expected", expected_area, expected_written);
    } else if (seen != expected_seen) {
        char what[96];
        snprintf(what, sizeof what, "seen is %u, the reference's %u", seen, expected_seen);
        fail(name, what, input, count);
    }
    mix(written);
    mix_bytes(out, written);
    mix(seen);
}

static void check_all(const uint8_t *bytes, size_t count) {
    // The input at the end of a readable page, so that a read past it faults.
    uint8_t *input = at_end(input_page, count);
    memcpy(input, bytes, count);

    check_json("cbytescan_json_write", cbytescan_json_write, input, count);
    check_json("cbytescan_json_write_narrow", cbytescan_json_write_narrow, input, count);

    size_t found = cbytescan_non_ascii(input, count), expected = ref_non_ascii(input, count);
    checks++;
    if (found != expected) {
        char what[96];
        snprintf(what, sizeof what, "%zu, the reference's %zu", found, expected);
        fail("cbytescan_non_ascii", what, input, count);
    }
    mix(found);

    if (count > 8) {
        // Every start from 8 over the first blocks, and a few limits short of the end.
        for (size_t start = 8; start < count && start < 8 + 34; start++) {
            // One draw a statement: C leaves the order within an initializer list open.
            size_t short_of_end = count - below(count - start + 1);
            size_t past_start = start + below(count - start + 1);
            size_t limits[3] = {count, short_of_end, past_start};
            for (int l = 0; l < 3; l++) {
                size_t limit = limits[l];
                size_t colon = cbytescan_marker_colon(input, start, limit);
                size_t expected_colon = ref_marker_colon(input, start, limit);
                checks++;
                if (colon != expected_colon) {
                    char what[128];
                    snprintf(what, sizeof what, "start %zu limit %zu: %zu, the reference's %zu", start, limit, colon,
                             expected_colon);
                    fail("cbytescan_marker_colon", what, input, count);
                }
                mix(colon);
            }
        }
    }
    // Every start over the first blocks, to the end and short of it.
    for (size_t start = 0; start <= count && start < 34; start++) {
        size_t limits[2] = {count, start + below(count - start + 1)};
        for (int l = 0; l < 2; l++) {
            size_t stop = cbytescan_bracket_stop(input, start, limits[l]);
            size_t expected_stop = ref_bracket_stop(input, start, limits[l]);
            checks++;
            if (stop != expected_stop) {
                char what[128];
                snprintf(what, sizeof what, "start %zu limit %zu: %zu, the reference's %zu", start, limits[l], stop, expected_stop);
                fail("cbytescan_bracket_stop", what, input, count);
            }
            mix(stop);
        }
    }
}

static void check_scans(void) {
    static uint8_t bytes[MAX_INPUT];
    size_t lengths[160];
    size_t n = 0;
    for (size_t length = 0; length <= 70; length++) lengths[n++] = length;
    const size_t more[] = {79, 80, 81, 95, 96, 97, 111, 112, 113, 127, 128, 129, 143, 144, 145, 159, 160, 161,
                           255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 1099, MAX_INPUT};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) lengths[n++] = more[i];

    for (size_t l = 0; l < n; l++) {
        size_t count = lengths[l];
        // Random texts of each kind.
        for (int kind = 0; kind < 4; kind++) {
            for (int round = 0; round < (count <= 70 ? 24 : 6); round++) {
                fill(bytes, count, kind);
                check_all(bytes, count);
            }
        }
        // Clean text with one byte that matters at each place (every place up to 70 bytes,
        // then the places around the blocks' edges and the end).
        for (size_t special = 0; special < sizeof specials; special++) {
            for (size_t at = 0; at < count; at++) {
                if (count > 70 && at % 16 != 0 && at % 16 != 15 && at + 17 < count) continue;
                fill(bytes, count, 1);
                bytes[at] = specials[special];
                check_all(bytes, count);
            }
        }
        // Many escapes in a row, and a marker's pair before every colon.
        memset(bytes, '"', count);
        check_all(bytes, count);
        memset(bytes, 0x01, count);
        check_all(bytes, count);
        for (size_t i = 0; i < count; i++) bytes[i] = "Cxxxxxxa:"[i % 9];
        check_all(bytes, count);
        // A method's brackets at every place.
        for (size_t at = 0; at < count && count <= 70; at++) {
            fill(bytes, count, 1);
            bytes[at] = "[]"[at % 2];
            check_all(bytes, count);
        }
    }
}

// ---- Required texts: `cbytescan_required_present` and `_narrow` against a search for each
// text in turn. The tables are laid out as `RequiredTextScan` lays them out, each text looked
// for by an anchor drawn at random: the contract holds whichever byte a text's anchor is. In
// half the sets the anchor leaves four bytes of a text from it on where it can, as
// `RequiredTextScan` chooses it, so that the sharper look (`quads`) and the block that ends
// three bytes before a subject's end are taken. Half the sets rank bytes at random (the ranks
// only put fingerprints in other buckets); most use all eight buckets.

enum { MAX_TEXTS = 24, MAX_TEXT = 12 };

typedef struct {
    uint8_t pool[MAX_TEXTS * MAX_TEXT];
    int32_t start[MAX_TEXTS], length[MAX_TEXTS], anchor[MAX_TEXTS], first_by_byte[256], next_text[MAX_TEXTS];
    uint64_t slot_bit[MAX_TEXTS], head[MAX_TEXTS];
    uint8_t anchor_bytes[256], pair_bits[1 << 13], nibbles[128], byte_rank[256];
    uint64_t quads[64];
    size_t count;
    cbytescan_required_texts texts;
} required_set;

/// Texts and subjects share a small alphabet, so that texts stand in subjects often, and
/// anchors and the pairs after them repeat.
static uint8_t required_byte(void) { return (uint8_t)"abcCK:E .\x80"[below(10)]; }

/// How many sets used all eight buckets.
static unsigned long full_sets = 0;

static void required_make(required_set *set, size_t count, int room, int ranked) {
    memset(set, 0, sizeof *set);
    for (int c = 0; c < 256; c++) set->byte_rank[c] = (uint8_t)below(96);
    set->count = count;
    memset(set->first_by_byte, 0xFF, sizeof set->first_by_byte);
    size_t slots = 1 + below(count < 63 ? count : 63);
    int32_t used = 0;
    uint64_t all = 0;
    for (size_t n = 0; n < count; n++) {
        int32_t length = room ? 4 + (int32_t)below(MAX_TEXT - 3) : 1 + (int32_t)below(MAX_TEXT);
        set->start[n] = used;
        set->length[n] = length;
        set->anchor[n] = (int32_t)below((size_t)(room && length >= 4 ? length - 3 : length));
        for (int32_t i = 0; i < length; i++) set->pool[used + i] = required_byte();
        if (length >= 8) memcpy(&set->head[n], set->pool + used, 8);
        set->slot_bit[n] = 1ull << below(slots);
        all |= set->slot_bit[n];
        used += length;
    }
    size_t anchors = 0;
    for (size_t n = count; n-- > 0;) {
        uint8_t byte = set->pool[set->start[n] + set->anchor[n]];
        if (set->first_by_byte[byte] < 0) set->anchor_bytes[anchors++] = byte;
        set->next_text[n] = set->first_by_byte[byte];
        set->first_by_byte[byte] = (int32_t)n;
        for (unsigned next = 0; next < 256; next++) {
            int last = set->anchor[n] + 1 == set->length[n];
            if (!last && next != set->pool[set->start[n] + set->anchor[n] + 1]) continue;
            unsigned pair = (unsigned)byte << 8 | next;
            set->pair_bits[pair >> 3] |= (uint8_t)(1u << (pair & 7));
        }
    }
    cbytescan_required_texts texts = {set->pool, set->start, set->length, set->anchor, set->slot_bit,
                                      set->first_by_byte, set->next_text, set->anchor_bytes, anchors, all,
                                      set->pair_bits, set->head, ranked ? set->byte_rank : NULL, set->nibbles,
                                      set->quads, 0};
    set->texts = texts;
    cbytescan_required_prepare(&set->texts);
    uint8_t buckets = 0;
    for (int i = 0; i < 16; i++) buckets |= set->nibbles[i];
    if (buckets == 0xFF) full_sets++;
}

static uint64_t ref_required_present(const uint8_t *subject, size_t count, const required_set *set) {
    uint64_t present = 0;
    for (size_t n = 0; n < set->count; n++) {
        size_t length = (size_t)set->length[n];
        for (size_t at = 0; at + length <= count; at++) {
            if (memcmp(subject + at, set->pool + set->start[n], length) == 0) {
                present |= set->slot_bit[n];
                break;
            }
        }
    }
    return present;
}

/// `bytes[0..<count]`, at the end of a page, searched both ways and by the reference.
static void required_compare(const required_set *set, const uint8_t *bytes, size_t count) {
    uint8_t *input = at_end(input_page, count);
    memcpy(input, bytes, count);
    uint64_t expected = ref_required_present(input, count, set);
    uint64_t found = cbytescan_required_present(input, count, &set->texts);
    uint64_t narrow = cbytescan_required_present_narrow(input, count, &set->texts);
    checks += 2;
    if (found != expected || narrow != expected) {
        char what[128];
        snprintf(what, sizeof what, "%016llx (narrow %016llx), the reference's %016llx", (unsigned long long)found,
                 (unsigned long long)narrow, (unsigned long long)expected);
        fail("cbytescan_required_present", what, input, count);
    }
    mix(found);
    mix(narrow);
}

static void check_required(void) {
    static required_set set;
    static uint8_t bytes[MAX_INPUT];
    const size_t lengths[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 100, 255, 256, 257};
    for (int round = 0; round < 400; round++) {
        required_make(&set, 1 + below(MAX_TEXTS), round % 2, round / 2 % 2);
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
            size_t count = lengths[l];
            for (int subject = 0; subject < 4; subject++) {
                for (size_t i = 0; i < count; i++) bytes[i] = required_byte();
                // A text planted at the start, the end or anywhere, whole or cut by the end.
                size_t n = below(set.count);
                size_t length = (size_t)set.length[n];
                if (count > 0) {
                    size_t at = subject == 0 ? 0 : subject == 1 ? (count > length ? count - length : 0) : below(count);
                    size_t room = count - at < length ? count - at : length;
                    memcpy(bytes + at, set.pool + set.start[n], room);
                }
                required_compare(&set, bytes, count);
            }
        }
    }
}

// Texts of a set planted at every place in subjects of every length up to 72 (two blocks of
// thirty-two and the three bytes after them: both ends of each block, the subject's last
// bytes), whole or cut by the subject's end.
static void check_required_planted(void) {
    static required_set set;
    static uint8_t bytes[MAX_INPUT];
    for (int round = 0; round < 24; round++) {
        required_make(&set, 1 + below(MAX_TEXTS), round % 2, round / 2 % 2);
        for (int planted = 0; planted < 2; planted++) {
            size_t n = below(set.count);
            size_t length = (size_t)set.length[n];
            for (size_t count = 0; count <= 72; count++) {
                for (size_t at = 0; at <= count; at++) {
                    for (size_t i = 0; i < count; i++) bytes[i] = required_byte();
                    size_t room = count - at < length ? count - at : length;
                    memcpy(bytes + at, set.pool + set.start[n], room);
                    required_compare(&set, bytes, count);
                }
            }
        }
    }
    if (full_sets == 0) fail("cbytescan_required_prepare", "no set used all eight buckets", NULL, 0);
}

// ---- The header reader: its outputs into the digest.

static void mix_place(cbytescan_place place) {
    mix((uint64_t)(int64_t)place.lower);
    mix((uint64_t)(int64_t)place.upper);
}

static void mix_prefix(const cbytescan_prefix *prefix) {
    mix_place(prefix->method);
    mix_place(prefix->source_line);
    mix((uint64_t)prefix->source_line_value);
    mix((uint64_t)(int64_t)prefix->marker);
    mix((uint64_t)(int64_t)prefix->end);
}

static void read_header(const uint8_t *line, size_t count) {
    // The line at the end of a readable page, as the byte scans' inputs are.
    uint8_t *input = at_end(input_page, count);
    memcpy(input, line, count);
    cbytescan_header header;
    memset(&header, 0, sizeof header);
    int matched = cbytescan_header_read(input, count, &header);
    mix((uint64_t)matched);
    if (matched) {
        mix((uint64_t)(int64_t)header.style);
        mix((uint64_t)(int64_t)header.end);
        mix_place(header.process);
        mix_place(header.pid);
        mix_place(header.thread);
        mix_place(header.device);
        mix_place(header.level);
        mix((uint64_t)header.pid_value);
        const int32_t times[] = {header.has_time, header.year, header.month, header.day, header.hour,
                                 header.minute, header.second, header.microsecond, header.fraction_digits,
                                 header.has_offset, header.offset_minutes, header.damaged_zone};
        for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) mix((uint64_t)(int64_t)times[i]);
        mix(header.time_bits);
        mix((uint64_t)(int64_t)header.time_offset);
        mix_prefix(&header.prefix);
    }
    cbytescan_prefix prefix;
    memset(&prefix, 0, sizeof prefix);
    cbytescan_prefix_read(input, count, 0, 0, &prefix);
    mix_prefix(&prefix);
    mix((uint64_t)cbytescan_cloudkit_token_find(input, count, 0, 0));
    checks++;
}

static void check_headers(const char *path) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        perror(path);
        exit(2);
    }
    static uint8_t line[MAX_INPUT];
    size_t count = 0;
    int c;
    for (;;) {
        c = fgetc(file);
        if (c == EOF || c == '\n' || count == sizeof line) {
            read_header(line, count);
            // Bent copies: a byte changed, the line cut short.
            for (int round = 0; round < 4 && count > 0; round++) {
                static uint8_t bent[MAX_INPUT];
                memcpy(bent, line, count);
                // One draw a statement, as above.
                size_t at = below(count);
                bent[at] = random_byte(round % 3);
                read_header(bent, count);
                read_header(line, below(count));
            }
            count = 0;
            if (c == EOF) break;
            if (c == '\n') continue;
        }
        line[count++] = (uint8_t)c;
    }
    fclose(file);
}

int main(int argc, char **argv) {
    input_page = guarded_make(MAX_INPUT);
    output_page = guarded_make(MAX_INPUT * 6 + 16);
    expected_area = malloc(MAX_INPUT * 6 + 16);
    if (expected_area == NULL) return 2;

    check_scans();
    check_required();
    check_required_planted();
    for (int i = 1; i < argc; i++) check_headers(argv[i]);

    if (failures > 0) {
        fprintf(stderr, "%lu of %lu checks failed\n", failures, checks);
        return 1;
    }
    printf("checks %lu digest %016llx\n", checks, (unsigned long long)digest);
    return 0;
}
