#include "atl_png.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct atl_png_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    char message[200];
};

static void atl_png_error(png_structp png, png_const_charp text) {
    atl_png_decoder *decoder = png_get_error_ptr(png);
    snprintf(decoder->message, sizeof decoder->message, "%s", text);
    png_longjmp(png, 1);
}

static void atl_png_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void atl_png_read_data(png_structp png, png_bytep out, size_t length) {
    atl_png_decoder *decoder = png_get_io_ptr(png);
    if (length > decoder->size - decoder->offset) png_error(png, "file is truncated");
    memcpy(out, decoder->data + decoder->offset, length);
    decoder->offset += length;
}

atl_png_decoder *atl_png_open(const uint8_t *data, size_t size, int *width, int *height, int *has_alpha,
                              char *message, size_t message_size) {
    atl_png_decoder *decoder = calloc(1, sizeof(atl_png_decoder));
    if (decoder == NULL) {
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    decoder->data = data;
    decoder->size = size;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder, atl_png_error, atl_png_warning);
    if (decoder->png) decoder->info = png_create_info_struct(decoder->png);
    if (decoder->png == NULL || decoder->info == NULL) {
        snprintf(message, message_size, "out of memory");
        atl_png_close(decoder);
        return NULL;
    }
    if (setjmp(png_jmpbuf(decoder->png))) {
        snprintf(message, message_size, "%s", decoder->message);
        atl_png_close(decoder);
        return NULL;
    }
    png_set_read_fn(decoder->png, decoder, atl_png_read_data);
    png_read_info(decoder->png, decoder->info);
    *width = (int)png_get_image_width(decoder->png, decoder->info);
    *height = (int)png_get_image_height(decoder->png, decoder->info);
    int colour = png_get_color_type(decoder->png, decoder->info);
    *has_alpha = (colour & PNG_COLOR_MASK_ALPHA) || png_get_valid(decoder->png, decoder->info, PNG_INFO_tRNS);
    return decoder;
}

int atl_png_read(atl_png_decoder *decoder, int output_channels, uint8_t *pixels) {
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    uint8_t *volatile natural = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(natural);
        free(rows);
        return 1;
    }
    png_set_expand(png);         // palette to RGB, grey below 8 bits to 8, tRNS to alpha
    png_set_strip_16(png);       // 16-bit samples keep their high byte
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    const size_t width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    const int channels = png_get_channels(png, info);
    const size_t stride = png_get_rowbytes(png, info);
    if (stride != width * (size_t)channels) png_error(png, "unexpected row layout");
    natural = malloc(stride * height);
    rows = malloc(sizeof(png_bytep) * height);
    if (natural == NULL || rows == NULL) png_error(png, "out of memory");
    for (size_t y = 0; y < height; y++) rows[y] = natural + y * stride;
    png_read_image(png, rows);
    png_read_end(png, NULL);

    // From the file's layout (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA) to the one asked for.
    const int colour = channels >= 3, alpha = channels == 2 || channels == 4;
    for (size_t i = 0; i < width * height; i++) {
        const uint8_t *p = natural + i * (size_t)channels;
        int r = p[0], g = colour ? p[1] : p[0], b = colour ? p[2] : p[0];
        int a = alpha ? p[channels - 1] : 255;
        if (output_channels == 4) {
            uint8_t *q = pixels + i * 4;
            q[0] = (uint8_t)r; q[1] = (uint8_t)g; q[2] = (uint8_t)b; q[3] = (uint8_t)a;
            continue;
        }
        if (a != 255) {
            r = (r * a + 255 * (255 - a) + 127) / 255;
            g = (g * a + 255 * (255 - a) + 127) / 255;
            b = (b * a + 255 * (255 - a) + 127) / 255;
        }
        if (output_channels == 1) {
            pixels[i] = colour ? (uint8_t)((r * 77 + g * 150 + b * 29 + 128) >> 8) : (uint8_t)r;
        } else {
            uint8_t *q = pixels + i * 3;
            q[0] = (uint8_t)r; q[1] = (uint8_t)g; q[2] = (uint8_t)b;
        }
    }
    free(natural);
    free(rows);
    return 0;
}

const char *atl_png_message(const atl_png_decoder *decoder) { return decoder->message; }

void atl_png_close(atl_png_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->png) png_destroy_read_struct(&decoder->png, decoder->info ? &decoder->info : NULL, NULL);
    free(decoder);
}

struct atl_png_sink {
    uint8_t *buffer;
    size_t size;
    size_t capacity;
    char message[200];
};

static void atl_png_write_data(png_structp png, png_bytep data, size_t length) {
    struct atl_png_sink *sink = png_get_io_ptr(png);
    if (sink->size + length > sink->capacity) {
        size_t capacity = sink->capacity ? sink->capacity * 2 : 65536;
        while (capacity < sink->size + length) capacity *= 2;
        uint8_t *grown = realloc(sink->buffer, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        sink->buffer = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->buffer + sink->size, data, length);
    sink->size += length;
}

static void atl_png_flush(png_structp png) { (void)png; }

static void atl_png_encode_error(png_structp png, png_const_charp text) {
    struct atl_png_sink *sink = png_get_error_ptr(png);
    snprintf(sink->message, sizeof sink->message, "%s", text);
    png_longjmp(png, 1);
}

int atl_png_encode(const uint8_t *pixels, int width, int height, int channels,
                   uint8_t **output, size_t *output_size, char *message, size_t message_size) {
    struct atl_png_sink sink = {0};
    png_bytep *volatile rows = NULL;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, atl_png_encode_error, atl_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        snprintf(message, message_size, "out of memory");
        png_destroy_write_struct(&png, info ? &info : NULL);
        return 1;
    }
    if (setjmp(png_jmpbuf(png))) {
        snprintf(message, message_size, "%s", sink.message);
        png_destroy_write_struct(&png, &info);
        free(rows);
        free(sink.buffer);
        return 1;
    }
    static const int types[] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
    png_set_write_fn(png, &sink, atl_png_write_data, atl_png_flush);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, types[channels], PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 6);
    rows = malloc(sizeof(png_bytep) * (size_t)height);
    if (rows == NULL) png_error(png, "out of memory");
    for (int y = 0; y < height; y++) rows[y] = (png_bytep)(pixels + (size_t)y * (size_t)width * (size_t)channels);
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(rows);
    *output = sink.buffer;
    *output_size = sink.size;
    return 0;
}

void atl_png_free(void *buffer) { free(buffer); }
