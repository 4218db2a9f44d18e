// The CloudKit token, `CoreData+CloudKit:`, wherever it stands near a message's start, and
// the logging method that follows it (`CloudKitToken` is the definition).
#include "line_scan.h"

/// `CloudKitToken.find`: where `CoreData+CloudKit:` starts within 256 bytes of `start`, found
/// by its `+`; -1 when it is not there (or, unless `one_line`, only after a line feed).
STEP int64_t cloudkit_token(line_t l, int64_t start, int one_line) {
    if (start >= l.n) return -1;
    int64_t length = l.n - start < 256 ? l.n - start : 256;
    if (length < 18) return -1;
    int64_t at = start + 8;
    int64_t last_plus = start + length - 10;
    while (at <= last_plus) {
        const uint8_t *hit = memchr(l.b + at, '+', (size_t)(last_plus - at + 1));
        if (hit == NULL) return -1;
        int64_t found = hit - l.b - 8;
        if (memcmp(l.b + found, "CoreData+CloudKit:", 18) == 0) {
            return one_line || memchr(l.b + start, 0x0A, (size_t)(found - start)) == NULL ? found : -1;
        }
        at = hit - l.b + 1;
    }
    return -1;
}

int64_t cbytescan_cloudkit_token_find(const uint8_t *bytes, size_t count, size_t start, int one_line) {
    line_t l = {bytes, (int64_t)count};
    return cloudkit_token(l, (int64_t)start, one_line);
}

/// `CloudKitToken.looseMethod`: `-[Class selector]` (or `[Class selector]`) and any suffix
/// without blanks before `(line): `.
static int loose_method(line_t l, int64_t start, cbytescan_prefix *p) {
    if (start + 2 >= l.n) return 0;
    int64_t i = start;
    if (l.b[i] == '-' || l.b[i] == '+') i++;
    if (l.b[i] != '[') return 0;
    i++;
    int64_t limit = l.n < start + 400 ? l.n : start + 400;
    while (i < limit && l.b[i] != ']' && l.b[i] != 0x0A) i++;
    if (!(i < limit && l.b[i] == ']')) return 0;
    while (i < limit && l.b[i] != '(' && l.b[i] != ' ' && l.b[i] != 0x0A) i++;
    if (!(i < limit && l.b[i] == '(')) return 0;
    int64_t method_end = i;
    int64_t line = i + 1;
    i = skip_digits(l, line);
    if (!(i > line && i + 1 < l.n && l.b[i] == ')' && l.b[i + 1] == ':')) return 0;
    place(&p->method, start, method_end);
    place(&p->source_line, line, i);
    p->source_line_value = number(l, line, i);
    i += 2;
    if (byte_at(l, i, ' ')) i++;
    p->end = (int32_t)i;
    return 1;
}

void cbytescan_take_cloudkit_token(const uint8_t *bytes, size_t count, int one_line, cbytescan_prefix *p) {
    line_t l = {bytes, (int64_t)count};
    if (!(p->marker == CBYTESCAN_NO_MARKER || p->marker == CBYTESCAN_CORE_DATA_ERROR)) return;
    int64_t token = cloudkit_token(l, p->end, one_line);
    if (token < 0) return;
    p->marker = CBYTESCAN_CLOUDKIT;
    int64_t after = skip_blanks(l, token + 18);
    p->end = (int32_t)after;
    if (!cbytescan_method_read(l, after, one_line, p)) loose_method(l, after, p);
}
