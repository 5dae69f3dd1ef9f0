// See atl_hamming.h: a table of hashes bit-sliced in blocks of 256, scanned by counting 256
// distances at once with carry-save adders (Harley and Seal's population count, done across
// the hashes instead of along one): about half the instructions per hash of the nibble-table
// scan, which is what an all-pairs search at a wide threshold spends its time on.
#include "atl_hamming.h"
#include "atl_hamming_private.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

enum { block_size = 256 };

struct atl_hamming_table {
    size_t count;
    uint64_t *keys;    // in order, for the partial block a scan starts in and for processors without AVX2
    uint64_t *planes;  // per block, 64 planes of 4 words: bit i of plane j is bit j of the block's hash i
};

atl_hamming_table *atl_hamming_table_make(const uint64_t *keys, size_t count) {
    atl_hamming_table *table = calloc(1, sizeof *table);
    if (!table) return NULL;
    size_t blocks = (count + block_size - 1) / block_size;
    table->count = count;
    table->keys = malloc((count ? count : 1) * sizeof *keys);
    table->planes = aligned_alloc(32, (blocks ? blocks : 1) * 64 * 32);
    if (!table->keys || !table->planes) {
        atl_hamming_table_free(table);
        return NULL;
    }
    memcpy(table->keys, keys, count * sizeof *keys);
    memset(table->planes, 0, (blocks ? blocks : 1) * 64 * 32);
    for (size_t k = 0; k < count; k++) {
        uint64_t *block = table->planes + (k / block_size) * 256;
        size_t lane = k % block_size, word = lane / 64;
        uint64_t bit = (uint64_t)1 << (lane % 64);
        for (uint64_t h = keys[k]; h; h &= h - 1) block[(size_t)__builtin_ctzll(h) * 4 + word] |= bit;
    }
    return table;
}

void atl_hamming_table_free(atl_hamming_table *table) {
    if (!table) return;
    free(table->keys);
    free(table->planes);
    free(table);
}

#if defined(__x86_64__)
#define CSA(high, low, a, b, c)                                                   \
    do {                                                                          \
        __m256i u_ = _mm256_xor_si256(a, b);                                      \
        high = _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(u_, c));  \
        low = _mm256_xor_si256(u_, c);                                            \
    } while (0)

/// Adds the bits of four planes that differ from the query's into the running `ones` and
/// `twos`; returns the fours they carry out.
__attribute__((target("avx2"))) static inline __m256i add4(const __m256i *p, const __m256i *q, __m256i *ones, __m256i *twos) {
    __m256i twosA, twosB, fours;
    CSA(twosA, *ones, *ones, _mm256_xor_si256(_mm256_load_si256(p), q[0]), _mm256_xor_si256(_mm256_load_si256(p + 1), q[1]));
    CSA(twosB, *ones, *ones, _mm256_xor_si256(_mm256_load_si256(p + 2), q[2]), _mm256_xor_si256(_mm256_load_si256(p + 3), q[3]));
    CSA(fours, *twos, *twos, twosA, twosB);
    return fours;
}

/// The same for eight planes, adding into `fours` too; returns the eights carried out.
__attribute__((target("avx2"))) static inline __m256i add8(const __m256i *p, const __m256i *q, __m256i *ones, __m256i *twos,
                                                           __m256i *fours) {
    __m256i foursA = add4(p, q, ones, twos), foursB = add4(p + 4, q + 4, ones, twos), eights;
    CSA(eights, *fours, *fours, foursA, foursB);
    return eights;
}

