// An eighth-scale decoder for the common JPEG: baseline, Huffman-coded, 8-bit, one interleaved
// scan of grey, 4:4:4 or 4:2:0 YCbCr. At 1/8 scale libjpeg-turbo keeps only each block's DC
// term (its 1x1 inverse DCT) and, for 4:2:0 chroma, the terms its 2x2 inverse DCT reads; yet its
// Huffman decoder still reads every AC code one by one to find where the next block starts,
// and that reading is most of an import's time. Here the AC codes of a block whose terms are
// not needed are skipped several at a time: a table indexed by the next 12 bits gives how many
// bits the whole codes (and their magnitude bits) in them take and how many terms they cover.
// Everything else is libjpeg-turbo's arithmetic, so the pixels are the same bytes; whatever this
// does not handle, or any stream that is not exactly as expected, is left to libjpeg.
#include "atl_jpeg_eighth.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#ifndef SKIP_BITS
#define SKIP_BITS 12
#endif
enum { lookahead = 9, skip_bits = SKIP_BITS };

/// A Huffman table: codes of up to `lookahead` bits by table, longer ones by the canonical limits.
typedef struct {
    uint16_t fast[1 << lookahead];   // (length << 8) | symbol, 0 when the code is longer
    int32_t maxcode[18];             // largest code of each length, -1 for none
    int32_t valoffset[18];           // symbol index of a code of each length, less the code
    uint8_t values[256];
    // Skipping AC terms: per window of the next `skip_bits` bits, the bits its whole codes use
    // (low 4 bits, less 1), the terms they cover (next 7) and bit 11 when the last ends the
    // block; 0 when not even one code fits.
    uint16_t skip[1 << skip_bits];
    // DC differences and AC terms: per window of the next `skip_bits` bits, the code and
    // magnitude bits used (bits 24-28), the symbol (bits 16-23) and the value it gives (low 16
    // bits), when code and magnitude both fit; 0 when not.
    uint32_t term[1 << skip_bits];
} huffman;

typedef struct {
    const uint8_t *p, *end;
    uint64_t acc;      // next bits at the top
    int bits;          // bits in acc
    int padding;       // zero bits fed after a marker or the end of the data
} bit_reader;

static inline void fill(bit_reader *r) {
    if (r->bits > 56) return;  // full (and the shifts below need fewer than 64 bits held)
    // Eight bytes at once where none is 0xFF (no stuffing, no marker). The bits of a partial
    // byte that land below the counted ones are that byte's own, so the next fill ORs the same
    // bits over them.
    if (r->padding == 0 && r->end - r->p >= 8) {
        uint64_t x;
        memcpy(&x, r->p, 8);
        uint64_t v = ~x;
        if (((v - 0x0101010101010101ULL) & ~v & 0x8080808080808080ULL) == 0) {
            int n = (63 - r->bits) >> 3;
            r->acc |= __builtin_bswap64(x) >> r->bits;
            r->p += n;
            r->bits += 8 * n;
            return;
        }
    }
    while (r->bits <= 56) {
        unsigned byte = 0;
        if (r->padding == 0 && r->p < r->end) {
            byte = *r->p;
            if (byte == 0xFF) {
                if (r->p + 1 < r->end && r->p[1] == 0) {
                    r->p += 2;
                } else {
                    byte = 0;  // a marker: stop before it, and feed zeros
                    r->padding += 8;
                }
            } else {
                r->p++;
            }
        } else {
            r->padding += 8;
        }
        r->acc |= (uint64_t)byte << (56 - r->bits);
        r->bits += 8;
    }
}

static inline unsigned peek(const bit_reader *r, int n) { return (unsigned)(r->acc >> (64 - n)); }
static inline void drop(bit_reader *r, int n) { r->acc <<= n; r->bits -= n; }

static inline int extend(unsigned value, int size) {
    return value < (1u << (size - 1)) ? (int)value + (int)((~0u << size) + 1) : (int)value;
}

