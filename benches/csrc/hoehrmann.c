/*
 * A strict UTF-8 decoder driven by Bjoern Hoehrmann's automaton, the classic
 * table-driven baseline for placemat's benchmarks.
 *
 * Source of the algorithm and of the two data tables below:
 *     Bjoern Hoehrmann, "Flexible and Economical UTF-8 Decoder" (2009-2010),
 *     http://bjoern.hoehrmann.de/utf-8/decoder/dfa/
 * The page describes a deterministic automaton over 12 byte classes and 9
 * states whose ids are premultiplied by the number of classes (so a state id
 * plus a class is directly an index into the transition table); state 0 means
 * "between characters" and is the only accepting state, state 12 is the dead
 * (reject) state. The class of every byte and the transitions are facts of
 * that page and are reproduced here as data, in its numbering; the code around
 * them was written for placemat from that description. The page's classes put
 * byte E0 in class 10 (after E0 the next byte must be A0-BF).
 *
 * Checked by benches/src/hoehrmann.rs against Rust's std on every sequence of
 * one to three bytes, on four-byte sequences over the boundary bytes, and on
 * every corpus.
 */
#include <stddef.h>
#include <stdint.h>

enum {
    CLASS_COUNT = 12,
    STATE_START = 0,  /* between characters; accepting */
    STATE_DEAD = 12,  /* an invalid byte was seen */
};

/*
 * Byte -> class, one row per high nibble.
 *   0  00-7F (ASCII)          6  F1-F3 (4-byte lead)
 *   1  80-8F (continuation)   7  A0-BF (continuation)
 *   2  C2-DF (2-byte lead)    8  C0-C1, F5-FF (never valid)
 *   3  E1-EC, EE-EF           9  90-9F (continuation)
 *   4  ED                    10  E0
 *   5  F4                    11  F0
 */
static const uint8_t class_of[256] = {
    /* 0x */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 1x */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 2x */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 3x */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 4x */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 5x */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 6x */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 7x */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 8x */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 9x */ 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    /* Ax */ 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
    /* Bx */ 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
    /* Cx */ 8, 8, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    /* Dx */ 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    /* Ex */ 10, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 3, 3,
    /* Fx */ 11, 6, 6, 6, 5, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
};

/*
 * (state + class) -> state. Each row is one state, named by its premultiplied
 * id and by what it still expects; columns are classes 0..11.
 */
static const uint8_t transition[9 * CLASS_COUNT] = {
    /*  0 start  */ 0, 12, 24, 36, 60, 96, 84, 12, 12, 12, 48, 72,
    /* 12 dead   */ 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12,
    /* 24 1 left */ 12, 0, 12, 12, 12, 12, 12, 0, 12, 0, 12, 12,
    /* 36 2 left */ 12, 24, 12, 12, 12, 12, 12, 24, 12, 24, 12, 12,
    /* 48 E0 _   */ 12, 12, 12, 12, 12, 12, 12, 24, 12, 12, 12, 12,
    /* 60 ED _   */ 12, 24, 12, 12, 12, 12, 12, 12, 12, 24, 12, 12,
    /* 72 F0 _   */ 12, 12, 12, 12, 12, 12, 12, 36, 12, 36, 12, 12,
    /* 84 F1-3 _ */ 12, 36, 12, 12, 12, 12, 12, 36, 12, 36, 12, 12,
    /* 96 F4 _   */ 12, 36, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12,
};

/*
 * The payload bits a first byte contributes, by its class: all 7 bits of
 * ASCII, 5 of a two-byte lead, 4 of a three-byte lead, 3 of a four-byte lead.
 * Classes that cannot start a character contribute nothing (the automaton
 * rejects them anyway).
 */
static const uint8_t lead_bits[CLASS_COUNT] = {
    0x7F, /* 0  ASCII      */
    0x00, /* 1  cont.      */
    0x1F, /* 2  C2-DF      */
    0x0F, /* 3  E1-EC,EE-EF*/
    0x0F, /* 4  ED         */
    0x07, /* 5  F4         */
    0x07, /* 6  F1-F3      */
    0x00, /* 7  cont.      */
    0x00, /* 8  invalid    */
    0x00, /* 9  cont.      */
    0x0F, /* 10 E0         */
    0x07, /* 11 F0         */
};

static inline unsigned advance(unsigned state, uint8_t byte) {
    return transition[state + class_of[byte]];
}

/*
 * Decodes src[0..len) into dst, which must have room for len code points.
 * Result: 0 if the whole input is valid, 1 if some byte was rejected, 2 if the
 * input stops in the middle of a character. *written receives the number of
 * code points stored in dst, *valid_up_to the length of the longest valid
 * prefix (len when the result is 0).
 */
int placemat_hoehrmann_decode(const uint8_t *src, size_t len, uint32_t *dst, size_t *written,
                              size_t *valid_up_to) {
    size_t pos = 0;
    size_t count = 0;
    int result = 0;

    while (pos < len) {
        /* One character per iteration: its first byte, then its continuations. */
        const size_t first = pos;
        uint8_t b = src[pos++];
        unsigned cls = class_of[b];
        unsigned state = transition[STATE_START + cls];
        uint32_t value = b & lead_bits[cls];

        while (state != STATE_START && state != STATE_DEAD) {
            if (pos == len) {
                break;
            }
            b = src[pos++];
            state = advance(state, b);
            value = (value << 6) | (uint32_t)(b & 0x3Fu);
        }

        if (state != STATE_START) {
            /* Dead, or cut short by the end of the input. */
            result = state == STATE_DEAD ? 1 : 2;
            pos = first;
            break;
        }
        dst[count++] = value;
    }

    *written = count;
    *valid_up_to = pos;
    return result;
}

/* Yes (1) or no (0): the same automaton, keeping only the state. */
int placemat_hoehrmann_validate(const uint8_t *src, size_t len) {
    const uint8_t *const end = src + len;
    unsigned state = STATE_START;
    for (const uint8_t *p = src; p != end; ++p) {
        state = advance(state, *p);
        if (state == STATE_DEAD) {
            return 0;
        }
    }
    return state == STATE_START;
}
