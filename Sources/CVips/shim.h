#include <string.h>
#include <vips/vips.h>

// libvips's calls take their options as NULL-terminated variadic lists, which Swift cannot
// call: these wrappers fix the options Moim uses.

/// Starts libvips once: only the loaders libvips trusts with hostile input (no ImageMagick,
/// PDF or the like), no operation cache (each image is seen once), and one thread per
/// operation (images are processed side by side instead).
static inline int moim_vips_start(void) {
    if (VIPS_INIT("moim")) return -1;
    vips_block_untrusted_set(TRUE);
    vips_cache_set_max(0);
    vips_concurrency_set(1);
    return 0;
}

/// The header of the image in `buffer`, without decoding its pixels: the size of one page
/// (frame), the number of pages, whether it has an alpha channel and its EXIF orientation.
static inline int moim_vips_header(const void *buffer, size_t length, int *width, int *height, int *pages, int *alpha,
                                   int *orientation) {
    VipsImage *image = vips_image_new_from_buffer(buffer, length, "", "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (!image) return -1;
    *width = vips_image_get_width(image);
    *height = vips_image_get_page_height(image);
    *pages = vips_image_get_n_pages(image);
    *alpha = vips_image_hasalpha(image);
    *orientation = vips_image_get_orientation(image);
    g_object_unref(image);
    return 0;
}

/// The image scaled down (never up) to at most `width` pixels wide, turned upright by its
/// EXIF orientation and in sRGB; every page when `animated`, else the first.
static inline VipsImage *moim_vips_thumbnail(const void *buffer, size_t length, int width, int animated) {
    VipsImage *out = NULL;
    if (vips_thumbnail_buffer((void *)buffer, length, &out, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN,
                              "fail_on", VIPS_FAIL_ON_ERROR, "option_string", animated ? "n=-1" : "", NULL))
        return NULL;
    return out;
}

/// `image` scaled down to `width` (one page), for the smaller variants of a decoded image.
static inline VipsImage *moim_vips_resize(VipsImage *image, int width) {
    VipsImage *out = NULL;
    if (vips_thumbnail_image(image, &out, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN, NULL)) return NULL;
    return out;
}

/// Decodes the whole of a lazily loaded image into memory, so that several variants read it once.
static inline VipsImage *moim_vips_in_memory(VipsImage *image) {
    return vips_image_copy_memory(image);
}

/// A copy of `image` without EXIF, XMP, IPTC or an ICC profile (the pixels are sRGB already):
/// libvips 8.14's WebP writer keeps EXIF even when told to strip it.
static inline VipsImage *moim_vips_without_metadata(VipsImage *image) {
    VipsImage *copy = NULL;
    if (vips_copy(image, &copy, NULL)) return NULL;
    gchar **fields = vips_image_get_fields(copy);
    for (int index = 0; fields[index]; index++) {
        const char *field = fields[index];
        if (vips_isprefix("exif-", field) || vips_isprefix("xmp-", field) || vips_isprefix("iptc-", field)
            || vips_isprefix("icc-", field) || strcmp(field, "orientation") == 0)
            vips_image_remove(copy, field);
    }
    g_strfreev(fields);
    return copy;
}

/// WebP with no metadata; animated if the image is.
static inline int moim_vips_webp(VipsImage *image, int quality, void **buffer, size_t *length) {
    VipsImage *bare = moim_vips_without_metadata(image);
    if (!bare) return -1;
    int status = vips_webpsave_buffer(bare, buffer, length, "Q", quality, "strip", TRUE, NULL);
    g_object_unref(bare);
    return status;
}

/// Baseline-compatible progressive JPEG with no metadata; transparency on white.
static inline int moim_vips_jpeg(VipsImage *image, int quality, void **buffer, size_t *length) {
    VipsImage *flat = NULL;
    if (vips_image_hasalpha(image)) {
        VipsArrayDouble *white = vips_array_double_newv(3, 255.0, 255.0, 255.0);
        int failed = vips_flatten(image, &flat, "background", white, NULL);
        vips_area_unref(VIPS_AREA(white));
        if (failed) return -1;
    }
    int status = vips_jpegsave_buffer(flat ? flat : image, buffer, length, "Q", quality, "strip", TRUE,
                                      "optimize_coding", TRUE, "interlace", TRUE, NULL);
    if (flat) g_object_unref(flat);
    return status;
}

/// The mean colour of `image` as 0xRRGGBB (a placeholder while the photo loads); -1 on failure.
static inline long moim_vips_average_colour(VipsImage *image) {
    VipsImage *dot = NULL;
    if (vips_thumbnail_image(image, &dot, 1, "height", 1, "size", VIPS_SIZE_FORCE, NULL)) return -1;
    double *values = NULL;
    int count = 0;
    int failed = vips_getpoint(dot, &values, &count, 0, 0, NULL);
    g_object_unref(dot);
    if (failed || !values) return -1;
    // 16-bit images (a deep PNG) stay 16-bit through the thumbnail.
    double scale = vips_image_get_format(dot) == VIPS_FORMAT_USHORT ? 257.0 : 1.0;
    long channel[3] = {0, 0, 0};
    for (int index = 0; index < 3 && count > 0; index++) {
        double value = values[count >= 3 ? index : 0] / scale;
        channel[index] = value < 0 ? 0 : value > 255 ? 255 : (long)value;
    }
    long colour = count > 0 ? channel[0] << 16 | channel[1] << 8 | channel[2] : -1;
    g_free(values);
    return colour;
}

static inline void moim_vips_release(VipsImage *image) { g_object_unref(image); }
static inline void moim_vips_free(void *buffer) { g_free(buffer); }
static inline int moim_vips_width(VipsImage *image) { return vips_image_get_width(image); }
static inline int moim_vips_page_height(VipsImage *image) { return vips_image_get_page_height(image); }

/// The last error libvips recorded, and forgets it.
static inline const char *moim_vips_error(void) { return vips_error_buffer(); }
static inline void moim_vips_error_clear(void) { vips_error_clear(); }
