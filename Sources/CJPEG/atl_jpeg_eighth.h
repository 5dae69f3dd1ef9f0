// An eighth-scale decoder for baseline JPEG that skips the AC codes it does not need several
// at a time; see atl_jpeg_eighth.c.
#ifndef ATL_JPEG_EIGHTH_H
#define ATL_JPEG_EIGHTH_H

#include <stddef.h>
#include <stdint.h>

/// What libjpeg read from the headers, for one scan holding every component (the caller checks
/// that the stream is baseline, Huffman-coded, 8-bit, and grey, 4:4:4 or 4:2:0 YCbCr).
typedef struct {
    int width, height, components;
    int h[3], v[3];
    int dc_table[3], ac_table[3];   // 0 or 1
    uint16_t quant[3][64];          // natural order
    uint8_t dc_counts[2][17], dc_values[2][256];
    uint8_t ac_counts[2][17], ac_values[2][256];
    int restart_interval;
    size_t scan_start;              // offset of the entropy-coded data
} atl_jpeg_eighth_layout;

/// Decodes at 1/8 scale into `pixels` (ceil(width/8) x ceil(height/8), `output_components` 1
/// or 3), exactly as libjpeg-turbo does; nonzero, with `pixels` undefined, when the stream is
/// anything but what it expects (the caller then asks libjpeg).
int atl_jpeg_eighth(const atl_jpeg_eighth_layout *layout, const uint8_t *data, size_t size, int output_components,
                    uint8_t *pixels);

#endif
