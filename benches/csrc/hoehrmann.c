/*
 * Bjoern Hoehrmann's UTF-8 decoder (2009-2010), the DFA version, written for
 * placemat's benchmarks from the published algorithm:
 *
 *     Bjoern Hoehrmann, "Flexible and Economical UTF-8 Decoder",
 *     http://bjoern.hoehrmann.de/utf-8/decoder/dfa/
 *
 * The byte classes and the state transitions are the facts of that page; they
 * were checked entry by entry against the published table (note: the copy in
 * placemat's seed 003 has class 0 at byte E0, which is wrong: E0 is class 10).
 * The tests in benches/src/hoehrmann.rs run this decoder against Rust's std on
 * every sequence of one to three bytes and on every corpus.
 *
 * One step: the byte's class selects a payload mask for a first byte
 * (0xFF >> class) and, added to the premultiplied state, the next state.
 * State 0 accepts (a code point is complete), state 12 rejects.
 */
#include <stddef.h>
#include <stdint.h>

#define ACCEPT 0u
#define REJECT 12u

/* Byte classes (the published numbering):
 *   0: 00-7F         1: 80-8F         2: C2-DF         3: E1-EC, EE-EF
 *   4: ED            5: F4            6: F1-F3         7: A0-BF
 *   8: C0-C1, F5-FF  9: 90-9F        10: E0           11: F0          */
static const uint8_t byte_class[256] = {
    [0x00 ... 0x7F] = 0,
    [0x80 ... 0x8F] = 1,
    [0x90 ... 0x9F] = 9,
    [0xA0 ... 0xBF] = 7,
    [0xC0 ... 0xC1] = 8,
    [0xC2 ... 0xDF] = 2,
    [0xE0] = 10,
    [0xE1 ... 0xEC] = 3,
    [0xED] = 4,
    [0xEE ... 0xEF] = 3,
    [0xF0] = 11,
    [0xF1 ... 0xF3] = 6,
    [0xF4] = 5,
    [0xF5 ... 0xFF] = 8,
};

/* Transitions: 9 states premultiplied by 12, one row of 12 classes each. */
static const uint8_t next_state[9 * 12] = {
    /* 0 accept: ASCII stays, leads go to their states, the rest rejects */
    0, 12, 24, 36, 60, 96, 84, 12, 12, 12, 48, 72,
    /* 12 reject: stays */
    12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12,
    /* 24 one continuation (80-BF) left */
    12, 0, 12, 12, 12, 12, 12, 0, 12, 0, 12, 12,
    /* 36 two continuations (80-BF) left */
    12, 24, 12, 12, 12, 12, 12, 24, 12, 24, 12, 12,
    /* 48 after E0: A0-BF */
    12, 12, 12, 12, 12, 12, 12, 24, 12, 12, 12, 12,
    /* 60 after ED: 80-9F */
    12, 24, 12, 12, 12, 12, 12, 12, 12, 24, 12, 12,
    /* 72 after F0: 90-BF */
    12, 12, 12, 12, 12, 12, 12, 36, 12, 36, 12, 12,
    /* 84 after F1-F3: 80-BF */
    12, 36, 12, 12, 12, 12, 12, 36, 12, 36, 12, 12,
    /* 96 after F4: 80-8F */
    12, 36, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12,
};

/* The published step function: returns the new state. */
static inline uint32_t step(uint32_t *state, uint32_t *codep, uint32_t byte) {
    uint32_t cls = byte_class[byte];
    *codep = (*state != ACCEPT) ? (byte & 0x3Fu) | (*codep << 6) : (0xFFu >> cls) & byte;
    *state = next_state[*state + cls];
    return *state;
}

/*
 * Decodes src[0..len) into dst, which must have room for len code points.
 * Returns 0 when the input is valid, 1 when a byte was rejected, 2 when the
 * input ends inside a sequence. *written is the number of code points stored;
 * *valid_up_to the number of bytes before the first bad sequence (or len).
 */
int placemat_hoehrmann_decode(const uint8_t *src, size_t len, uint32_t *dst, size_t *written,
                              size_t *valid_up_to) {
    uint32_t state = ACCEPT, codep = 0;
    size_t n = 0, boundary = 0;
    for (size_t i = 0; i < len; i++) {
        if (step(&state, &codep, src[i]) == ACCEPT) {
            dst[n++] = codep;
            boundary = i + 1;
        } else if (state == REJECT) {
            *written = n;
            *valid_up_to = boundary;
            return 1;
        }
    }
    *written = n;
    *valid_up_to = state == ACCEPT ? len : boundary;
    return state == ACCEPT ? 0 : 2;
}

/* Validation with the same automaton: the state only, no code point. */
int placemat_hoehrmann_validate(const uint8_t *src, size_t len) {
    uint32_t state = ACCEPT;
    for (size_t i = 0; i < len; i++) {
        state = next_state[state + byte_class[src[i]]];
        if (state == REJECT) {
            return 0;
        }
    }
    return state == ACCEPT;
}
