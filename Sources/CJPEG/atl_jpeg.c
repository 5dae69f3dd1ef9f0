#include "atl_jpeg.h"
#include "atl_jpeg_eighth.h"

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
    const uint8_t *data;
    size_t size;
    /// Set by atl_jpeg_start when atl_jpeg_read is to try the eighth-scale decoder first.
    int eighth;
    atl_jpeg_eighth_layout layout;
};

/// Whether the eighth-scale decoder is tried (tests compare it with libjpeg by turning it off).
static int eighth_enabled = 1;
/// How many decodes it has done, for tests to tell that it ran.
static long eighth_decodes = 0;

int atl_jpeg_use_eighth(int enabled) { return __atomic_exchange_n(&eighth_enabled, enabled, __ATOMIC_RELAXED); }

long atl_jpeg_eighth_decodes(void) { return __atomic_load_n(&eighth_decodes, __ATOMIC_RELAXED); }

/// What the eighth-scale decoder needs from the headers libjpeg has read, or 0 when the stream
/// is not one it decodes (anything but one baseline scan over every component of 8-bit grey,
/// 4:4:4 or 4:2:0 YCbCr, with its tables defined).
static int eighth_layout(const struct jpeg_decompress_struct *info, const uint8_t *data, atl_jpeg_eighth_layout *layout) {
    if (info->progressive_mode || info->arith_code || info->data_precision != 8) return 0;
    if (info->comps_in_scan != info->num_components || info->Ss != 0 || info->Se != 63 || info->Ah != 0 || info->Al != 0) return 0;
    const int n = info->num_components;
    if (!((n == 1 && info->jpeg_color_space == JCS_GRAYSCALE) || (n == 3 && info->jpeg_color_space == JCS_YCbCr))) return 0;
    memset(layout, 0, sizeof *layout);
    layout->width = (int)info->image_width;
    layout->height = (int)info->image_height;
    layout->components = n;
    for (int c = 0; c < n; c++) {
        const jpeg_component_info *component = &info->comp_info[c];
        if (info->cur_comp_info[c] != component) return 0;
        if (component->dc_tbl_no < 0 || component->dc_tbl_no > 1 || component->ac_tbl_no < 0 || component->ac_tbl_no > 1) return 0;
        if (component->quant_tbl_no < 0 || component->quant_tbl_no >= NUM_QUANT_TBLS) return 0;
        const JQUANT_TBL *quant = info->quant_tbl_ptrs[component->quant_tbl_no];
        if (quant == NULL) return 0;
        layout->h[c] = component->h_samp_factor;
        layout->v[c] = component->v_samp_factor;
        layout->dc_table[c] = component->dc_tbl_no;
        layout->ac_table[c] = component->ac_tbl_no;
        for (int i = 0; i < 64; i++) layout->quant[c][i] = quant->quantval[i];
    }
    if (n == 3) {
        const int same = layout->h[0] == 1 && layout->v[0] == 1, halved = layout->h[0] == 2 && layout->v[0] == 2;
        if (!(same || halved) || layout->h[1] != 1 || layout->v[1] != 1 || layout->h[2] != 1 || layout->v[2] != 1) return 0;
    } else {
        layout->h[0] = layout->v[0] = 1;
    }
    for (int t = 0; t < 2; t++) {
        const JHUFF_TBL *dc = info->dc_huff_tbl_ptrs[t], *ac = info->ac_huff_tbl_ptrs[t];
        for (int c = 0; c < n; c++) {
            if ((layout->dc_table[c] == t && dc == NULL) || (layout->ac_table[c] == t && ac == NULL)) return 0;
        }
        if (dc) { memcpy(layout->dc_counts[t], dc->bits, 17); memcpy(layout->dc_values[t], dc->huffval, 256); }
        if (ac) { memcpy(layout->ac_counts[t], ac->bits, 17); memcpy(layout->ac_values[t], ac->huffval, 256); }
    }
    layout->restart_interval = (int)info->restart_interval;
    layout->scan_start = (size_t)(info->src->next_input_byte - data);
    return 1;
}

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
    decoder->data = data;
    decoder->size = size;
    jpeg_mem_src(&decoder->info, data, (unsigned long)size);
    jpeg_read_header(&decoder->info, TRUE);
    info->width = (int)decoder->info.image_width;
    info->height = (int)decoder->info.image_height;
    info->components = decoder->info.num_components;
    info->progressive = decoder->info.progressive_mode ? 1 : 0;
    decoder->cmyk = decoder->info.jpeg_color_space == JCS_CMYK || decoder->info.jpeg_color_space == JCS_YCCK;
    return decoder;
}

static int start_libjpeg(atl_jpeg_decoder *decoder, int scale_denominator, int *output_width, int *output_height);

int atl_jpeg_start(atl_jpeg_decoder *decoder, int scale_denominator, int output_components,
                   int *output_width, int *output_height) {
    struct jpeg_decompress_struct *info = &decoder->info;
    decoder->output_components = output_components;
    if (scale_denominator == 8 && !decoder->cmyk && __atomic_load_n(&eighth_enabled, __ATOMIC_RELAXED) &&
        eighth_layout(info, decoder->data, &decoder->layout)) {
        // libjpeg's output size at 1/8, which a fallback in atl_jpeg_read gives too.
        decoder->eighth = 1;
        *output_width = (int)((info->image_width + 7) / 8);
        *output_height = (int)((info->image_height + 7) / 8);
        return 0;
    }
    return start_libjpeg(decoder, scale_denominator, output_width, output_height);
}

/// libjpeg's own start, at 1/`scale_denominator`.
static int start_libjpeg(atl_jpeg_decoder *decoder, int scale_denominator, int *output_width, int *output_height) {
    if (setjmp(decoder->error.jump)) return 1;
    struct jpeg_decompress_struct *info = &decoder->info;
    const int output_components = decoder->output_components;
    info->scale_num = 1;
    info->scale_denom = (unsigned int)scale_denominator;
    info->dct_method = JDCT_ISLOW;
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
    if (decoder->eighth) {
        decoder->eighth = 0;
        if (atl_jpeg_eighth(&decoder->layout, decoder->data, decoder->size, decoder->output_components, pixels) == 0) {
            __atomic_add_fetch(&eighth_decodes, 1, __ATOMIC_RELAXED);
            return decoder->error.corrupt_warnings > 0;  // the headers' damage counts as libjpeg's would
        }
        // Not a stream it takes: libjpeg decodes it (or says what is wrong), from where the
        // headers left it, to the same size.
        int width, height;
        if (start_libjpeg(decoder, 8, &width, &height)) return 1;
    }
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
