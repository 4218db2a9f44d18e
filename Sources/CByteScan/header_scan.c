// The header styles, read byte by byte in one pass over a line's start:
// `HeaderParser.headerPattern` is the definition, and `HeaderParserTests` holds this to it on
// every fixture line and on thousands of bent headers (style, every field, the time, where the
// header ends). What follows a header is read by prefix_scan.h's steps, inlined here.
//
// Every style is one function that writes its fields straight into the one struct the caller
// reads, called once a line (`HeaderParser.parse`, which owns the unsafe side): no
// intermediate value is made, no field passes through an optional, and the small steps are
// inlined. The reading itself must stay cheap: dates and clocks are read eight bytes at a time
// as one word; digits, blanks, the bytes before a stop and the runs of a class sixteen at a
// time where SSE2 is there, eight otherwise (line_scan.h); other byte classes come from a table.
//
// Where a pattern's quantifiers could backtrack, the comment says why the first way the
// pattern finds is the one taken here.
#include "prefix_scan.h"

/// What each byte may be, one bit per class: a load and a test a byte, in place of the
/// several comparisons a class stands for (`[0-9A-Fa-fx]` for a thread). The runs of a class
/// that the common headers hold (a device, a level, hex digits) are read sixteen or eight bytes
/// at a time instead (`line_scan.h`).
enum { C_THREAD = 1, C_UPPER = 2 };
static const uint8_t classes[256] = {
    ['0' ... '9'] = C_THREAD,
    ['a' ... 'f'] = C_THREAD,
    ['x'] = C_THREAD,
    ['A' ... 'F'] = C_THREAD | C_UPPER,
    ['G' ... 'Z'] = C_UPPER,
};

STEP int is_class(uint8_t c, int mask) { return (classes[c] & mask) != 0; }

STEP int two(line_t l, int64_t i) { return (l.b[i] - '0') * 10 + (l.b[i + 1] - '0'); }

/// Whether the eight bytes of `word` have a shape: `digit_lanes` 0xFF where a digit must
/// stand, `literal` the other bytes (0 in the digit lanes). Each digit lane less '0' leaves
/// 0–9 exactly for a digit, to which adding 0x76 leaves the top bit clear (what a lane of
/// 0x8A or more carries into the next does not matter: the word is refused either way).
STEP int shape(uint64_t word, uint64_t digit_lanes, uint64_t literal) {
    if ((word & ~digit_lanes) != literal) return 0;
    uint64_t values = (word ^ 0x3030303030303030ULL) & digit_lanes;
    return ((values | (values + 0x7676767676767676ULL)) & digit_lanes & 0x8080808080808080ULL) == 0;
}

// `dd:dd:dd`, `dddd-dd-` and `dddd/dd/` as shapes (the first byte in the lowest lane).
#define CLOCK_DIGITS 0xFFFF00FFFF00FFFFULL
#define CLOCK_LITERAL (((uint64_t)':' << 16) | ((uint64_t)':' << 40))
#define DATE_DIGITS 0x00FFFF00FFFFFFFFULL
#define DATE_LITERAL(sep) (((uint64_t)(sep) << 32) | ((uint64_t)(sep) << 56))

/// The digits of a word of a checked shape as two-digit numbers: each digit lane holds ten
/// times its digit plus the next lane's.
STEP uint64_t digit_pairs(uint64_t word, uint64_t digit_lanes) {
    uint64_t values = (word ^ 0x3030303030303030ULL) & digit_lanes;
    return values * 10 + (values >> 8);
}

STEP int lane(uint64_t word, int index) { return (int)((word >> (8 * index)) & 0xFF); }

/// `dd:dd:dd` at `i` (which the caller has checked leaves eight bytes).
STEP int clock_at(line_t l, int64_t i) { return shape(word_at(l, i), CLOCK_DIGITS, CLOCK_LITERAL); }

