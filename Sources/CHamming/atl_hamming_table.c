// See atl_hamming.h: a table of hashes bit-sliced in blocks of 256, scanned by counting 256
// distances at once with carry-save adders (Harley and Seal's population count, done across
// the hashes instead of along one), which is what an all-pairs search at a wide threshold
// spends its time on. Only the planes of the query's rarer bit value are summed (32 at most,
// not 64): with S the set bits of a hash among the query's ones, the distance is
// |h| + |q| - 2S, and with S counted among the query's zeros it is 2S + |q| - |h|; each block
// keeps its hashes' bit counts |h| bit-sliced too. A quarter of the instructions per hash of the
// nibble-table scan.
#include "atl_hamming.h"
#include "atl_hamming_private.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

enum {
    block_size = 256,
    zero_plane = 64,         // all clear, summed where fewer than 32 planes are
    count_planes = 65,       // 7 planes from here: bit b of lane i is bit b of hash i's bit count
    planes_per_block = 72,
    max_queries = 8,         // scanned together
};

struct atl_hamming_table {
    size_t count;
    uint64_t *keys;    // in order, for the partial block a scan starts in and for processors without AVX2
    uint64_t *planes;  // per block, 72 planes of 4 words: bit i of plane j < 64 is bit j of the block's hash i
};