/// The lanes of one block whose hash is within `threshold` bits of the query, given as its
/// 64 bit masks (`query[j]` all ones where bit j of the query is set): the distance of every
/// lane is summed as a 7-bit number held bit-sliced, then compared with the threshold.
__attribute__((target("avx2"))) static inline __m256i block_within(const __m256i *planes, const __m256i *query,
                                                                   unsigned threshold) {
    __m256i ones = _mm256_setzero_si256(), twos = ones, fours = ones, eights = ones;
    __m256i sixteens[4];
    for (int group = 0; group < 4; group++) {
        const __m256i *p = planes + group * 16, *q = query + group * 16;
        __m256i eightsA = add8(p, q, &ones, &twos, &fours), eightsB = add8(p + 8, q + 8, &ones, &twos, &fours);
        CSA(sixteens[group], eights, eights, eightsA, eightsB);
    }
    // The four sixteens (0 to 4 of them a lane) as three bits.
    __m256i u = _mm256_xor_si256(sixteens[0], sixteens[1]), carry1 = _mm256_and_si256(sixteens[0], sixteens[1]);
    __m256i v = _mm256_xor_si256(u, sixteens[2]), carry2 = _mm256_and_si256(u, sixteens[2]);
    __m256i s0 = _mm256_xor_si256(v, sixteens[3]), carry3 = _mm256_and_si256(v, sixteens[3]);
    __m256i s1 = _mm256_xor_si256(_mm256_xor_si256(carry1, carry2), carry3);
    __m256i s2 = _mm256_or_si256(_mm256_and_si256(carry1, carry2), _mm256_and_si256(carry3, _mm256_xor_si256(carry1, carry2)));
    const __m256i bits[7] = {ones, twos, fours, eights, s0, s1, s2};
    // Distance > threshold, from the highest bit down: greater where a set bit meets a clear
    // one of the threshold while all higher bits were equal.
    __m256i greater = _mm256_setzero_si256(), equal = _mm256_set1_epi64x(-1);
    for (int b = 6; b >= 0; b--) {
        if (threshold >> b & 1) {
            equal = _mm256_and_si256(equal, bits[b]);
        } else {
            greater = _mm256_or_si256(greater, _mm256_and_si256(equal, bits[b]));
            equal = _mm256_andnot_si256(bits[b], equal);
        }
    }
    return _mm256_andnot_si256(greater, _mm256_set1_epi64x(-1));
}
#undef CSA

/// Appends to `out` the set lanes of `hits`, a block's whose first hash is at `base`, below
/// `count`, as positions from `from`.
__attribute__((target("avx2"))) static size_t append_lanes(__m256i hits, size_t base, size_t count, size_t from,
                                                           uint32_t *out, size_t found) {
    uint64_t words[4];
    _mm256_storeu_si256((__m256i *)words, hits);
    for (int w = 0; w < 4; w++) {
        for (uint64_t bits = words[w]; bits; bits &= bits - 1) {
            size_t k = base + (size_t)w * 64 + (size_t)__builtin_ctzll(bits);
            if (k < count) out[found++] = (uint32_t)(k - from);
        }
    }
    return found;
}

__attribute__((target("avx2"))) static size_t table_within_avx2(const atl_hamming_table *table, uint64_t hash, size_t from,
                                                                unsigned threshold, uint32_t *out) {
    size_t count = table->count;
    size_t first_block = (from + block_size - 1) / block_size;
    if (first_block * block_size >= count) return atl_hamming_within(hash, table->keys + from, count - from, threshold, out);
    // The keys before the first whole block one by one, then block by block.
    size_t found = atl_hamming_within(hash, table->keys + from, first_block * block_size - from, threshold, out);
    __m256i query[64];
    for (int j = 0; j < 64; j++) query[j] = _mm256_set1_epi64x(-(long long)(hash >> j & 1));
    for (size_t block = first_block; block * block_size < count; block++) {
        __m256i hits = block_within((const __m256i *)(table->planes + block * 256), query, threshold);
        if (!_mm256_testz_si256(hits, hits)) found = append_lanes(hits, block * block_size, count, from, out, found);
    }
    return found;
}
#endif

size_t atl_hamming_table_within(const atl_hamming_table *table, uint64_t hash, size_t from, unsigned threshold,
                                uint32_t *out) {
    if (from >= table->count) return 0;
#if defined(__x86_64__)
    if (atl_hamming_use_avx2()) return table_within_avx2(table, hash, from, threshold, out);
#endif
    return atl_hamming_within(hash, table->keys + from, table->count - from, threshold, out);
}