/// `dddd` then `sep` `dd` `sep` `dd` from byte 0 (the caller has checked nineteen bytes are
/// there): the date and clock start every record of the common styles, so they are read as
/// words, not a byte at a time.
STEP int date_at(line_t l, uint8_t sep) {
    return shape(word_at(l, 0), DATE_DIGITS, DATE_LITERAL(sep)) && is_digit(l.b[8]) && is_digit(l.b[9]);
}

/// `(?:[.:,](?<frac>\d{1,6}))?` at `*at`: if a separator is there, its digits must be too.
STEP int fraction(line_t l, int64_t *at, cbytescan_header *h) {
    int64_t i = *at;
    if (i >= l.n || !(l.b[i] == '.' || l.b[i] == ':' || l.b[i] == ',')) return 1;
    i++;
    int64_t start = i;
    int32_t value = 0;
    if (i + 8 <= l.n) {
        // Eight bytes left (every header: a blank or a zone follows): the digits counted and
        // read as one word, scaled to six digits by their place in it.
        uint64_t word = word_at(l, i), found = non_digits(word);
        if (found) {
            int64_t digits = lowest_lane(found);
            if (digits < 1 || digits > 6) return 0;
            uint64_t kept = (word ^ 0x3030303030303030ULL) & ((1ULL << (8 * digits)) - 1);
            h->microsecond = (int32_t)decimal((kept << 16) ^ 0x3030303030303030ULL, 8);
            h->fraction_digits = (int32_t)digits;
            *at = i + digits;
            return 1;
        }
    }
    while (i < l.n && is_digit(l.b[i]) && i - start < 7) value = value * 10 + (l.b[i++] - '0');
    int64_t digits = i - start;
    if (digits < 1 || digits > 6) return 0;
    static const int32_t scale[7] = {1, 100000, 10000, 1000, 100, 10, 1};
    h->microsecond = value * scale[digits];
    h->fraction_digits = (int32_t)digits;
    *at = i;
    return 1;
}

/// The days of each month (`LogTime.daysIn`), February's 29: a February without a year may have them.
static const uint8_t month_days[16] = {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31, 0, 0, 0};

