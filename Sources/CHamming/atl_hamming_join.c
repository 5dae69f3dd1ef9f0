// See atl_hamming.h: hashes bucketed by one 16-bit chunk (a counting sort), and the join of a
// bucket of window hashes with the photo hashes in the buckets near its value. Both were Swift
// loops; there the gather of a few hashes from each of a hundred buckets became a call to
// memmove per bucket, and the scatter paid for bounds checks on every hash.
#include "atl_hamming.h"

static inline unsigned chunk_of(uint64_t hash, unsigned chunk) { return (unsigned)(hash >> (16 * chunk)) & 0xffff; }

void atl_chunk_count(const uint64_t *keys, size_t begin, size_t end, unsigned chunk, int32_t *counts) {
    for (size_t k = begin; k < end; k++) counts[chunk_of(keys[k], chunk)]++;
}

void atl_chunk_scatter(const uint64_t *keys, const int32_t *ids, size_t begin, size_t end, unsigned chunk,
                       int32_t *fill, uint64_t *out_keys, int32_t *out_ids) {
    for (size_t k = begin; k < end; k++) {
        uint64_t hash = keys[k];
        int32_t slot = fill[chunk_of(hash, chunk)]++;
        out_keys[slot] = hash;
        out_ids[slot] = ids ? ids[k] : (int32_t)k;
    }
}

size_t atl_hamming_join(atl_buckets photos, uint16_t value, const uint16_t *masks, size_t mask_count,
                        const uint64_t *window_keys, const int32_t *window_ids, size_t window_count,
                        unsigned threshold, atl_join_scratch scratch, int64_t *out, size_t capacity) {
    size_t near = 0;
    for (size_t m = 0; m < mask_count; m++) {
        unsigned probed = (unsigned)(value ^ masks[m]);
        for (int32_t p = photos.starts[probed], end = photos.starts[probed + 1]; p < end; p++) {
            scratch.keys[near] = photos.keys[p];
            scratch.ids[near] = photos.ids[p];
            near++;
        }
    }
    if (near == 0) return 0;
    size_t found = 0;
    for (size_t w = 0; w < window_count; w++) {
        int64_t owner = window_ids[w];
        size_t hits = atl_hamming_within(window_keys[w], scratch.keys, near, threshold, scratch.hits);
        for (size_t i = 0; i < hits; i++) {
            int64_t photo = scratch.ids[scratch.hits[i]];
            if (photo == owner) continue;
            if (found < capacity) out[found] = photo < owner ? photo << 32 | owner : owner << 32 | photo;
            found++;
        }
    }
    return found;
}

/// Each byte's value as a hexadecimal digit, 0xff where it is none.
static const uint8_t hex_digit[256] = {
    ['0'] = 0x10, ['1'] = 0x11, ['2'] = 0x12, ['3'] = 0x13, ['4'] = 0x14, ['5'] = 0x15, ['6'] = 0x16,
    ['7'] = 0x17, ['8'] = 0x18, ['9'] = 0x19, ['a'] = 0x1a, ['b'] = 0x1b, ['c'] = 0x1c, ['d'] = 0x1d,
    ['e'] = 0x1e, ['f'] = 0x1f, ['A'] = 0x1a, ['B'] = 0x1b, ['C'] = 0x1c, ['D'] = 0x1d, ['E'] = 0x1e,
    ['F'] = 0x1f,
};

int atl_hex64_parse(const uint8_t *text, size_t count, uint64_t *out) {
    // The table holds 0x10 + digit, so a byte that is no digit (0) shows as a missing 0x10 bit.
    for (size_t k = 0; k < count; k++) {
        const uint8_t *digits = text + 16 * k;
        uint64_t value = 0;
        unsigned all = 0x10;
        for (int i = 0; i < 16; i++) {
            unsigned d = hex_digit[digits[i]];
            all &= d;
            value = value << 4 | (d & 0xf);
        }
        if (!all) return 0;
        out[k] = value;
    }
    return 1;
}
