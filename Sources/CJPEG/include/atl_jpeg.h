// A small C layer over libjpeg(-turbo) for Swift.
//
// libjpeg reports fatal errors by calling error_exit, which must not return; the usual answer
// is setjmp/longjmp, which cannot cross Swift frames. Every function here sets its own jump
// point before calling into libjpeg, so an error in a corrupt or truncated file becomes a return
// code and a message, never a crash or an exit(). Warnings about corrupt data (libjpeg's
// "premature end of data", "corrupt data: N extraneous bytes") are counted and reported as
// errors too: a truncated photo must not be imported as a grey-bottomed one.
#ifndef ATL_JPEG_H
#define ATL_JPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct atl_jpeg_decoder atl_jpeg_decoder;

/// What the header says.
typedef struct {
    int width;
    int height;
    /// 1 (greyscale), 3 (YCbCr/RGB) or 4 (CMYK/YCCK).
    int components;
    int progressive;
} atl_jpeg_info;

/// Opens a decoder over `size` bytes at `data` (which must outlive it) and reads the header.
/// Returns NULL and fills `message` (at most `message_size` bytes) on failure.
atl_jpeg_decoder *atl_jpeg_open(const uint8_t *data, size_t size, atl_jpeg_info *info,
                                char *message, size_t message_size);

/// Starts decoding at 1/`scale_denominator` size (1, 2, 4 or 8: libjpeg's DCT scaling) into
/// `output_components` channels (1: grey, 3: RGB). Sets the output size. Returns 0 on success.
/// At 1/8 a baseline grey, 4:4:4 or 4:2:0 photo is decoded by atl_jpeg_eighth.c, which gives
/// libjpeg-turbo's bytes in about 4/5 of its time; anything else by libjpeg.
int atl_jpeg_start(atl_jpeg_decoder *decoder, int scale_denominator, int output_components,
                   int *output_width, int *output_height);

/// Decodes every row into `pixels` (output_width * output_height * output_components bytes,
/// rows top to bottom). Returns 0 on success; on failure the message says why.
int atl_jpeg_read(atl_jpeg_decoder *decoder, uint8_t *pixels);

/// The last error message of this decoder.
const char *atl_jpeg_message(const atl_jpeg_decoder *decoder);

void atl_jpeg_close(atl_jpeg_decoder *decoder);

/// Turns the eighth-scale decoder on or off (it is on); returns the previous setting. For tests
/// that compare it with libjpeg.
int atl_jpeg_use_eighth(int enabled);

/// How many decodes the eighth-scale decoder has done in this process.
long atl_jpeg_eighth_decodes(void);

/// Encodes 8-bit pixels (1 or 3 components) as a baseline JPEG of `quality` (1-100), 4:2:0
/// chroma subsampling for colour. On success returns 0 and sets `*output` to a buffer of
/// `*output_size` bytes that the caller frees with atl_jpeg_free.
int atl_jpeg_encode(const uint8_t *pixels, int width, int height, int components, int quality,
                    uint8_t **output, size_t *output_size, char *message, size_t message_size);

void atl_jpeg_free(void *buffer);

#ifdef __cplusplus
}
#endif

#endif
