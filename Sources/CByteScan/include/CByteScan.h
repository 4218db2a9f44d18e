// Byte scans that Swift's SIMD types do not compile to vector instructions (on Linux they
// come out as one comparison per lane, slower than the eight-byte bit tricks they would
// replace). Each has a plain C loop as its definition and, where the compiler targets SSE2
// (every x86-64) or AArch64's NEON (Apple silicon, arm64 Linux), a version that looks at
// sixteen bytes per step; the JSON escaper and the required-text scan take thirty-two where an
// x86-64 processor has AVX2, and the scan's sixteen a step take SSSE3 where it has that.
// Defining CBYTESCAN_PORTABLE builds the plain loops alone, CBYTESCAN_NO_AVX2 leaves AVX2 out,
// CBYTESCAN_NO_SSSE3 SSSE3 (scripts/test-byte-scans builds each).
#ifndef CBYTESCAN_H
#define CBYTESCAN_H

#include <stddef.h>
#include <stdint.h>

/// Bits `cbytescan_json_write` sets in `*seen`: a byte at or above 0x80 (the bytes may not be
/// UTF-8: the caller checks them), and a `#` (the text may hold `##[`, a GitHub workflow command).
#define CBYTESCAN_SEEN_NON_ASCII 1u
#define CBYTESCAN_SEEN_HASH 2u

/// Writes `bytes[0..<count]` into `out` as the inside of a JSON string, escaped as
/// `JSONText` escapes (`\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, any other byte below
/// 0x20 and DEL as `\u00xx`; every other byte as it is), and returns how many bytes it wrote.
/// `out` has room for `count * 6 + 16` bytes (every byte a six-byte `\u00xx`, and a block of
/// sixteen stored whole past the last byte written); those past the returned count may be
/// written over with anything. The `CBYTESCAN_SEEN_…` bits of what the bytes hold are
/// or-ed into `*seen`.
size_t cbytescan_json_write(uint8_t *out, const uint8_t *bytes, size_t count, unsigned *seen);

/// `cbytescan_json_write` held to blocks of sixteen whatever the processor has: for tests, so
/// that the path a processor without AVX2 takes is checked on one with it.
size_t cbytescan_json_write_narrow(uint8_t *out, const uint8_t *bytes, size_t count, unsigned *seen);

/// The offset of the first byte in `bytes[0..<count]` at or above 0x80 (the first that is
/// not ASCII); `count` when there is none.
size_t cbytescan_non_ascii(const uint8_t *bytes, size_t count);

/// Required texts (`RequiredTextScan`), laid out for `cbytescan_required_present`: text n is
/// `length[n]` bytes of `pool` from `start[n]`, looked for by its byte at `anchor[n]`, and
/// stands for the slots `slot_bit[n]`. `first_by_byte[b]` is the first text whose anchor byte
/// is b (-1: none), `next_text[n]` the next after text n; `anchor_bytes` every anchor byte once;
/// `all` the bits of every slot that has a text. `pair_bits`, 8,192 bytes: bit `b << 8 | c` set
/// when some text has b at its anchor and c after it (every c when its anchor is its last byte),
/// so that most anchor bytes of a subject are passed by one look. `head[n]`: text n's first eight
/// bytes as a word (as memcpy loads them), for a text of eight bytes or more: compared before the rest.
/// A text is looked for sharpest with at least four bytes from its anchor on (see `quads`).
typedef struct {
    const uint8_t *pool;
    const int32_t *start;
    const int32_t *length;
    const int32_t *anchor;
    const uint64_t *slot_bit;
    const int32_t *first_by_byte;
    const int32_t *next_text;
    const uint8_t *anchor_bytes;
    size_t anchor_count;
    uint64_t all;
    const uint8_t *pair_bits;
    const uint64_t *head;
    /// How common each byte is in logs, 0 the least (`RareByteSearch.rank(of:)`), or NULL (all
    /// alike): `cbytescan_required_prepare` puts texts in buckets by it.
    const uint8_t *byte_rank;
    /// 128 bytes that `cbytescan_required_prepare` fills: for each of the four bytes of a
    /// fingerprint (a text's bytes from its anchor on), the buckets whose fingerprints may have
    /// a byte there, by its low nibble (16 bytes) and by its high one (16 more).
    uint8_t *nibbles;
    /// 64 words (4,096 bits) that `cbytescan_required_prepare` fills: a bit for each text's four
    /// bytes from its anchor on, by a hash of them; `has_quads`, which it sets, is 0 when some
    /// text has fewer (then `quads` is not looked at).
    uint64_t *quads;
    int32_t has_quads;
} cbytescan_required_texts;

