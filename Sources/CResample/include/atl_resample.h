// The two passes of a separable resize in fixed point (Pillow's `ImagingResample`: weights with
// 22 fractional bits, sums from a half, shifted and clipped to 0...255). A photo's thumbnails
// and hashes are most of the pixel work of an import besides decoding, and Swift builds for the
// first x86-64, whose vectors have no 32-bit multiply; AVX2 multiplies eight sums at once, so
// the passes are done here, chosen at run time. Integer sums wrap alike in every order, so both
// implementations give the same bytes.
#ifndef ATL_RESAMPLE_H
#define ATL_RESAMPLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Where each output sample of one pass reads: output position x sums `counts[x]` inputs from
/// `starts[x]` on, with the weights `weights[x * stride ..< x * stride + counts[x]]`.
typedef struct {
    const int32_t *weights;
    const intptr_t *starts;
    const intptr_t *counts;
    size_t stride;
    size_t outputs;
} atl_resample_kernel;

/// One row of the horizontal pass: `source` holds the row's pixels (`channels` samples each),
/// and `readable` bytes from `source` on may be read (the row and whatever of the buffer
/// follows it, which lets whole vectors be loaded near the row's end); writes `kernel->outputs`
/// pixels to `target`.
void atl_resample_row(const uint8_t *source, size_t readable, size_t channels, const atl_resample_kernel *kernel,
                      uint8_t *target);

/// One row of the vertical pass: output row `y` of `kernel` from the input rows it names, each
/// `row_length` samples, the first at `source`.
void atl_resample_column(const uint8_t *source, size_t row_length, const atl_resample_kernel *kernel, size_t y,
                         uint8_t *target);

/// The same two without vector instructions, for tests that compare the two.
void atl_resample_row_portable(const uint8_t *source, size_t channels, const atl_resample_kernel *kernel,
                               uint8_t *target);
void atl_resample_column_portable(const uint8_t *source, size_t row_length, const atl_resample_kernel *kernel,
                                  size_t y, uint8_t *target);

/// 1 where the passes use AVX2.
int atl_resample_uses_avx2(void);

#ifdef __cplusplus
}
#endif

#endif
