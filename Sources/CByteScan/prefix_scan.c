// What follows a header (or starts a message without one): the logging method and its
// source line, then the marker, then the CloudKit token (cloudkit_token_scan.c).
// `HeaderParser.prefixPattern` is the definition, and `HeaderParserTests` holds this to it
// (where the prefix ends, its method, source line and marker).
#include "prefix_scan.h"

/// `(?:__\d+)?[-+]\[[^\]\n]{1,400}\](?:_?block_invoke(?:_\d+)?)?\((\d+)\):[ ]?` at `start`
/// (`]block_invoke`, without its underscore, as Apple's technotes print one CloudKit method).
/// `one_line`: no line feed is looked for before the `]` (a header's line has none).
int cbytescan_method_read(line_t l, int64_t start, int one_line, cbytescan_prefix *p) {
    int64_t i = start;
    if (HAS(l, i, "__")) {
        int64_t digits = skip_digits(l, i + 2);
        if (digits == i + 2) return 0;
        i = digits;
    }
    if (!(i + 1 < l.n && (l.b[i] == '-' || l.b[i] == '+') && l.b[i + 1] == '[')) return 0;
    int64_t name = i + 2;
    if (name >= l.n) return 0;
    int64_t window = (l.n < name + 401 ? l.n : name + 401) - name;
    const uint8_t *close = memchr(l.b + name, ']', (size_t)window);
    if (close == NULL) return 0;
    i = close - l.b;
    if (i == name || (!one_line && memchr(l.b + name, 0x0A, (size_t)(i - name)) != NULL)) return 0;
    i++;
    if (byte_at(l, i, '_') && HAS(l, i + 1, "block_invoke")) i++;
    if (HAS(l, i, "block_invoke")) {
        i += 12;
        if (byte_at(l, i, '_')) {
            int64_t digits = skip_digits(l, i + 1);
            if (digits > i + 1) i = digits;
        }
    }
    int64_t method_end = i;
    if (!byte_at(l, i, '(')) return 0;
    int64_t line = i + 1;
    i = skip_digits(l, line);
    if (i == line || !HAS(l, i, "):")) return 0;
    place(&p->method, start, method_end);
    place(&p->source_line, line, i);
    p->source_line_value = number(l, line, i);
    i += 2;
    if (byte_at(l, i, ' ')) i++;
    p->end = (int32_t)i;
    return 1;
}

size_t cbytescan_bracket_stop(const uint8_t *bytes, size_t start, size_t limit) {
    line_t l = {bytes, (int64_t)limit};
    int64_t i = (int64_t)start;
#if defined(LINE_BLOCKS)
    for (; i + 16 <= l.n; i += 16) {
        unsigned found = block_lanes_of(l.b + i, ']') | block_lanes_of(l.b + i, '[') | block_lanes_of(l.b + i, 0x0A);
        if (found) return (size_t)(i + __builtin_ctz(found));
    }
#endif
    for (; i + 8 <= l.n; i += 8) {
        uint64_t word = word_at(l, i);
        uint64_t found = lanes_of(word, ']') | lanes_of(word, '[') | lanes_of(word, 0x0A);
        if (found) return (size_t)(i + lowest_lane(found));
    }
    for (; i < l.n; i++) {
        if (l.b[i] == ']' || l.b[i] == '[' || l.b[i] == 0x0A) break;
    }
    return (size_t)i;
}

void cbytescan_prefix_read(const uint8_t *bytes, size_t count, size_t start, int one_line, cbytescan_prefix *p) {
    line_t l = {bytes, (int64_t)count};
    prefix_read(l, (int64_t)start, one_line, p);
}
