// A small C layer over librsvg and cairo for Swift, in the manner of atl_png.h: GLib's errors
// and cairo's statuses become a return code and a message, and the PNG comes back as bytes.
#ifndef ATL_SVG_H
#define ATL_SVG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Renders the SVG document of `size` bytes at `svg` onto a `width` × `height` pixel canvas
/// (the document's viewport scaled to fit, on a white background) and encodes it as PNG. On
/// success returns 0 and sets `*png` to a buffer of `*png_size` bytes to release with
/// atl_svg_free; otherwise returns non-zero with a message.
int atl_svg_render_png(const uint8_t *svg, size_t size, int width, int height,
                       uint8_t **png, size_t *png_size, char *message, size_t message_size);

/// Fills `count` triangles, in the order given (the last drawn on top), onto a `width` × `height`
/// canvas of the colour `background` (0xRRGGBB) and encodes it as PNG. `xy` holds six floats per
/// triangle (three x, y pairs in pixels, y down), `rgb` three bytes per triangle. Drawn at twice
/// the size without antialiasing and halved, so neighbouring faces leave no seams. Returns as
/// atl_svg_render_png does.
int atl_triangles_render_png(const float *xy, const uint8_t *rgb, size_t count, int width, int height,
                             uint32_t background, uint8_t **png, size_t *png_size, char *message, size_t message_size);

void atl_svg_free(uint8_t *png);

#ifdef __cplusplus
}
#endif

#endif