/// Fills `texts->nibbles` and `texts->quads` from its texts; called once, before any search.
void cbytescan_required_prepare(cbytescan_required_texts *texts);

/// The slots of `texts` one of whose texts stands in `subject[0..<count]`, in one pass over it
/// (thirty-two bytes a step where the processor has AVX2).
uint64_t cbytescan_required_present(const uint8_t *subject, size_t count, const cbytescan_required_texts *texts);

/// `cbytescan_required_present` sixteen bytes a step whatever the processor has: for tests.
uint64_t cbytescan_required_present_narrow(const uint8_t *subject, size_t count, const cbytescan_required_texts *texts);

/// The offset of the first colon in `bytes[start..<limit]` whose byte eight before it and
/// byte right before it may end a marker's first word (`LooseMarkers.quickPair`: `C`…`a`,
/// `C`…`t`, `e`…`r`); `limit` when there is none. `start` is at least 8: the byte eight
/// before each colon looked at is read.
size_t cbytescan_marker_colon(const uint8_t *bytes, size_t start, size_t limit);

/// Where a text lies in a line: `lower` -1 when it is nowhere (the layout of `TextPlace`).
typedef struct {
    int32_t lower;
    int32_t upper;
} cbytescan_place;

/// `HeaderStyle`, as `cbytescan_header_read` names it.
enum {
    CBYTESCAN_NSLOG = 0,
    CBYTESCAN_SYSLOG = 1,
    CBYTESCAN_LOG_SHOW = 2,
    CBYTESCAN_LOG_SHOW_SYSLOG = 3,
    CBYTESCAN_LOGGER = 4,
    CBYTESCAN_BARE = 5,
};

/// `Marker`, or none.
enum {
    CBYTESCAN_NO_MARKER = 0,
    CBYTESCAN_UBIQUITY = 1,
    CBYTESCAN_CORE_DATA_ERROR = 2,
    CBYTESCAN_STORE_MANAGER = 3,
    CBYTESCAN_CLOUDKIT = 4,
};

/// What follows a header: the logging method and its source line, the marker, and where the
/// message starts.
typedef struct {
    cbytescan_place method;
    cbytescan_place source_line;
    /// The source line's value; -1 when there is none or it has more than 18 digits.
    int64_t source_line_value;
    int32_t marker;
    int32_t end;
} cbytescan_prefix;

/// A header as `cbytescan_header_read` reads it.
typedef struct {
    int32_t style;
    /// Where the header ends and the prefix starts.
    int32_t end;
    cbytescan_place process, pid, thread, device, level;
    /// The pid's value; -1 when there is none or it has more than 18 digits.
    int64_t pid_value;
    /// The time's parts as read, not yet checked for a time that can exist (`year` -1: none).
    int32_t has_time, year, month, day, hour, minute, second, microsecond, fraction_digits;
    int32_t has_offset, offset_minutes;
    /// A zone whose minutes are 60 or more: the header has no time.
    int32_t damaged_zone;
    /// The time packed as `PackedTime` packs it, 0 when there is none or it cannot exist (see
    /// `cbytescan_pack_time`); its offset in minutes, INT16_MIN when there is none.
    uint64_t time_bits;
    int16_t time_offset;
    cbytescan_prefix prefix;
} cbytescan_header;

/// The first of `]`, `[` or a line feed in `bytes[start..<limit]`; `limit` when there is none
/// (`LooseMarkers.methodAt`'s search for the bracket that closes a method's name).
size_t cbytescan_bracket_stop(const uint8_t *bytes, size_t start, size_t limit);

