// The plain lines of a device console, read in one loop: most of its lines are other
// processes' records of one line, which the reader makes plain (`RecordEntry.isPlain`) and
// nothing after it reads but their process. `RecordAssembler`, `HeaderParser.parse` and
// `LooseMarkers.afterHeader` are the definition; this takes a line only where they surely make
// it a plain record of one line, and leaves every other line to them (`PlainRunTests` holds
// the two equal on the fixtures and generated logs).
#include <string.h>
#include "CByteScan.h"

/// `HeaderParser.canStartHeader`: a table, one load a line, where a switch on the byte takes a
/// jump or a run of comparisons that the mix of styles leaves unforeseen.
static const uint8_t header_starts[256] = {
    ['0' ... '9'] = 1, ['J'] = 1, ['F'] = 1, ['M'] = 1, ['A'] = 1, ['S'] = 1, ['O'] = 1, ['N'] = 1, ['D'] = 1,
    ['C'] = 1, ['U'] = 1, ['-'] = 1, ['+'] = 1, ['_'] = 1,
};

static int can_start_header(uint8_t c) { return header_starts[c]; }

/// Whether `line` starts a record with a header of an allowed style other than bare, read
/// into `h`: `HeaderParser.parse` returns where its body starts, and the assembler opens a
/// record (a bare header alone may continue the open one, `continuesWrapped`).
static int starts_record(const uint8_t *line, size_t count, const cbytescan_plain_rules *rules, cbytescan_header *h) {
    if (count == 0 || count > rules->max_line || line[count - 1] == '\r' || !can_start_header(line[0])) return 0;
    if (!cbytescan_header_read(line, count, h) || h->style == CBYTESCAN_BARE) return 0;
    return (rules->allowed_styles >> h->style) & 1;
}

/// Whether the line read into `h` is plain: nothing `LooseMarkers.afterHeader` would read after
/// its header (so the header's reading stands, and its body starts at `h->prefix.end`), no
/// marker, and none of the prefilter's texts in its message.
static int is_plain(const uint8_t *line, size_t count, const cbytescan_plain_rules *rules, const cbytescan_header *h) {
    if (h->prefix.marker != CBYTESCAN_NO_MARKER || h->prefix.method.lower >= 0 || h->style == CBYTESCAN_LOGGER) return 0;
    size_t end = (size_t)h->prefix.end;
    if (end < count) {
        // `LooseMarkers.firstMarker`: a colon that may end a marker's first word.
        size_t limit = end + rules->marker_window < count ? end + rules->marker_window : count;
        if (cbytescan_marker_colon(line, end + 8, limit) < limit) return 0;
        // `LooseMarkers.mayStartMethod` past the blanks.
        size_t at = end;
        while (at < count && (line[at] == ' ' || line[at] == '\t')) at++;
        if (at < count && (line[at] == '_' || line[at] == '-' || line[at] == '+' || line[at] == '[')) return 0;
    }
    size_t body = end < count ? end : count;
    if (rules->prefilter->all == 0) return 1;
    return cbytescan_required_present(line + body, count - body, rules->prefilter) == 0;
}

size_t cbytescan_plain_run(const uint8_t *bytes, size_t count, const cbytescan_plain_rules *rules,
                           cbytescan_plain_line *lines, size_t room, size_t *taken) {
    size_t made = 0;
    size_t start = 0;
    *taken = 0;
    const uint8_t *newline = memchr(bytes, '\n', count);
    if (newline == NULL) return 0;
    size_t length = (size_t)(newline - bytes);
    // Two headers, the line's and the next one's, which take turns.
    cbytescan_header headers[2];
    cbytescan_header *h = &headers[0], *next = &headers[1];
    if (!starts_record(bytes, length, rules, h) || !is_plain(bytes, length, rules, h)) return 0;
    while (made < room) {
        // The line from `start` is plain; the line after it decides whether it is a record
        // of one line.
        size_t following = start + length + 1;
        if (following >= count) break;
        const uint8_t *found = memchr(bytes + following, '\n', count - following);
        if (found == NULL) break;
        size_t next_length = (size_t)(found - (bytes + following));
        if (!starts_record(bytes + following, next_length, rules, next)) break;
        cbytescan_plain_line *line = &lines[made++];
        line->start = (int64_t)start;
        line->count = (int64_t)length;
        line->body_start = h->prefix.end;
        line->style = h->style;
        line->process = h->process;
        line->thread = h->thread;
        line->device = h->device;
        line->level = h->level;
        line->pid_value = h->pid_value;
        line->source_line_value = h->prefix.source_line_value;
        line->time_bits = h->time_bits;
        line->time_offset = h->time_offset;
        *taken = following;
        if (!is_plain(bytes + following, next_length, rules, next)) break;
        start = following;
        length = next_length;
        cbytescan_header *read = h;
        h = next;
        next = read;
    }
    return made;
}
