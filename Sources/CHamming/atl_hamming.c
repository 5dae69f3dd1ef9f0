// See atl_hamming.h. Two implementations of one scan: AVX2 (four hashes an instruction, bits
// counted by nibble table lookups, Muła's method) where the processor has it, and a scalar one
// that uses the POPCNT instruction where the compiler may. Hits are rare (one comparison in
// thousands), so both test a block at a time and look closer only at a block with a hit.
#include "atl_hamming.h"
#include "atl_hamming_private.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/// The scan from position `k` on, positions appended to `out` from `found`; the new count.
static size_t scalar_within(uint64_t hash, const uint64_t *keys, size_t k, size_t count, unsigned threshold,
                            uint32_t *out, size_t found) {
    for (; k + 4 <= count; k += 4) {
        unsigned d0 = (unsigned)__builtin_popcountll(hash ^ keys[k]);
        unsigned d1 = (unsigned)__builtin_popcountll(hash ^ keys[k + 1]);
        unsigned d2 = (unsigned)__builtin_popcountll(hash ^ keys[k + 2]);
        unsigned d3 = (unsigned)__builtin_popcountll(hash ^ keys[k + 3]);
        if ((d0 <= threshold) | (d1 <= threshold) | (d2 <= threshold) | (d3 <= threshold)) {
            if (d0 <= threshold) out[found++] = (uint32_t)k;
            if (d1 <= threshold) out[found++] = (uint32_t)(k + 1);
            if (d2 <= threshold) out[found++] = (uint32_t)(k + 2);
            if (d3 <= threshold) out[found++] = (uint32_t)(k + 3);
        }
    }
    for (; k < count; k++)
        if ((unsigned)__builtin_popcountll(hash ^ keys[k]) <= threshold) out[found++] = (uint32_t)k;
    return found;
}

#if defined(__x86_64__)
/// Bits set in each 64-bit lane.
__attribute__((target("avx2"))) static inline __m256i popcount_lanes(__m256i v) {
    const __m256i table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                           0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i nibble = _mm256_set1_epi8(0x0f);
    __m256i low = _mm256_shuffle_epi8(table, _mm256_and_si256(v, nibble));
    __m256i high = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
    return _mm256_sad_epu8(_mm256_add_epi8(low, high), _mm256_setzero_si256());
}

__attribute__((target("avx2"))) static size_t avx2_within(uint64_t hash, const uint64_t *keys, size_t count,
                                                          unsigned threshold, uint32_t *out) {
    const __m256i h = _mm256_set1_epi64x((long long)hash);
    const __m256i limit = _mm256_set1_epi64x((long long)threshold + 1);  // within: limit > bits
    size_t found = 0, k = 0;
    for (; k + 16 <= count; k += 16) {
        __m256i a = popcount_lanes(_mm256_xor_si256(h, _mm256_loadu_si256((const __m256i *)(keys + k))));
        __m256i b = popcount_lanes(_mm256_xor_si256(h, _mm256_loadu_si256((const __m256i *)(keys + k + 4))));
        __m256i c = popcount_lanes(_mm256_xor_si256(h, _mm256_loadu_si256((const __m256i *)(keys + k + 8))));
        __m256i d = popcount_lanes(_mm256_xor_si256(h, _mm256_loadu_si256((const __m256i *)(keys + k + 12))));
        a = _mm256_cmpgt_epi64(limit, a);
        b = _mm256_cmpgt_epi64(limit, b);
        c = _mm256_cmpgt_epi64(limit, c);
        d = _mm256_cmpgt_epi64(limit, d);
        __m256i any = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
        if (_mm256_testz_si256(any, any)) continue;
        unsigned hits = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(a))
                      | (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(b)) << 4
                      | (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(c)) << 8
                      | (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(d)) << 12;
        while (hits) {
            out[found++] = (uint32_t)(k + (unsigned)__builtin_ctz(hits));
            hits &= hits - 1;
        }
    }
    for (; k + 4 <= count; k += 4) {
        __m256i a = popcount_lanes(_mm256_xor_si256(h, _mm256_loadu_si256((const __m256i *)(keys + k))));
        unsigned hits = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(limit, a)));
        while (hits) {
            out[found++] = (uint32_t)(k + (unsigned)__builtin_ctz(hits));
            hits &= hits - 1;
        }
    }
    return scalar_within(hash, keys, k, count, threshold, out, found);
}

/// 1 where the processor has AVX2, 0 where not, -1 before the first call asks (threads that
/// ask at once all find the same answer).
static int has_avx2 = -1;

int atl_hamming_use_avx2(void) {
    int known = __atomic_load_n(&has_avx2, __ATOMIC_RELAXED);
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&has_avx2, known, __ATOMIC_RELAXED);
    }
    return known;
}
#endif

size_t atl_hamming_within(uint64_t hash, const uint64_t *keys, size_t count, unsigned threshold, uint32_t *out) {
#if defined(__x86_64__)
    if (atl_hamming_use_avx2()) return avx2_within(hash, keys, count, threshold, out);
#endif
    return scalar_within(hash, keys, 0, count, threshold, out, 0);
}

size_t atl_hamming_within_portable(uint64_t hash, const uint64_t *keys, size_t count, unsigned threshold, uint32_t *out) {
    return scalar_within(hash, keys, 0, count, threshold, out, 0);
}

const char *atl_hamming_kind(void) {
#if defined(__x86_64__)
    if (atl_hamming_use_avx2()) return "avx2";
#endif
    return "scalar";
}
