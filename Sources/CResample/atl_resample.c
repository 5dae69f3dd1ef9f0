// See atl_resample.h. The sums are kept in unsigned 32-bit arithmetic, which wraps as Pillow's
// (and the Swift loops' `&+`) do, and read back as signed for the shift.
#include "atl_resample.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

enum { precision_bits = 22 };
static const uint32_t half = 1u << (precision_bits - 1);

static inline uint8_t clip8(uint32_t sum) {
    int32_t value = (int32_t)sum >> precision_bits;
    return value < 0 ? 0 : value > 255 ? 255 : (uint8_t)value;
}

void atl_resample_row_portable(const uint8_t *source, size_t channels, const atl_resample_kernel *kernel,
                               uint8_t *target) {
    for (size_t x = 0; x < kernel->outputs; x++) {
        const int32_t *w = kernel->weights + x * kernel->stride;
        const uint8_t *p = source + (size_t)kernel->starts[x] * channels;
        size_t taps = (size_t)kernel->counts[x];
        for (size_t c = 0; c < channels; c++) {
            uint32_t sum = half;
            for (size_t i = 0; i < taps; i++) sum += (uint32_t)p[i * channels + c] * (uint32_t)w[i];
            target[x * channels + c] = clip8(sum);
        }
    }
}

void atl_resample_column_portable(const uint8_t *source, size_t row_length, const atl_resample_kernel *kernel,
                                  size_t y, uint8_t *target) {
    const int32_t *w = kernel->weights + y * kernel->stride;
    const uint8_t *first = source + (size_t)kernel->starts[y] * row_length;
    size_t taps = (size_t)kernel->counts[y];
    for (size_t x = 0; x < row_length; x++) {
        uint32_t sum = half;
        for (size_t i = 0; i < taps; i++) sum += (uint32_t)first[i * row_length + x] * (uint32_t)w[i];
        target[x] = clip8(sum);
    }
}

#if defined(__x86_64__)
/// Eight sums shifted and clipped to bytes, in the low 8 bytes (as `clip8` each: the shifted
/// values lie within ±512, so the 16-bit saturation in between never bites).
__attribute__((target("avx2"))) static inline __m128i clip8x8(__m256i sums) {
    __m256i shifted = _mm256_srai_epi32(sums, precision_bits);
    __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(shifted), _mm256_extracti128_si256(shifted, 1));
    return _mm_packus_epi16(words, words);
}

/// Pixels of 3 and 4 samples are widened two taps to a vector (one sample a lane, the fourth
/// lane of a 3-sample pixel zero), grey pixels eight taps to a vector. The taps are read in whole
/// vectors past `counts[x]` (their weights are zero) as far as `readable` allows.
__attribute__((target("avx2"))) static void row_avx2(const uint8_t *source, size_t readable, size_t channels,
                                                      const atl_resample_kernel *kernel, uint8_t *target) {
    const __m128i spread3 = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m256i first_two = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const __m256i last_two = _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3);
    const __m128i start = _mm_set1_epi32((int)half);
    for (size_t x = 0; x < kernel->outputs; x++) {
        const int32_t *w = kernel->weights + x * kernel->stride;
        size_t offset = (size_t)kernel->starts[x] * channels;
        const uint8_t *p = source + offset;
        size_t taps = (size_t)kernel->counts[x], i = 0;
        __m256i a = _mm256_setzero_si256(), b = _mm256_setzero_si256();
        if (channels == 1) {
            size_t whole = (taps + 7) & ~(size_t)7;
            for (; i + 16 <= whole && offset + i + 16 <= readable; i += 16) {
                __m128i bytes = _mm_loadu_si128((const __m128i *)(p + i));
                a = _mm256_add_epi32(a, _mm256_mullo_epi32(_mm256_cvtepu8_epi32(bytes),
                                                           _mm256_loadu_si256((const __m256i *)(w + i))));
                b = _mm256_add_epi32(b, _mm256_mullo_epi32(_mm256_cvtepu8_epi32(_mm_srli_si128(bytes, 8)),
                                                           _mm256_loadu_si256((const __m256i *)(w + i + 8))));
            }
            for (; i + 8 <= whole && offset + i + 8 <= readable; i += 8)
                a = _mm256_add_epi32(a, _mm256_mullo_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(p + i))),
                                                           _mm256_loadu_si256((const __m256i *)(w + i))));
            __m256i ab = _mm256_add_epi32(a, b);
            __m128i s = _mm_add_epi32(_mm256_castsi256_si128(ab), _mm256_extracti128_si256(ab, 1));
            s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
            s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
            uint32_t sum = (uint32_t)_mm_cvtsi128_si32(s) + half;
            for (; i < taps; i++) sum += (uint32_t)p[i] * (uint32_t)w[i];
            target[x] = clip8(sum);
            continue;
        }
        size_t whole = (taps + 3) & ~(size_t)3;
        for (; i + 4 <= whole && offset + channels * i + 16 <= readable; i += 4) {
            __m128i bytes = _mm_loadu_si128((const __m128i *)(p + channels * i));
            if (channels == 3) bytes = _mm_shuffle_epi8(bytes, spread3);
            __m256i weights = _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(w + i)));
            a = _mm256_add_epi32(a, _mm256_mullo_epi32(_mm256_cvtepu8_epi32(bytes),
                                                       _mm256_permutevar8x32_epi32(weights, first_two)));
            b = _mm256_add_epi32(b, _mm256_mullo_epi32(_mm256_cvtepu8_epi32(_mm_srli_si128(bytes, 8)),
                                                       _mm256_permutevar8x32_epi32(weights, last_two)));
        }
        __m256i ab = _mm256_add_epi32(a, b);
        __m128i s = _mm_add_epi32(_mm_add_epi32(_mm256_castsi256_si128(ab), _mm256_extracti128_si256(ab, 1)), start);
        if (i < taps) {  // near the end of the buffer only
            uint32_t sums[4];
            _mm_storeu_si128((__m128i *)sums, s);
            for (; i < taps; i++)
                for (size_t c = 0; c < channels; c++) sums[c] += (uint32_t)p[channels * i + c] * (uint32_t)w[i];
            s = _mm_loadu_si128((const __m128i *)sums);
        }
        __m128i words = _mm_packs_epi32(_mm_srai_epi32(s, precision_bits), _mm_setzero_si128());
        uint32_t pixel = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(words, words));
        uint8_t *out = target + x * channels;
        if (channels == 4 || x + 1 < kernel->outputs) {
            __builtin_memcpy(out, &pixel, 4);  // a 3-sample pixel's fourth byte is the next pixel's, written next
        } else {
            out[0] = (uint8_t)pixel;
            out[1] = (uint8_t)(pixel >> 8);
            out[2] = (uint8_t)(pixel >> 16);
        }
    }
}

