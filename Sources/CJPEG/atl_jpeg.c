#include "atl_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

struct atl_error_manager {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    int corrupt_warnings;
    char message[JMSG_LENGTH_MAX];
};

/// Scans a file may have before it is refused. A progressive scan can cover the whole image in
/// a few bytes (an EOB run, or arithmetic coding) and may repeat, so a small file of thousands
/// of scans keeps libjpeg busy for minutes while being valid JPEG: a 60 kB file of 3,300 scans
/// over 100 megapixels takes a minute. This is issue LJT-01-003 of libjpeg-turbo's "Two Issues
/// with the JPEG Standard", which its maintainer answers with a limit set in a progress monitor.
/// Encoders write a few dozen scans at most; 500 is the limit libjpeg-turbo's own fuzzers set
/// (TJPARAM_SCANLIMIT).
#define ATL_JPEG_MAX_SCANS 500

struct atl_jpeg_decoder {
    struct jpeg_decompress_struct info;
    struct atl_error_manager error;
    struct jpeg_progress_mgr progress;
    int started;
    int output_components;
    int cmyk;
};

static void atl_error_exit(j_common_ptr cinfo) {
    struct atl_error_manager *error = (struct atl_error_manager *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, error->message);
    longjmp(error->jump, 1);
}

static void atl_emit_message(j_common_ptr cinfo, int level) {
    struct atl_error_manager *error = (struct atl_error_manager *)cinfo->err;
    if (level >= 0) return;
    // A warning: libjpeg carries on over damage, filling what is missing with grey. Missing or
    // unusable data is an error here; stray bytes between markers (common in camera files,
    // and harmless) are not.
    switch (cinfo->err->msg_code) {
    case JWRN_JPEG_EOF:
    case JWRN_HIT_MARKER:
    case JWRN_MUST_RESYNC:
    case JWRN_NOT_SEQUENTIAL:
    case JWRN_HUFF_BAD_CODE:
        if (error->corrupt_warnings++ == 0) (*cinfo->err->format_message)(cinfo, error->message);
        break;
    default:
        break;
    }
}

static void atl_output_message(j_common_ptr cinfo) { (void)cinfo; }

/// libjpeg calls this for every row of MCUs it reads, so a flood of scans stops as it starts.
static void atl_progress_monitor(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor || ((j_decompress_ptr)cinfo)->input_scan_number <= ATL_JPEG_MAX_SCANS) return;
    struct atl_error_manager *error = (struct atl_error_manager *)cinfo->err;
    snprintf(error->message, sizeof error->message, "more than %d scans", ATL_JPEG_MAX_SCANS);
    longjmp(error->jump, 1);
}

static void atl_init_errors(struct atl_error_manager *error) {
    jpeg_std_error(&error->base);
    error->base.error_exit = atl_error_exit;
    error->base.emit_message = atl_emit_message;
    error->base.output_message = atl_output_message;
    error->corrupt_warnings = 0;
    error->message[0] = 0;
}

static void copy_message(char *to, size_t size, const char *from) {
    if (to == NULL || size == 0) return;
    snprintf(to, size, "%s", from);
}

atl_jpeg_decoder *atl_jpeg_open(const uint8_t *data, size_t size, atl_jpeg_info *info,
                                char *message, size_t message_size) {
    if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) {
        copy_message(message, message_size, size == 0 ? "empty file" : "not a JPEG file (no SOI marker)");
        return NULL;
    }
    atl_jpeg_decoder *decoder = calloc(1, sizeof(atl_jpeg_decoder));
    if (decoder == NULL) {
        copy_message(message, message_size, "out of memory");
        return NULL;
    }
    decoder->info.err = &decoder->error.base;
    atl_init_errors(&decoder->error);
    if (setjmp(decoder->error.jump)) {
        copy_message(message, message_size, decoder->error.message);
        jpeg_destroy_decompress(&decoder->info);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->info);
    decoder->progress.progress_monitor = atl_progress_monitor;
    decoder->info.progress = &decoder->progress;
    jpeg_mem_src(&decoder->info, data, (unsigned long)size);
    jpeg_read_header(&decoder->info, TRUE);
    info->width = (int)decoder->info.image_width;
    info->height = (int)decoder->info.image_height;
    info->components = decoder->info.num_components;
    info->progressive = decoder->info.progressive_mode ? 1 : 0;
    decoder->cmyk = decoder->info.jpeg_color_space == JCS_CMYK || decoder->info.jpeg_color_space == JCS_YCCK;
    return decoder;
}