/// The next symbol, or -1 for a code no table holds. Needs 16 bits in the reader.
static inline int decode(bit_reader *r, const huffman *h) {
    unsigned e = h->fast[peek(r, lookahead)];
    if (e) {
        drop(r, (int)(e >> 8));
        return (int)(e & 0xFF);
    }
    unsigned code = peek(r, 16);
    for (int length = lookahead + 1; length <= 16; length++) {
        int32_t c = (int32_t)(code >> (16 - length));
        if (c <= h->maxcode[length]) {
            drop(r, length);
            return h->values[(c + h->valoffset[length]) & 0xFF];
        }
    }
    return -1;
}

/// Builds `h` from JPEG's counts per length and symbols; 0 where libjpeg would refuse the table
/// (`jpeg_make_d_derived_tbl`: over 256 symbols, a code of all ones or longer than its length,
/// a DC symbol over 15).
static int make_table(huffman *h, const uint8_t counts[17], const uint8_t values[256], int ac) {
    memset(h, 0, sizeof *h);
    memcpy(h->values, values, 256);
    int code = 0, k = 0;
    for (int length = 1; length <= 16; length++) {
        int n = counts[length];
        h->valoffset[length] = k - code;
        if (n) {
            if (code + n >= (1 << length) || k + n > 256) return 0;
            for (int i = 0; i < n; i++, k++, code++) {
                if (!ac && values[k] > 15) return 0;
                if (length <= lookahead) {
                    int shift = lookahead - length;
                    for (int j = 0; j < (1 << shift); j++) h->fast[(code << shift) | j] = (uint16_t)((length << 8) | values[k]);
                }
            }
            h->maxcode[length] = code - 1;
        } else {
            h->maxcode[length] = -1;
        }
        code <<= 1;
    }
    h->maxcode[17] = 0x7FFFFFFF;
    for (unsigned w = 0; w < (1u << skip_bits); w++) {
        unsigned e = h->fast[w >> (skip_bits - lookahead)];
        if (!e) continue;
        int length = (int)(e >> 8), symbol = (int)(e & 0xFF), size = symbol & 15;
        if (length + size > skip_bits) continue;
        int value = size ? extend((w >> (skip_bits - length - size)) & ((1u << size) - 1), size) : 0;
        h->term[w] = (uint32_t)(length + size) << 24 | (uint32_t)symbol << 16 | (uint16_t)(int16_t)value;
    }
    if (!ac) return 1;
    // The skip table: decode whole codes from each window as long as code and magnitude fit.
    for (unsigned w = 0; w < (1u << skip_bits); w++) {
        int used = 0, terms = 0, end = 0;
        for (;;) {
            unsigned rest = (w << used) & ((1u << skip_bits) - 1);
            int left = skip_bits - used, length = 0, symbol = -1;
            unsigned bits16 = rest << (16 - skip_bits);  // the window's remaining bits, at the top of 16
            for (int l = 1; l <= left && l <= 16; l++) {
                int32_t c = (int32_t)(bits16 >> (16 - l));
                if (h->maxcode[l] >= 0 && c <= h->maxcode[l] && c >= h->maxcode[l] - counts[l] + 1) {
                    length = l;
                    symbol = h->values[(c + h->valoffset[l]) & 0xFF];
                    break;
                }
            }
            if (symbol < 0) break;
            int run = symbol >> 4, size = symbol & 15;
            if (size == 0 && run != 15) {  // end of block
                used += length;
                end = 1;
                break;
            }
            // No window covers more than a block's 64 terms (a table of short run codes could
            // pack 190 into 12 bits, past the entry's 7 bits of terms).
            if (length + size > left || terms + (size ? run + 1 : 16) > 64) break;
            used += length + size;
            terms += size ? run + 1 : 16;
        }
        if (used) h->skip[w] = (uint16_t)((used - 1) | terms << 4 | end << 11 | 1 << 12);
    }
    return 1;
}

/// JPEG's zigzag order: the natural position of the k-th term.
static const uint8_t natural[64] = {
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55,
    62, 63};