STEP int is_leap(int year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

/// The time's parts, as read, packed into `time_bits` and `time_offset` as `PackedTime` packs
/// them. Each style calls this, inlined, with the parts it read: the ones a style lacks (a
/// syslog header's year, fraction and zone) are constants there, and fold away.
STEP void pack(cbytescan_header *h, int year, int month, int day, int hour, int minute, int second, int microsecond,
               int fraction_digits, int has_offset, int offset, int damaged_zone) {
    unsigned days = (unsigned)month <= 12 ? month_days[month] : 0;
    if (month == 2 && year >= 0 && !is_leap(year)) days = 28;
    // The checks of `LogTime.isValid` (`PackedTime.init(checkedYear:…)`), each a 0 or 1 and
    // all taken together, in one branch: a header whose time cannot exist still starts a
    // record, without a time.
    int valid = (damaged_zone == 0) & ((unsigned)(day - 1) < days) & (hour < 24) & (minute < 60) & (second <= 60) &
                ((has_offset == 0) | ((unsigned)(offset + 14 * 60) <= 28 * 60));
    uint64_t bits = 1ULL << 63;
    bits |= (uint64_t)(year + 1) << 49;
    bits |= (uint64_t)month << 45;
    bits |= (uint64_t)day << 40;
    bits |= (uint64_t)hour << 35;
    bits |= (uint64_t)minute << 29;
    bits |= (uint64_t)second << 23;
    bits |= (uint64_t)microsecond << 3;
    bits |= (uint64_t)fraction_digits;
    // Conditional moves: whether a header has a zone changes with the style, line by line in
    // a mixed console.
    h->time_bits = valid ? bits : 0;
    h->time_offset = valid && has_offset ? (int16_t)offset : INT16_MIN;
}

/// The date and clock of a header that starts `dddd-dd-dd dd:dd:dd` (or with slashes), from
/// the words they were checked in; then the time packed, with the fraction and zone read.
STEP void date_and_clock(line_t l, cbytescan_header *h) {
    uint64_t date = digit_pairs(word_at(l, 0), DATE_DIGITS), clock = digit_pairs(word_at(l, 11), CLOCK_DIGITS);
    int year = lane(date, 0) * 100 + lane(date, 2), month = lane(date, 5), day = two(l, 8);
    int hour = lane(clock, 0), minute = lane(clock, 3), second = lane(clock, 6);
    h->has_time = 1;
    h->year = year;
    h->month = month;
    h->day = day;
    h->hour = hour;
    h->minute = minute;
    h->second = second;
    pack(h, year, month, day, hour, minute, second, h->microsecond, h->fraction_digits, h->has_offset, h->offset_minutes,
         h->damaged_zone);
}

/// `[+-]\d\d:?\d\d` at `*at`; the offset is set, or the time marked damaged (+9999).
STEP int zone(line_t l, int64_t *at, cbytescan_header *h) {
    int64_t i = *at;
    int sign = l.b[i] == '-' ? -1 : 1;
    i++;
    if (!(i + 2 <= l.n && is_digit(l.b[i]) && is_digit(l.b[i + 1]))) return 0;
    int hours = two(l, i);
    i += 2;
    if (i < l.n && l.b[i] == ':') i++;
    if (!(i + 2 <= l.n && is_digit(l.b[i]) && is_digit(l.b[i + 1]))) return 0;
    int minutes = two(l, i);
    i += 2;
    h->has_offset = 1;
    h->offset_minutes = sign * (hours * 60 + minutes);
    // +9999 is no offset (it read as +100:39): the time is damaged.
    h->damaged_zone = minutes >= 60;
    *at = i;
    return 1;
}

/// After the `log show` styles' `:[ \t]`: past `(?:\([^)\n]{1,100}\)[ \t])?`.
STEP int64_t after_subsystem(line_t l, int64_t start) {
    if (!byte_at(l, start, '(')) return start;
    int64_t close = first_of(l, start + 1, ')');
    if (close < 0 || close - (start + 1) < 1 || close - (start + 1) > 100 || !is_blank_at(l, close + 1)) return start;
    return close + 2;
}

/// `0x[0-9a-fA-F]+` at `*at`.
STEP int hex(line_t l, int64_t *at) {
    int64_t i = *at;
    if (!(i + 1 < l.n && l.b[i] == '0' && l.b[i + 1] == 'x')) return 0;
    i += 2;
    int64_t start = i;
    i = RUN(l, i, hex);
    if (i == start) return 0;
    *at = i;
    return 1;
}

/// `(?<process>[^\[\n]{1,200}?)\[(?<pid>\d+)\]` at `*at`: the process runs to the first `[` (it
/// cannot hold one, so no later `[` is tried).
STEP int process_and_pid(line_t l, int64_t *at, cbytescan_header *h) {
    int64_t start = *at;
    int64_t bracket = first_of(l, start, '[');
    if (bracket < 0 || bracket - start < 1 || bracket - start > 200) return 0;
    int64_t pid = bracket + 1;
    int64_t end = skip_digits(l, pid);
    if (end == pid || !byte_at(l, end, ']')) return 0;
    place(&h->process, start, bracket);
    place(&h->pid, pid, end);
    h->pid_value = number(l, pid, end);
    *at = end + 1;
    return 1;
}

/// `log show` after the zone: `  0x2f1c  Default  0x0  412  0  Journal: ` (the second number optional).
static int log_show(line_t l, int64_t at, cbytescan_header *h) {
    int64_t i = skip_blanks(l, at);
    if (i == at) return 0;
    int64_t thread = i;
    if (!hex(l, &i)) return 0;
    int64_t thread_end = i;
    int64_t next = skip_blanks(l, i);
    if (next == i) return 0;
    i = next;
    // `[A-Z][a-z]+`
    int64_t level = i;
    if (!(i < l.n && is_class(l.b[i], C_UPPER))) return 0;
    i++;
    i = RUN(l, i, lower);
    if (i == level + 1) return 0;
    int64_t level_end = i;
    next = skip_blanks(l, i);
    if (next == i) return 0;
    i = next;
    if (!hex(l, &i)) return 0;
    next = skip_blanks(l, i);
    if (next == i) return 0;
    int64_t pid = next;
    i = skip_digits(l, pid);
    if (i == pid) return 0;
    int64_t pid_end = i;
    int64_t after_pid = skip_blanks(l, i);
    if (after_pid == i) return 0;
    // `(?:\d+[ \t]+)?(?<process>[^:\n]{1,200}?):[ \t]`: the process runs to the first colon
    // (it cannot hold one). The pattern tries starts from the latest back: after the
    // optional number and its blanks, then giving those blanks back one at a time (down to
    // one), then without the number, giving back the blanks before it. The first start that
    // leaves 1 to 200 bytes before the colon wins; later ones only lengthen the process.
    int64_t colon = first_of(l, after_pid, ':');
    if (colon < 0 || !is_blank_at(l, colon + 1)) return 0;
    int64_t latest = after_pid;
    int64_t digits = skip_digits(l, after_pid);
    if (digits > after_pid) {
        int64_t blanks = skip_blanks(l, digits);
        if (blanks > digits) {
            latest = blanks;
            // Giving back blanks helps only a colon right after them; one blank stays.
            if (colon == latest && blanks - digits >= 2) latest -= 1;
            if (colon == latest) latest = after_pid;
        }
    }
    if (colon == latest && after_pid - pid_end >= 2) latest -= 1;
    if (colon - latest < 1 || colon - latest > 200) return 0;
    h->style = CBYTESCAN_LOG_SHOW;
    place(&h->thread, thread, thread_end);
    place(&h->level, level, level_end);
    place(&h->pid, pid, pid_end);
    h->pid_value = number(l, pid, pid_end);
    place(&h->process, latest, colon);
    h->end = (int32_t)after_subsystem(l, colon + 2);
    return 1;
}

/// `log show --style syslog` after the zone: `  localhost Journal[412]: `.
static int log_show_syslog(line_t l, int64_t at, cbytescan_header *h) {
    int64_t i = skip_blanks(l, at);
    if (i == at) return 0;
    int64_t device = i;
    i = RUN(l, i, non_space);
    if (i == device) return 0;
    int64_t device_end = i;
    if (!(is_blank_at(l, i))) return 0;
    i++;
    if (!process_and_pid(l, &i, h)) return 0;
    if (!byte_at(l, i, ':') || !is_blank_at(l, i + 1)) return 0;
    h->style = CBYTESCAN_LOG_SHOW_SYSLOG;
    place(&h->device, device, device_end);
    h->end = (int32_t)after_subsystem(l, i + 2);
    return 1;
}

/// Whether `line[start..<end]` (one or two letters) is a type code of `log`'s compact style:
/// default `Df`, info `I`, debug `Db`, error `E` (or `Er`), fault `Fa` (or `F`, `Ft`),
/// activity `A`.
STEP int is_compact_type(line_t l, int64_t start, int64_t end) {
    uint8_t first = l.b[start];
    if (end - start == 1) return first == 'I' || first == 'E' || first == 'F' || first == 'A';
    if (end - start != 2) return 0;
    uint8_t second = l.b[start + 1];
    return (first == 'D' && (second == 'f' || second == 'b')) || (first == 'E' && second == 'r') ||
           (first == 'F' && (second == 't' || second == 'a'));
}

/// `log stream --style compact` (and `log show --style compact`) prints the entry's type
/// between the time and the process in a column two wide (`2025-06-03 10:15:42.118 Df
/// Recipes[2210:8e41f] `, `… E  Recipes[2210:8e41f] `: a one-letter type is padded with a
/// blank), which NSLog's branch takes as the process's first word: the type is the header's
/// level, the rest after the column's one or two blanks its process. A process with no blank
/// second or third (nearly every one) is left at once.
STEP void drop_compact_type(line_t l, cbytescan_header *h) {
    int64_t start = h->process.lower, process_end = h->process.upper;
    if (start < 0 || process_end - start <= 3 || !(l.b[start + 1] == ' ' || l.b[start + 2] == ' ')) return;
    int64_t end = start;
    while (end < process_end && end - start < 2 && l.b[end] >= 'A' && l.b[end] <= 'z') end++;
    if (end < process_end && l.b[end] == ' ' && is_compact_type(l, start, end)) {
        int64_t rest = end + 1;
        if (rest < process_end && l.b[rest] == ' ') rest++;
        if (rest == process_end) return;
        place(&h->level, start, end);
        place(&h->process, rest, process_end);
    }
}

void cbytescan_drop_compact_type(const uint8_t *bytes, size_t count, cbytescan_header *header) {
    line_t l = {bytes, (int64_t)count};
    if (header->style == CBYTESCAN_NSLOG) drop_compact_type(l, header);
}

/// NSLog after the time and its blank: `Journal[412:60b] `, the thread optional; then the
/// compact style's type, if the process starts with one.
static int nslog(line_t l, int64_t at, cbytescan_header *h) {
    // `(?<process>[^\[\]\n:]{1,200}?)\[`: the first `[`, with no `]` or `:` before it.
    int64_t start = at;
    int64_t limit = l.n < start + 201 ? l.n : start + 201;
    int64_t i = start;
#if defined(LINE_BLOCKS)
    for (; i + 16 <= limit; i += 16) {
        __m128i block = block_at(l.b + i);
        unsigned found = block_mask(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8('[')), _mm_cmpeq_epi8(block, _mm_set1_epi8(']'))),
                                                 _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8(':')), _mm_cmpeq_epi8(block, _mm_set1_epi8(0x0A)))));
        if (found) {
            i += __builtin_ctz(found);
            goto stopped;
        }
    }
