#include "atl_svg.h"

#include <cairo/cairo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// librsvg's and GLib's public C API (librsvg 2.46 and later), declared here rather than
// included: <librsvg/rsvg.h> pulls in GLib's and GdkPixbuf's headers, whose include paths only
// pkg-config knows, and SwiftPM refuses the -pthread that pkg-config adds to them. These few
// declarations are the stable ABI those headers declare.
typedef struct _RsvgHandle RsvgHandle;
typedef struct {
    uint32_t domain;
    int code;
    char *message;
} GError;
typedef struct {
    double x, y, width, height;
} RsvgRectangle;
RsvgHandle *rsvg_handle_new_from_data(const uint8_t *data, size_t data_len, GError **error);
int rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error);
void g_error_free(GError *error);
void g_object_unref(void *object);

typedef struct {
    uint8_t *bytes;
    size_t size;
    size_t capacity;
} png_buffer;

static cairo_status_t append(void *closure, const unsigned char *data, unsigned int length) {
    png_buffer *buffer = closure;
    if (buffer->size + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity * 2 : 65536;
        while (capacity < buffer->size + length) capacity *= 2;
        uint8_t *grown = realloc(buffer->bytes, capacity);
        if (!grown) return CAIRO_STATUS_NO_MEMORY;
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->size, data, length);
    buffer->size += length;
    return CAIRO_STATUS_SUCCESS;
}

int atl_svg_render_png(const uint8_t *svg, size_t size, int width, int height,
                       uint8_t **png, size_t *png_size, char *message, size_t message_size) {
    *png = NULL;
    *png_size = 0;
    if (width <= 0 || height <= 0 || width > 16384 || height > 16384) {
        snprintf(message, message_size, "a PNG of %d x %d pixels is out of range", width, height);
        return 1;
    }
    GError *error = NULL;
    RsvgHandle *handle = rsvg_handle_new_from_data(svg, size, &error);
    if (!handle) {
        snprintf(message, message_size, "librsvg cannot read the SVG: %s", error ? error->message : "unknown error");
        if (error) g_error_free(error);
        return 1;
    }
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    RsvgRectangle viewport = {0, 0, width, height};
    int status = 0;
    if (!rsvg_handle_render_document(handle, cr, &viewport, &error)) {
        snprintf(message, message_size, "librsvg cannot draw the SVG: %s", error ? error->message : "unknown error");
        if (error) g_error_free(error);
        status = 1;
    }
    cairo_destroy(cr);
    png_buffer buffer = {NULL, 0, 0};
    if (status == 0) {
        cairo_status_t written = cairo_surface_write_to_png_stream(surface, append, &buffer);
        if (written != CAIRO_STATUS_SUCCESS) {
            snprintf(message, message_size, "cairo cannot encode the PNG: %s", cairo_status_to_string(written));
            free(buffer.bytes);
            status = 1;
        } else {
            *png = buffer.bytes;
            *png_size = buffer.size;
        }
    }
    cairo_surface_destroy(surface);
    g_object_unref(handle);
    return status;
}

int atl_triangles_render_png(const float *xy, const uint8_t *rgb, size_t count, int width, int height,
                             uint32_t background, uint8_t **png, size_t *png_size, char *message, size_t message_size) {
    *png = NULL;
    *png_size = 0;
    if (width <= 0 || height <= 0 || width > 8192 || height > 8192) {
        snprintf(message, message_size, "a PNG of %d x %d pixels is out of range", width, height);
        return 1;
    }
    // Drawn without antialiasing at twice the size, then halved: neighbours share their edges
    // exactly (antialiased edges would leave seams where two faces each cover half a pixel),
    // and the halving smooths the outline four samples to a pixel.
    cairo_surface_t *large = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 2 * width, 2 * height);
    cairo_t *cr = cairo_create(large);
    cairo_set_source_rgb(cr, ((background >> 16) & 255) / 255.0, ((background >> 8) & 255) / 255.0, (background & 255) / 255.0);
    cairo_paint(cr);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    cairo_scale(cr, 2, 2);
    for (size_t i = 0; i < count; i++) {
        const float *p = xy + 6 * i;
        cairo_move_to(cr, p[0], p[1]);
        cairo_line_to(cr, p[2], p[3]);
        cairo_line_to(cr, p[4], p[5]);
        cairo_close_path(cr);
        cairo_set_source_rgb(cr, rgb[3 * i] / 255.0, rgb[3 * i + 1] / 255.0, rgb[3 * i + 2] / 255.0);
        cairo_fill(cr);
    }
    cairo_destroy(cr);
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    cr = cairo_create(surface);
    cairo_scale(cr, 0.5, 0.5);
    cairo_set_source_surface(cr, large, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_destroy(large);
    png_buffer buffer = {NULL, 0, 0};
    cairo_status_t written = cairo_surface_write_to_png_stream(surface, append, &buffer);
    cairo_surface_destroy(surface);
    if (written != CAIRO_STATUS_SUCCESS) {
        snprintf(message, message_size, "cairo cannot encode the PNG: %s", cairo_status_to_string(written));
        free(buffer.bytes);
        return 1;
    }
    *png = buffer.bytes;
    *png_size = buffer.size;
    return 0;
}

void atl_svg_free(uint8_t *png) { free(png); }