/// Skips the AC terms of a block; 0 on a code no table holds or terms past the block's end.
static inline int skip_terms(bit_reader *r, const huffman *h) {
    int k = 1;
    while (k < 64) {
        if (r->bits < 32) fill(r);
        unsigned e = h->skip[peek(r, skip_bits)];
        int terms = (int)((e >> 4) & 0x7F);
        // libjpeg reads codes while fewer than 64 terms are done: an end of block after the
        // 64th term is the next block's, and a window that runs past 64 terms is read code by code.
        if (e && ((e & 0x800) ? k + terms < 64 : k + terms <= 64)) {
            drop(r, (int)(e & 0xF) + 1);
            if (e & 0x800) return 1;
            k += terms;
            continue;
        }
        int s = decode(r, h);
        if (s < 0) return 0;
        int run = s >> 4, size = s & 15;
        if (size) {
            k += run;
            if (k > 63) return 0;
            drop(r, size);
            k++;
        } else {
            if (run != 15) return 1;
            k += 16;
        }
    }
    return 1;
}

/// libjpeg-turbo's vector 2x2 inverse DCT multiplies in 16 bits: it gives the pixels of the
/// arithmetic below only while every dequantised term stays small, as in any photograph (within
/// ±2048; a stream beyond that is left to libjpeg).
static inline int small(int32_t dequantised) { return dequantised >= -2048 && dequantised <= 2048; }

/// Whether the 2x2 inverse DCT reads the term at each natural position (rows and columns 0, 1,
/// 3, 5 and 7).
static const uint8_t read_by_2x2[64] = {
    1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 1, 0, 1,
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 1, 0, 1};

/// Decodes the AC terms of a block, keeping in `block` (natural order, zero) those the 2x2
/// inverse DCT reads; returns 0 as `skip_terms` or for a term too large to dequantise as libjpeg
/// does (`small`), 1 when all those were zero, 2 when not.
static inline int read_terms(bit_reader *r, const huffman *h, const uint16_t quant[64], int16_t block[64]) {
    int kept = 0;
    for (int k = 1; k < 64; k++) {
        if (r->bits < 32) fill(r);
        int s, term = 0;
        uint32_t known = h->term[peek(r, skip_bits)];
        if (known) {
            drop(r, (int)(known >> 24));
            s = (int)((known >> 16) & 0xFF);
            term = (int16_t)(known & 0xFFFF);
        } else {
            s = decode(r, h);
            if (s < 0) return 0;
            if (s & 15) {
                term = extend(peek(r, s & 15), s & 15);
                drop(r, s & 15);
            }
        }
        int run = s >> 4, size = s & 15;
        if (size) {
            k += run;
            if (k > 63) return 0;
            int position = natural[k];
            if (read_by_2x2[position]) {
                if (!small(term * (int32_t)quant[position])) return 0;
                block[position] = (int16_t)term;
                kept = 1;
            }
        } else {
            if (run != 15) break;
            k += 15;
        }
    }
    return 1 + kept;
}

/// libjpeg's post-IDCT range limit: a sample for x & 1023, as its table maps it.
static uint8_t post_idct_limit_table[1024];

static void make_limit_table(void) {
    for (int i = 0; i < 1024; i++)
        post_idct_limit_table[i] = (uint8_t)(i < 128 ? i + 128 : i < 512 ? 255 : i < 896 ? 0 : i - 896);
}

static inline uint8_t post_idct_limit(int x) { return post_idct_limit_table[x & 1023]; }

#define DESCALE(x, n) (((x) + ((int64_t)1 << ((n) - 1))) >> (n))