#endif
    for (; i + 8 <= limit; i += 8) {
        uint64_t word = word_at(l, i);
        uint64_t found = lanes_of(word, '[') | lanes_of(word, ']') | lanes_of(word, ':') | lanes_of(word, 0x0A);
        if (found) {
            i += lowest_lane(found);
            goto stopped;
        }
    }
    while (i < limit) {
        uint8_t c = l.b[i];
        if (c == '[' || c == ']' || c == ':' || c == 0x0A) break;
        i++;
    }
stopped:
    if (!(i < limit && l.b[i] == '[' && i > start)) return 0;
    int64_t process_end = i;
    int64_t pid = i + 1;
    i = skip_digits(l, pid);
    if (i == pid || i >= l.n) return 0;
    int64_t pid_end = i;
    // `(?::(?<thread>[0-9A-Fa-fx]{1,20}))?\]`: more than 20 thread bytes, and neither way reaches `]`.
    int64_t thread = -1, thread_end = 0;
    if (l.b[i] == ':') {
        i++;
        thread = i;
#if defined(LINE_BLOCKS)
        // `[0-9A-Fa-fx]`: hex digits and the `x` of `0x`.
        if (i + 16 <= l.n) {
            unsigned others = ~(block_hex(l.b + i) | block_lanes_of(l.b + i, 'x')) & 0xFFFF;
            i += others ? __builtin_ctz(others) : 16;
        }
#endif
        while (i < l.n && is_class(l.b[i], C_THREAD)) i++;
        if (i - thread < 1 || i - thread > 20) return 0;
        thread_end = i;
    }
    if (!byte_at(l, i, ']')) return 0;
    i++;
    if (byte_at(l, i, ' ')) i++;
    h->style = CBYTESCAN_NSLOG;
    place(&h->process, start, process_end);
    place(&h->pid, pid, pid_end);
    h->pid_value = number(l, pid, pid_end);
    if (thread >= 0) place(&h->thread, thread, thread_end);
    h->end = (int32_t)i;
    drop_compact_type(l, h);
    return 1;
}

