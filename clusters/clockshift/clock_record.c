/* The clock state record (clock_record.h). No libc calls on the reading side:
 * the library runs these inside Go's vDSO calls and before malloc exists. */
#include "clock_record.h"

#include <stdio.h>

#define FIELDS 7
#define FIELD_WIDTH 21 /* 20 characters and a separator */

struct lc_clock_state lc_clock_identity(void) {
    struct lc_clock_state state = {{0, LC_RATE_ONE, 0}, {0, LC_RATE_ONE, 0}};
    return state;
}

int lc_clock_line_moves(const struct lc_clock_line* line) {
    return line->offset_ns != 0 || line->rate_ppb != LC_RATE_ONE;
}

/* elapsed * (rate - 1) without overflow for rates up to 10 (9e9 * 1e9 < 2^63). */
static int64_t drift_ns(int64_t elapsed_ns, int64_t rate_ppb) {
    const int64_t excess = rate_ppb - LC_RATE_ONE;
    if (excess == 0) return 0;
    return (elapsed_ns / LC_RATE_ONE) * excess + (elapsed_ns % LC_RATE_ONE) * excess / LC_RATE_ONE;
}

int64_t lc_clock_shift(const struct lc_clock_line* line, int64_t real_ns, int64_t real_realtime_ns) {
    return real_ns + line->offset_ns + drift_ns(real_realtime_ns - line->anchor_ns, line->rate_ppb);
}

static uint64_t checksum(const int64_t* values) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (int i = 0; i < FIELDS - 1; ++i) hash = (hash ^ (uint64_t)values[i]) * 0x100000001b3ULL;
    return hash >> 1; /* fits a positive int64 */
}

int lc_clock_parse(const volatile char* text, long size, struct lc_clock_state* state) {
    if (size < LC_CLOCK_RECORD_SIZE) return 0;
    int64_t values[FIELDS];
    for (int field = 0; field < FIELDS; ++field) {
        const volatile char* at = text + field * FIELD_WIDTH;
        int negative = 0, digits = 0;
        uint64_t value = 0;
        for (int i = 0; i < FIELD_WIDTH - 1; ++i) {
            const char c = at[i];
            if (i == 0 && (c == '+' || c == '-'))
                negative = c == '-';
            else if (c >= '0' && c <= '9')
                value = value * 10 + (uint64_t)(c - '0'), ++digits;
            else
                return 0;
        }
        const char separator = at[FIELD_WIDTH - 1];
        if (digits == 0 || separator != (field + 1 == FIELDS ? '\n' : ' ')) return 0;
        values[field] = negative ? -(int64_t)value : (int64_t)value;
    }
    if ((uint64_t)values[FIELDS - 1] != checksum(values)) return 0;
    state->realtime = (struct lc_clock_line){values[0], values[1], values[2]};
    state->monotonic = (struct lc_clock_line){values[3], values[4], values[5]};
    return state->realtime.rate_ppb > 0 && state->monotonic.rate_ppb > 0;
}

void lc_clock_format(const struct lc_clock_state* state, char* out) {
    int64_t values[FIELDS] = {state->realtime.offset_ns,
                              state->realtime.rate_ppb,
                              state->realtime.anchor_ns,
                              state->monotonic.offset_ns,
                              state->monotonic.rate_ppb,
                              state->monotonic.anchor_ns,
                              0};
    values[FIELDS - 1] = (int64_t)checksum(values);
    for (int field = 0; field < FIELDS; ++field)
        snprintf(out + field * FIELD_WIDTH, FIELD_WIDTH + 1, "%+020lld%c", (long long)values[field],
                 field + 1 == FIELDS ? '\n' : ' ');
}
