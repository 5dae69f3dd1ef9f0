// A small C layer over libpng for Swift, in the manner of atl_jpeg.h: libpng reports errors by
// longjmp to png_jmpbuf, which cannot cross Swift frames, so every function here catches them
// itself and returns a code and a message.
#ifndef ATL_PNG_H
#define ATL_PNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct atl_png_decoder atl_png_decoder;

/// Opens a decoder over `size` bytes at `data` (which must outlive it) and reads the header.
/// `has_alpha` is set for an alpha channel or a transparency chunk. NULL and a message on failure.
atl_png_decoder *atl_png_open(const uint8_t *data, size_t size, int *width, int *height, int *has_alpha,
                              char *message, size_t message_size);

/// Decodes every pixel at 8 bits per sample (16-bit samples keep their high byte, palettes and
/// low bit depths are expanded, interlacing undone) into `output_channels`: 1 grey, 3 RGB (alpha
/// composited over white) or 4 RGBA. Returns 0 on success.
int atl_png_read(atl_png_decoder *decoder, int output_channels, uint8_t *pixels);

const char *atl_png_message(const atl_png_decoder *decoder);

void atl_png_close(atl_png_decoder *decoder);

/// Encodes 8-bit pixels with 1 to 4 channels. On success returns 0 and sets `*output` to a
/// buffer of `*output_size` bytes that the caller frees with atl_png_free.
int atl_png_encode(const uint8_t *pixels, int width, int height, int channels,
                   uint8_t **output, size_t *output_size, char *message, size_t message_size);

void atl_png_free(void *buffer);

#ifdef __cplusplus
}
#endif

#endif