/// The styles that start with `dddd-dd-dd` share the date, time, fraction and zone, read once.
static int dated(line_t l, cbytescan_header *h) {
    uint8_t separator = l.b[10];
    if (!(separator == ' ' || separator == 'T') || !clock_at(l, 11)) return 0;
    int64_t at = 19;
    uint8_t fraction_separator = at < l.n ? l.b[at] : 0;
    // `(?:[.:,](?<frac>\d{1,6}))?(?<tz>[+-]\d\d:?\d\d)?`, both optional for NSLog; `log show`
    // styles need both, the fraction after a dot.
    if (!fraction(l, &at, h)) return 0;
    int found = 0;
    if (at < l.n && (l.b[at] == '+' || l.b[at] == '-')) {
        // A sign that starts no zone: no style goes on from it.
        if (!zone(l, &at, h)) return 0;
        found = fraction_separator == '.' && (log_show(l, at, h) || log_show_syslog(l, at, h));
    }
    if (!found && (separator != ' ' || !byte_at(l, at, ' ') || !nslog(l, at + 1, h))) return 0;
    date_and_clock(l, h);
    return 1;
}

/// A logger's own time: `2014/03/02 09:14:07:318 `.
static int logger(line_t l, cbytescan_header *h) {
    if (!(l.n >= 19 && date_at(l, '/') && l.b[10] == ' ' && clock_at(l, 11))) return 0;
    int64_t at = 19;
    if (!fraction(l, &at, h) || !byte_at(l, at, ' ')) return 0;
    h->style = CBYTESCAN_LOGGER;
    h->end = (int32_t)(at + 1);
    date_and_clock(l, h);
    return 1;
}