/// libjpeg-turbo's 2x2 reduced inverse DCT (`jpeg_idct_2x2`), into `out` (row stride `stride`).
static void idct_2x2(const int16_t block[64], const uint16_t quant[64], uint8_t *out, size_t stride) {
    enum { const_bits = 13, pass1_bits = 2 };
    const int64_t f0720 = 5906, f0850 = 6967, f1272 = 10426, f3624 = 29692;
    int work[16];
    static const int columns[5] = {0, 1, 3, 5, 7};
    for (int i = 0; i < 5; i++) {
        int c = columns[i];
        int64_t z0 = (int64_t)block[c] * quant[c];
        int64_t tmp10 = z0 * ((int64_t)1 << (const_bits + 2));
        int64_t tmp0 = (int64_t)block[56 + c] * quant[56 + c] * -f0720 + (int64_t)block[40 + c] * quant[40 + c] * f0850 +
                       (int64_t)block[24 + c] * quant[24 + c] * -f1272 + (int64_t)block[8 + c] * quant[8 + c] * f3624;
        work[c] = (int)DESCALE(tmp10 + tmp0, const_bits - pass1_bits + 2);
        work[8 + c] = (int)DESCALE(tmp10 - tmp0, const_bits - pass1_bits + 2);
    }
    for (int row = 0; row < 2; row++) {
        const int *w = work + 8 * row;
        int64_t tmp10 = (int64_t)w[0] * ((int64_t)1 << (const_bits + 2));
        int64_t tmp0 = (int64_t)w[7] * -f0720 + (int64_t)w[5] * f0850 + (int64_t)w[3] * -f1272 + (int64_t)w[1] * f3624;
        out[row * stride] = post_idct_limit((int)DESCALE(tmp10 + tmp0, const_bits + pass1_bits + 3 + 2));
        out[row * stride + 1] = post_idct_limit((int)DESCALE(tmp10 - tmp0, const_bits + pass1_bits + 3 + 2));
    }
}