/// Whether `bytes[0..<count]` (one line) starts with a header in one of the styles of
/// `HeaderParser.headerPattern`; if so, `header` holds it and what follows it (read as
/// `cbytescan_prefix_read` with `one_line`).
int cbytescan_header_read(const uint8_t *bytes, size_t count, cbytescan_header *header);

/// What follows a header, from `start`, as `HeaderParser.prefixPattern` reads it, then the
/// CloudKit token (`cbytescan_take_cloudkit_token`). `one_line`: `bytes` hold no line feed
/// and none is looked for.
void cbytescan_prefix_read(const uint8_t *bytes, size_t count, size_t start, int one_line, cbytescan_prefix *prefix);

/// `CoreData+CloudKit:` within 256 bytes of `prefix->end`, where the prefix has no marker or
/// Core Data's error marker: the marker becomes CloudKit's, and the message starts after the
/// token and a logging method after it.
void cbytescan_take_cloudkit_token(const uint8_t *bytes, size_t count, int one_line, cbytescan_prefix *prefix);

/// Packs a header's time parts into `time_bits` and `time_offset` (what `cbytescan_header_read`
/// does; for the pattern's reading).
void cbytescan_pack_time(cbytescan_header *header);

/// `log stream --style compact`'s type taken out of an NSLog header's process into its level
/// (what `cbytescan_header_read` does; for the pattern's reading of the same header).
void cbytescan_drop_compact_type(const uint8_t *bytes, size_t count, cbytescan_header *header);

/// Where `CoreData+CloudKit:` starts in `bytes` within 256 bytes of `start` (`CloudKitToken.find`);
/// -1 when it is not there, or (unless `one_line`) only after a line feed.
int64_t cbytescan_cloudkit_token_find(const uint8_t *bytes, size_t count, size_t start, int one_line);

/// What `cbytescan_plain_run` asks of a line before it takes it as a plain record.
typedef struct {
    /// The unmarked prefilter's tables (`UnmarkedPrefilter`): a message in which one of its
    /// texts stands is not plain.
    const cbytescan_required_texts *prefilter;
    /// The header styles that may start a record, one bit each (`1 << CBYTESCAN_NSLOG`, …).
    uint32_t allowed_styles;
    /// The longest line taken (the reader's and the assembler's caps: a longer line is cut).
    size_t max_line;
    /// `LooseMarkers.window`: how far past a header a marker is looked for.
    size_t marker_window;
} cbytescan_plain_rules;

/// A line `cbytescan_plain_run` took: where it lies (from the bytes it was given), where its
/// message starts, and its header as `cbytescan_header_read` read it.
typedef struct {
    int64_t start;
    int64_t count;
    int32_t body_start;
    int32_t style;
    cbytescan_place process, thread, device, level;
    int64_t pid_value;
    int64_t source_line_value;
    uint64_t time_bits;
    int16_t time_offset;
} cbytescan_plain_line;

/// The plain records at the start of `bytes[0..<count]` (whole lines, each ended by a line
/// feed), at most `room` of them, put in `lines`; `*taken` is where the first line not taken
/// starts. A line is taken when it is a record of one line that `HeaderParser.parse` and
/// `RecordAssembler` make a plain one (`RecordEntry.isPlain`): it starts with a header of an
/// allowed style other than bare, whose message has no marker, no logging method, nothing
/// `LooseMarkers.afterHeader` reads (a colon that may end a marker, a method's first byte), and
/// none of the prefilter's texts; and the line after it starts with such a header too (it
/// starts a record, so the line is one of its own). A line the reader would change (a CR
/// before its line feed, one over `max_line`) ends the run. Anything else is left to the caller.
size_t cbytescan_plain_run(const uint8_t *bytes, size_t count, const cbytescan_plain_rules *rules,
                           cbytescan_plain_line *lines, size_t room, size_t *taken);

/// How many processors this process may run on: on Linux the CPUs of its affinity mask (which
/// `taskset` and a container's cpuset narrow), elsewhere the processors online; at least 1.
int cbytescan_usable_processors(void);

#endif