atl_hamming_table *atl_hamming_table_make(const uint64_t *keys, size_t count) {
    atl_hamming_table *table = calloc(1, sizeof *table);
    if (!table) return NULL;
    size_t blocks = (count + block_size - 1) / block_size;
    table->count = count;
    table->keys = malloc((count ? count : 1) * sizeof *keys);
    table->planes = aligned_alloc(32, (blocks ? blocks : 1) * planes_per_block * 32);
    if (!table->keys || !table->planes) {
        atl_hamming_table_free(table);
        return NULL;
    }
    memcpy(table->keys, keys, count * sizeof *keys);
    memset(table->planes, 0, (blocks ? blocks : 1) * planes_per_block * 32);
    for (size_t k = 0; k < count; k++) {
        uint64_t *block = table->planes + (k / block_size) * planes_per_block * 4;
        size_t lane = k % block_size, word = lane / 64;
        uint64_t bit = (uint64_t)1 << (lane % 64);
        for (uint64_t h = keys[k]; h; h &= h - 1) block[(size_t)__builtin_ctzll(h) * 4 + word] |= bit;
        for (unsigned n = (unsigned)__builtin_popcountll(keys[k]), b = 0; n; n >>= 1, b++)
            if (n & 1) block[(count_planes + b) * 4 + word] |= bit;
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

/// Adds the bits of four planes (offsets from `block`) into the running `ones` and `twos`;
/// returns the fours they carry out.
__attribute__((target("avx2"))) static inline __m256i add4(const __m256i *block, const int *p, __m256i *ones, __m256i *twos) {
    __m256i twosA, twosB, fours;
    CSA(twosA, *ones, *ones, _mm256_load_si256(block + p[0]), _mm256_load_si256(block + p[1]));
    CSA(twosB, *ones, *ones, _mm256_load_si256(block + p[2]), _mm256_load_si256(block + p[3]));
    CSA(fours, *twos, *twos, twosA, twosB);
    return fours;
}

/// The same for eight planes, adding into `fours` too; returns the eights carried out.
__attribute__((target("avx2"))) static inline __m256i add8(const __m256i *block, const int *p, __m256i *ones, __m256i *twos,
                                                           __m256i *fours) {
    __m256i foursA = add4(block, p, ones, twos), foursB = add4(block, p + 4, ones, twos), eights;
    CSA(eights, *fours, *fours, foursA, foursB);
    return eights;
}

/// What a scan asks of every block: which 32 planes to sum (the query's rarer bit value,
/// padded with the zero plane), which way round the sum counts, and the bound it must meet.
typedef struct {
    int planes[32];
    /// The sum S is over the query's ones: then the distance is |h| + |q| - 2S, else 2S + |q| - |h|.
    int over_ones;
    /// The signed difference (|h| - 2S, or 2S - |h|) is within when at most threshold - |q|;
    /// here plus 128, as the 8-bit unsigned number the comparison reads, a mask per bit.
    __m256i bound[8];
} query_plan;

__attribute__((target("avx2"))) static void plan_query(uint64_t hash, unsigned threshold, query_plan *plan) {
    unsigned ones = (unsigned)__builtin_popcountll(hash);
    plan->over_ones = ones <= 32;
    int n = 0;
    for (int j = 0; j < 64; j++)
        if ((hash >> j & 1) == (uint64_t)plan->over_ones) plan->planes[n++] = j;
    while (n < 32) plan->planes[n++] = zero_plane;
    unsigned bound = (unsigned)((int)threshold - (int)ones + 128);
    for (int b = 0; b < 8; b++) plan->bound[b] = _mm256_set1_epi64x(-(long long)(bound >> b & 1));
}

/// The lanes of one block whose hash is within the planned distance of the query: S is summed
/// over the planned planes as a 6-bit number held bit-sliced, the signed difference with the
/// block's bit counts formed in 8 bits (two's complement) and compared with the bound. Written
/// out for each way round (`over_ones` a constant where it is inlined), without branches on
/// the query: Clang kept arrays of vectors in memory and branched on the bound's bits, which
/// made the scan slower than summing all 64 planes.
__attribute__((target("avx2"))) static inline __m256i block_within(const __m256i *block, const query_plan *plan,
                                                                   const int over_ones) {
    __m256i ones = _mm256_setzero_si256(), twos = ones, fours = ones, eights = ones, sixteensA, sixteensB;
    {
        const int *p = plan->planes;
        __m256i eightsA = add8(block, p, &ones, &twos, &fours), eightsB = add8(block, p + 8, &ones, &twos, &fours);
        CSA(sixteensA, eights, eights, eightsA, eightsB);
        eightsA = add8(block, p + 16, &ones, &twos, &fours), eightsB = add8(block, p + 24, &ones, &twos, &fours);
        CSA(sixteensB, eights, eights, eightsA, eightsB);
    }
    const __m256i zero = _mm256_setzero_si256(), all = _mm256_set1_epi64x(-1);
    // x - y = x + ~y + 1 in 8 bits, x and y being |h| and 2S (or 2S and |h|), bit b of each
    // read as it is needed; the sign bit flipped gives the difference plus 128, unsigned.
#define TWICE(b) ((b) == 0 ? zero : (b) == 1 ? ones : (b) == 2 ? twos : (b) == 3 ? fours : (b) == 4 ? eights \
                  : (b) == 5 ? _mm256_xor_si256(sixteensA, sixteensB) : (b) == 6 ? _mm256_and_si256(sixteensA, sixteensB) : zero)
#define COUNT(b) ((b) < 7 ? _mm256_load_si256(block + count_planes + (b)) : zero)
    __m256i d0, d1, d2, d3, d4, d5, d6, d7, carry = all;
#define DIGIT(b, out)                                                                            \
    do {                                                                                         \
        __m256i x_ = over_ones ? COUNT(b) : TWICE(b), y_ = over_ones ? TWICE(b) : COUNT(b);      \
        __m256i notY_ = _mm256_xor_si256(y_, all), half_ = _mm256_xor_si256(x_, notY_);          \
        out = _mm256_xor_si256(half_, carry);                                                    \
        carry = _mm256_or_si256(_mm256_and_si256(x_, notY_), _mm256_and_si256(carry, half_));    \
    } while (0)
    DIGIT(0, d0); DIGIT(1, d1); DIGIT(2, d2); DIGIT(3, d3); DIGIT(4, d4); DIGIT(5, d5); DIGIT(6, d6); DIGIT(7, d7);
    d7 = _mm256_xor_si256(d7, all);
    // Greater than the bound, from the highest bit down: where a set bit meets a clear one of
    // the bound while all higher bits were equal.
    __m256i greater = zero, equal = all;
#define COMPARE(d, b)                                                                              \
    do {                                                                                           \
        greater = _mm256_or_si256(greater, _mm256_and_si256(equal, _mm256_andnot_si256(plan->bound[b], d))); \
        equal = _mm256_andnot_si256(_mm256_xor_si256(d, plan->bound[b]), equal);                  \
    } while (0)
    COMPARE(d7, 7); COMPARE(d6, 6); COMPARE(d5, 5); COMPARE(d4, 4); COMPARE(d3, 3); COMPARE(d2, 2); COMPARE(d1, 1);
    COMPARE(d0, 0);
#undef COMPARE
#undef DIGIT
#undef COUNT
#undef TWICE
    return _mm256_andnot_si256(greater, all);
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

/// The scan of several queries at once (at most `max_queries`): the table streams from memory
/// once for them all, where it would stream once for each (a hundred thousand hashes' table is
/// 900 kB, more than the core's cache, and summing half the planes left the scan waiting on it).
__attribute__((target("avx2"))) static void table_within_avx2(const atl_hamming_table *table, const uint64_t *hashes,
                                                              const size_t *from, size_t queries, unsigned threshold,
                                                              uint32_t *const *out, size_t *found) {
    size_t count = table->count, first_block = 0;
    for (size_t q = 0; q < queries; q++) {
        size_t first = (from[q] + block_size - 1) / block_size;
        if (first > first_block) first_block = first;
    }
    size_t whole = first_block * block_size < count ? first_block * block_size : count;
    // The keys before the first whole block one by one, then block by block.
    query_plan plans[max_queries];
    for (size_t q = 0; q < queries; q++) {
        found[q] = from[q] < whole ? atl_hamming_within(hashes[q], table->keys + from[q], whole - from[q], threshold, out[q]) : 0;
        plan_query(hashes[q], threshold, &plans[q]);
    }
    for (size_t block = first_block; block * block_size < count; block++) {
        const __m256i *planes = (const __m256i *)(table->planes + block * planes_per_block * 4);
        for (size_t q = 0; q < queries; q++) {
            __m256i hits = plans[q].over_ones ? block_within(planes, &plans[q], 1) : block_within(planes, &plans[q], 0);
            if (!_mm256_testz_si256(hits, hits)) found[q] = append_lanes(hits, block * block_size, count, from[q], out[q], found[q]);
        }
    }
}
#endif

void atl_hamming_table_within_many(const atl_hamming_table *table, const uint64_t *hashes, const size_t *from,
                                   size_t queries, unsigned threshold, uint32_t *const *out, size_t *found) {
#if defined(__x86_64__)
    if (atl_hamming_use_avx2()) {
        for (size_t q = 0; q < queries; q++) found[q] = 0;
        // Queries starting past the end find nothing, and must not hold the others' blocks back.
        size_t live[max_queries], n = 0;
        for (size_t start = 0; start < queries; start += n) {
            n = queries - start < max_queries ? queries - start : max_queries;
            size_t m = 0;
            uint64_t some[max_queries];
            size_t starts[max_queries], counts[max_queries];
            uint32_t *outs[max_queries];
            for (size_t q = start; q < start + n; q++) {
                if (from[q] >= table->count) continue;
                live[m] = q, some[m] = hashes[q], starts[m] = from[q], outs[m] = out[q];
                m++;
            }
            if (m == 0) continue;
            table_within_avx2(table, some, starts, m, threshold, outs, counts);
            for (size_t k = 0; k < m; k++) found[live[k]] = counts[k];
        }
        return;
    }
#endif
    for (size_t q = 0; q < queries; q++)
        found[q] = from[q] < table->count ? atl_hamming_within(hashes[q], table->keys + from[q], table->count - from[q], threshold, out[q]) : 0;
}

size_t atl_hamming_table_within(const atl_hamming_table *table, uint64_t hash, size_t from, unsigned threshold,
                                uint32_t *out) {
    size_t found;
    atl_hamming_table_within_many(table, &hash, &from, 1, threshold, &out, &found);
    return found;
}