/// 1 for `Jan` … 12 for `Dec`, spelt by three bytes; 0 for none. The sum of the second and
/// third bytes, modulo 32, differs for every month: one slot of a table and one comparison,
/// where a switch on the spelling would take a run of branches that the mix of months (and of
/// lines that start with a capital) leaves unforeseen.
STEP int month_number(const uint8_t *b) {
#define MONTH(spelt, number) [((spelt >> 8 & 0xFF) + (spelt & 0xFF)) & 31] = (uint32_t)spelt << 8 | number
    static const uint32_t months[32] = {
        MONTH(0x4A616E, 1), MONTH(0x466562, 2), MONTH(0x4D6172, 3), MONTH(0x417072, 4),
        MONTH(0x4D6179, 5), MONTH(0x4A756E, 6), MONTH(0x4A756C, 7), MONTH(0x417567, 8),
        MONTH(0x536570, 9), MONTH(0x4F6374, 10), MONTH(0x4E6F76, 11), MONTH(0x446563, 12),
    };
#undef MONTH
    uint32_t spelt = (uint32_t)b[0] << 16 | (uint32_t)b[1] << 8 | (uint32_t)b[2];
    uint32_t entry = months[(b[1] + b[2]) & 31];
    return entry >> 8 == spelt ? (int)(entry & 0xFF) : 0;
}