/// Sixteen output samples at a time, each tap's row read as one vector.
__attribute__((target("avx2"))) static void column_avx2(const uint8_t *source, size_t row_length,
                                                         const atl_resample_kernel *kernel, size_t y, uint8_t *target) {
    const int32_t *w = kernel->weights + y * kernel->stride;
    const uint8_t *first = source + (size_t)kernel->starts[y] * row_length;
    size_t taps = (size_t)kernel->counts[y], x = 0;
    const __m256i start = _mm256_set1_epi32((int)half);
    for (; x + 16 <= row_length; x += 16) {
        __m256i a = start, b = start;
        for (size_t i = 0; i < taps; i++) {
            __m128i bytes = _mm_loadu_si128((const __m128i *)(first + i * row_length + x));
            __m256i weight = _mm256_set1_epi32(w[i]);
            a = _mm256_add_epi32(a, _mm256_mullo_epi32(_mm256_cvtepu8_epi32(bytes), weight));
            b = _mm256_add_epi32(b, _mm256_mullo_epi32(_mm256_cvtepu8_epi32(_mm_srli_si128(bytes, 8)), weight));
        }
        _mm_storel_epi64((__m128i *)(target + x), clip8x8(a));
        _mm_storel_epi64((__m128i *)(target + x + 8), clip8x8(b));
    }
    for (; x + 8 <= row_length; x += 8) {
        __m256i a = start;
        for (size_t i = 0; i < taps; i++) {
            __m128i bytes = _mm_loadl_epi64((const __m128i *)(first + i * row_length + x));
            a = _mm256_add_epi32(a, _mm256_mullo_epi32(_mm256_cvtepu8_epi32(bytes), _mm256_set1_epi32(w[i])));
        }
        _mm_storel_epi64((__m128i *)(target + x), clip8x8(a));
    }
    for (; x < row_length; x++) {
        uint32_t sum = half;
        for (size_t i = 0; i < taps; i++) sum += (uint32_t)first[i * row_length + x] * (uint32_t)w[i];
        target[x] = clip8(sum);
    }
}

/// The compiler's runtime keeps what the processor has (it asks once, as the program starts).
int atl_resample_uses_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}
#else
int atl_resample_uses_avx2(void) { return 0; }
#endif

void atl_resample_row(const uint8_t *source, size_t readable, size_t channels, const atl_resample_kernel *kernel,
                      uint8_t *target) {
#if defined(__x86_64__)
    if ((channels == 1 || channels == 3 || channels == 4) && atl_resample_uses_avx2()) {
        row_avx2(source, readable, channels, kernel, target);
        return;
    }
#endif
    (void)readable;
    atl_resample_row_portable(source, channels, kernel, target);
}

void atl_resample_column(const uint8_t *source, size_t row_length, const atl_resample_kernel *kernel, size_t y,
                         uint8_t *target) {
#if defined(__x86_64__)
    if (atl_resample_uses_avx2()) {
        column_avx2(source, row_length, kernel, y, target);
        return;
    }
#endif
    atl_resample_column_portable(source, row_length, kernel, y, target);
}