int atl_jpeg_eighth(const atl_jpeg_eighth_layout *layout, const uint8_t *data, size_t size, int output_components,
                    uint8_t *pixels) {
    const int components = layout->components;
    const int chroma = components == 3 && layout->h[0] == 2;  // 4:2:0: chroma through the 2x2 IDCT
    if (components != 1 && components != 3) return 1;
    const int width = (layout->width + 7) / 8, height = (layout->height + 7) / 8;
    const int mcu_side = components == 3 ? 8 * layout->h[0] : 8;
    const int mcus_across = (layout->width + mcu_side - 1) / mcu_side;
    const int mcus_down = (layout->height + mcu_side - 1) / mcu_side;
    // The planes: luma at 1/8, chroma at 1/8 (4:4:4) or at 2/16 (4:2:0), each a pixel per output.
    const int plane_width = mcus_across * (mcu_side / 8), plane_height = mcus_down * (mcu_side / 8);
    huffman *tables = malloc(sizeof(huffman) * 4);
    uint8_t *planes = malloc((size_t)plane_width * plane_height * (size_t)components);
    int ok = tables && planes;
    for (int t = 0; ok && t < 2; t++) {
        ok = make_table(&tables[t], layout->dc_counts[t], layout->dc_values[t], 0) &&
             make_table(&tables[2 + t], layout->ac_counts[t], layout->ac_values[t], 1);
    }
    bit_reader r = {data + layout->scan_start, data + size, 0, 0, 0};
    int predictor[3] = {0, 0, 0};
    int until_restart = layout->restart_interval, next_restart = 0;
    int16_t block[64] = {0};
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, make_limit_table);
    const int need_chroma = chroma && output_components == 3;
    for (int my = 0; ok && my < mcus_down; my++) {
        for (int mx = 0; ok && mx < mcus_across; mx++) {
            if (layout->restart_interval) {
                if (until_restart == 0) {
                    fill(&r);
                    // The real bits left (none of the zeros fed past the marker used) are the
                    // padding to a byte; then RSTn, after any 0xFF fill.
                    if (r.bits < r.padding || r.bits - r.padding > 7 || r.padding == 0) { ok = 0; break; }
                    const uint8_t *p = r.p;
                    while (p < r.end && *p == 0xFF) p++;
                    if (p >= r.end || *p != 0xD0 + next_restart || p == r.p) { ok = 0; break; }
                    r.p = p + 1;
                    r.acc = 0, r.bits = 0, r.padding = 0;
                    next_restart = (next_restart + 1) & 7;
                    predictor[0] = predictor[1] = predictor[2] = 0;
                    until_restart = layout->restart_interval;
                }
                until_restart--;
            }
            for (int c = 0; ok && c < components; c++) {
                const int hb = components == 3 ? layout->h[c] : 1, vb = components == 3 ? layout->v[c] : 1;
                const huffman *dc = &tables[layout->dc_table[c]], *ac = &tables[2 + layout->ac_table[c]];
                for (int by = 0; ok && by < vb; by++) {
                    for (int bx = 0; ok && bx < hb; bx++) {
                        if (r.bits < 32) fill(&r);
                        uint32_t known = dc->term[peek(&r, skip_bits)];
                        if (known) {
                            drop(&r, (int)(known >> 24));
                            predictor[c] += (int16_t)(known & 0xFFFF);
                        } else {
                            int s = decode(&r, dc);
                            if (s < 0 || s > 15) { ok = 0; break; }
                            if (s) {
                                unsigned v = peek(&r, s);
                                drop(&r, s);
                                predictor[c] += extend(v, s);
                            }
                        }
                        const int16_t dc_term = (int16_t)predictor[c];
                        if (c > 0 && chroma) {
                            if (need_chroma) {
                                int read = small(dc_term * (int32_t)layout->quant[c][0]) ? read_terms(&r, ac, layout->quant[c], block) : 0;
                                if (!read) { ok = 0; break; }
                                uint8_t *out = planes + (size_t)c * plane_width * plane_height +
                                               (size_t)(my * 2) * plane_width + (size_t)(mx * 2);
                                if (read == 1) {
                                    // DC alone: both passes' shortcuts give one value (exactly
                                    // what the full passes give).
                                    uint8_t v = post_idct_limit((int)DESCALE((int64_t)dc_term * layout->quant[c][0] * 4, 5));
                                    out[0] = out[1] = out[plane_width] = out[plane_width + 1] = v;
                                } else {
                                    block[0] = dc_term;
                                    idct_2x2(block, layout->quant[c], out, (size_t)plane_width);
                                    for (int i = 0; i < 64; i++) block[i] = 0;
                                }
                            } else if (!skip_terms(&r, ac)) {
                                ok = 0;
                                break;
                            }
                        } else {
                            if (!skip_terms(&r, ac)) { ok = 0; break; }
                            int x = mx * hb + bx, y = my * vb + by;
                            int value = (int)DESCALE((int64_t)dc_term * layout->quant[c][0], 3);
                            planes[(size_t)c * plane_width * plane_height + (size_t)y * plane_width + x] = post_idct_limit(value);
                        }
                    }
                }
            }
        }
    }
    // The scan must end where the data does: at most the padding to a byte, any fill, then EOI.
    if (ok) {
        fill(&r);
        const uint8_t *p = r.p;
        while (p < r.end && *p == 0xFF) p++;
        ok = r.bits >= r.padding && r.bits - r.padding <= 7 && r.padding > 0 && p > r.p && p < r.end && *p == 0xD9;
    }
    if (ok) {
        const uint8_t *y = planes, *cb = planes + (size_t)plane_width * plane_height, *cr = cb + (size_t)plane_width * plane_height;
        for (int row = 0; row < height; row++) {
            uint8_t *out = pixels + (size_t)row * width * output_components;
            for (int x = 0; x < width; x++) {
                size_t i = (size_t)row * plane_width + x;
                if (output_components == 1) {
                    out[x] = y[i];
                } else if (components == 1) {
                    out[3 * x] = out[3 * x + 1] = out[3 * x + 2] = y[i];
                } else {
                    // libjpeg's YCbCr to RGB (jdcolor.c), in 16-bit fixed point.
                    int l = y[i], b = cb[i] - 128, rr = cr[i] - 128;
                    int red = l + (int)((91881 * rr + 32768) >> 16);
                    int green = l + (int)((-22554 * b + 32768 - 46802 * rr) >> 16);
                    int blue = l + (int)((116130 * b + 32768) >> 16);
                    out[3 * x] = (uint8_t)(red < 0 ? 0 : red > 255 ? 255 : red);
                    out[3 * x + 1] = (uint8_t)(green < 0 ? 0 : green > 255 ? 255 : green);
                    out[3 * x + 2] = (uint8_t)(blue < 0 ? 0 : blue > 255 ? 255 : blue);
                }
            }
        }
    }
    free(tables);
    free(planes);
    return ok ? 0 : 1;
}