int atl_jpeg_start(atl_jpeg_decoder *decoder, int scale_denominator, int output_components,
                   int *output_width, int *output_height) {
    if (setjmp(decoder->error.jump)) return 1;
    struct jpeg_decompress_struct *info = &decoder->info;
    info->scale_num = 1;
    info->scale_denom = (unsigned int)scale_denominator;
    info->dct_method = JDCT_ISLOW;
    decoder->output_components = output_components;
    if (decoder->cmyk) {
        info->out_color_space = JCS_CMYK;  // converted to RGB or grey row by row below
    } else {
        info->out_color_space = output_components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    }
    jpeg_start_decompress(info);
    decoder->started = 1;
    *output_width = (int)info->output_width;
    *output_height = (int)info->output_height;
    return 0;
}

/// CMYK as Adobe writes it (inverted: 255 means no ink) to RGB or grey.
static void cmyk_row_to_output(const uint8_t *cmyk, uint8_t *out, int width, int components, int inverted) {
    for (int x = 0; x < width; x++) {
        int c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        int r = (c * k + 127) / 255, g = (m * k + 127) / 255, b = (y * k + 127) / 255;
        if (components == 1) {
            out[x] = (uint8_t)((r * 77 + g * 150 + b * 29 + 128) >> 8);
        } else {
            out[3 * x] = (uint8_t)r;
            out[3 * x + 1] = (uint8_t)g;
            out[3 * x + 2] = (uint8_t)b;
        }
    }
}

int atl_jpeg_read(atl_jpeg_decoder *decoder, uint8_t *pixels) {
    struct jpeg_decompress_struct *info = &decoder->info;
    uint8_t *volatile cmyk_row = NULL;
    if (setjmp(decoder->error.jump)) {
        free(cmyk_row);
        return 1;
    }
    const size_t stride = (size_t)info->output_width * (size_t)decoder->output_components;
    if (decoder->cmyk) {
        cmyk_row = malloc((size_t)info->output_width * 4);
        if (cmyk_row == NULL) {
            snprintf(decoder->error.message, sizeof decoder->error.message, "out of memory");
            return 1;
        }
    }
    while (info->output_scanline < info->output_height) {
        uint8_t *row = pixels + (size_t)info->output_scanline * stride;
        JSAMPROW target = decoder->cmyk ? (JSAMPROW)cmyk_row : row;
        if (jpeg_read_scanlines(info, &target, 1) != 1) break;
        if (decoder->cmyk) {
            cmyk_row_to_output(cmyk_row, row, (int)info->output_width, decoder->output_components, info->saw_Adobe_marker);
        }
    }
    free(cmyk_row);
    cmyk_row = NULL;
    jpeg_finish_decompress(info);
    decoder->started = 0;
    if (decoder->error.corrupt_warnings > 0) return 1;
    return 0;
}

const char *atl_jpeg_message(const atl_jpeg_decoder *decoder) { return decoder->error.message; }

void atl_jpeg_close(atl_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    jpeg_destroy_decompress(&decoder->info);
    free(decoder);
}

int atl_jpeg_encode(const uint8_t *pixels, int width, int height, int components, int quality,
                    uint8_t **output, size_t *output_size, char *message, size_t message_size) {
    struct jpeg_compress_struct info;
    struct atl_error_manager error;
    unsigned char *buffer = NULL;
    unsigned long buffer_size = 0;
    info.err = &error.base;
    atl_init_errors(&error);
    if (setjmp(error.jump)) {
        copy_message(message, message_size, error.message);
        jpeg_destroy_compress(&info);
        free(buffer);
        return 1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &buffer, &buffer_size);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = components;
    info.in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    info.optimize_coding = TRUE;
    jpeg_start_compress(&info, TRUE);
    const size_t stride = (size_t)width * (size_t)components;
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)info.next_scanline * stride);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *output = buffer;
    *output_size = buffer_size;
    return 0;
}

void atl_jpeg_free(void *buffer) { free(buffer); }
