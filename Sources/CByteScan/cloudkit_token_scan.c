// The CloudKit token, `CoreData+CloudKit:`, wherever it stands near a message's start, and
// the logging method that follows it (`CloudKitToken` is the definition).
#include "prefix_scan.h"

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

void cbytescan_method_after_token(line_t l, int64_t after, int one_line, cbytescan_prefix *p) {
    after = skip_blanks(l, after);
    p->end = (int32_t)after;
    if (!cbytescan_method_read(l, after, one_line, p)) loose_method(l, after, p);
}

void cbytescan_take_cloudkit_token(const uint8_t *bytes, size_t count, int one_line, cbytescan_prefix *p) {
    line_t l = {bytes, (int64_t)count};
    take_cloudkit_token(l, one_line, p);
}