/// Device console: `Mar  2 09:14:07 iPad Journal[412] <Warning>: `, the level optional. The
/// shortest such header, `Jan 1 00:00:00 d p[1]: `, takes 23 bytes: in a line that long the
/// month, day and clock lie within its first 16, and are checked together, in one branch
/// (which a log of one style foretells), with no bound to check.
static int syslog_style(line_t l, cbytescan_header *h) {
    if (l.n < 23) return 0;
    int month = month_number(l.b);
    // `[ ]{1,2}(?<day>\d{1,2})[ ]`: a third blank, or a third digit, and no way through.
    int64_t day = l.b[4] == ' ' ? 5 : 4;
    int two_digits = is_digit(l.b[day + 1]);
    int64_t time = day + 2 + two_digits;
    uint64_t clock = word_at(l, time);
    if (!((month != 0) & (l.b[3] == ' ') & is_digit(l.b[day]) & (l.b[time - 1] == ' ') & shape(clock, CLOCK_DIGITS, CLOCK_LITERAL) &
          (l.b[time + 8] == ' ')))
        return 0;
    int day_number = two_digits ? two(l, day) : l.b[day] - '0';
    int64_t i = time + 9;
    int64_t device = i;
    i = RUN(l, i, non_space);
    if (i == device || !byte_at(l, i, ' ')) return 0;
    int64_t device_end = i;
    i++;
    if (!process_and_pid(l, &i, h)) return 0;
    // `(?:[ ]<(?<level>\w+)>)?:[ ]`: without the level, `:` would have to stand where its blank is.
    int64_t level = -1, level_end = 0;
    if (byte_at(l, i, ' ')) {
        if (!byte_at(l, i + 1, '<')) return 0;
        i += 2;
        level = i;
        i = RUN(l, i, word);
        if (i == level || !byte_at(l, i, '>')) return 0;
        level_end = i;
        i++;
    }
    if (!byte_at(l, i, ':') || !byte_at(l, i + 1, ' ')) return 0;
    h->style = CBYTESCAN_SYSLOG;
    place(&h->device, device, device_end);
    if (level >= 0) place(&h->level, level, level_end);
    h->end = (int32_t)(i + 2);
    uint64_t parts = digit_pairs(clock, CLOCK_DIGITS);
    int hour = lane(parts, 0), minute = lane(parts, 3), second = lane(parts, 6);
    h->has_time = 1;
    h->year = -1;
    h->month = month;
    h->day = day_number;
    h->hour = hour;
    h->minute = minute;
    h->second = second;
    pack(h, -1, month, day_number, hour, minute, second, 0, 0, 0, 0, 0);
    return 1;
}

/// No header: `(?=(?:__\d+)?[-+]\[|CoreData:[ ]|UbiquityStoreManager:[ ])`, an empty match.
static int bare(line_t l, cbytescan_header *h) {
    int64_t i = 0;
    if (!(HAS(l, 0, "CoreData: ") || HAS(l, 0, "UbiquityStoreManager: "))) {
        if (HAS(l, 0, "__")) {
            i = skip_digits(l, 2);
            if (i == 2) return 0;
        }
        if (!(byte_at(l, i, '-') || byte_at(l, i, '+')) || !byte_at(l, i + 1, '[')) return 0;
    }
    // A syslog header refused after its process was read leaves no field behind.
    no_place(&h->process);
    no_place(&h->pid);
    h->pid_value = -1;
    h->style = CBYTESCAN_BARE;
    h->end = 0;
    h->time_bits = 0;
    h->time_offset = INT16_MIN;
    return 1;
}

STEP void pack_time(cbytescan_header *h) {
    if (!h->has_time) {
        h->time_bits = 0;
        h->time_offset = INT16_MIN;
        return;
    }
    pack(h, h->year, h->month, h->day, h->hour, h->minute, h->second, h->microsecond, h->fraction_digits, h->has_offset,
         h->offset_minutes, h->damaged_zone);
}

void cbytescan_pack_time(cbytescan_header *h) { pack_time(h); }

int cbytescan_header_read(const uint8_t *bytes, size_t count, cbytescan_header *h) {
    line_t l = {bytes, (int64_t)count};
    if (count == 0) return 0;
    no_place(&h->process);
    no_place(&h->pid);
    no_place(&h->thread);
    no_place(&h->device);
    no_place(&h->level);
    h->pid_value = -1;
    h->has_time = 0;
    h->microsecond = 0;
    h->fraction_digits = 0;
    h->has_offset = 0;
    h->damaged_zone = 0;
    int found;
    if (!is_digit(l.b[0])) {
        found = syslog_style(l, h) || bare(l, h);
    } else if (l.n >= 19 && date_at(l, '-')) {
        found = dated(l, h);
    } else {
        found = logger(l, h);
    }
    if (!found) return 0;
    prefix_read(l, h->end, 1, &h->prefix);
    return 1;
}
