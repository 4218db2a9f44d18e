// What follows a header (or starts a message without one), read by steps that the header
// reader (header_scan.c) inlines: every header line passes here, and a call and its
// saved registers cost more than what most lines do here (no method, no marker, no token).
// The rare parts, a logging method and what follows a CloudKit token, are calls.
// `HeaderParser.prefixPattern` and `CloudKitToken` are the definitions; `HeaderParserTests`
// holds this to them. Private to CByteScan.
#ifndef CBYTESCAN_PREFIX_SCAN_H
#define CBYTESCAN_PREFIX_SCAN_H

#include "line_scan.h"

/// `(?:__\d+)?[-+]\[[^\]\n]{1,400}\](?:_?block_invoke(?:_\d+)?)?\((\d+)\):[ ]?` at `start`
/// (prefix_scan.c); the CloudKit token's reader reads the method after the token with it too.
__attribute__((visibility("hidden"))) int cbytescan_method_read(line_t l, int64_t start, int one_line, cbytescan_prefix *p);

/// The logging method after a CloudKit token that ends at `after` (cloudkit_token_scan.c).
__attribute__((visibility("hidden"))) void cbytescan_method_after_token(line_t l, int64_t after, int one_line, cbytescan_prefix *p);

/// `(?:CoreData:[ ]Ubiquity:[ \t]*)+`, `CoreData:[ ](?:(?:error|fault):[ ]?|(?=Illegal[ ]attempt[ ]))`
/// or `UbiquityStoreManager:[ ]?` at `p->end`. Every marker starts with `CoreData` or
/// `Ubiquity`: with eight bytes left, one load and two comparisons (that nearly always fail,
/// so that the branch is foretold) leave a message without one.
STEP void marker(line_t l, cbytescan_prefix *p) {
    int64_t start = p->end;
    if (start >= 0 && start + 8 <= l.n) {
        uint64_t word = word_at(l, start), core_data, ubiquity;
        memcpy(&core_data, "CoreData", 8);
        memcpy(&ubiquity, "Ubiquity", 8);
        if (word != core_data && word != ubiquity) return;
    }
    if (HAS(l, start, "UbiquityStoreManager:")) {
        p->marker = CBYTESCAN_STORE_MANAGER;
        p->end = (int32_t)(byte_at(l, start + 21, ' ') ? start + 22 : start + 21);
        return;
    }
    if (!HAS(l, start, "CoreData: ")) return;
    int64_t after = start + 10;
    if (HAS(l, after, "Ubiquity:")) {
        int64_t i = after + 9;
        for (;;) {
            i = skip_blanks(l, i);
            if (!HAS(l, i, "CoreData: Ubiquity:")) break;
            i += 19;
        }
        p->marker = CBYTESCAN_UBIQUITY;
        p->end = (int32_t)i;
    } else if (HAS(l, after, "error:") || HAS(l, after, "fault:")) {
        p->marker = CBYTESCAN_CORE_DATA_ERROR;
        p->end = (int32_t)(byte_at(l, after + 6, ' ') ? after + 7 : after + 6);
    } else if (HAS(l, after, "Illegal attempt ")) {
        p->marker = CBYTESCAN_CORE_DATA_ERROR;
        p->end = (int32_t)after;
    }
}

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

/// `cbytescan_take_cloudkit_token`.
STEP void take_cloudkit_token(line_t l, int one_line, cbytescan_prefix *p) {
    if (!(p->marker == CBYTESCAN_NO_MARKER || p->marker == CBYTESCAN_CORE_DATA_ERROR)) return;
    int64_t token = cloudkit_token(l, p->end, one_line);
    if (token < 0) return;
    p->marker = CBYTESCAN_CLOUDKIT;
    cbytescan_method_after_token(l, token + 18, one_line, p);
}

/// `cbytescan_prefix_read`.
STEP void prefix_read(line_t l, int64_t start, int one_line, cbytescan_prefix *p) {
    no_place(&p->method);
    no_place(&p->source_line);
    p->source_line_value = -1;
    p->marker = CBYTESCAN_NO_MARKER;
    p->end = (int32_t)start;
    if (start > l.n) return;
    // A method starts with `__`, `-` or `+`: most messages start with none, and pass no call.
    uint8_t first = start < l.n ? l.b[start] : 0;
    if (first == '_' || first == '-' || first == '+') cbytescan_method_read(l, start, one_line, p);
    marker(l, p);
    take_cloudkit_token(l, one_line, p);
}

#endif
