/* The clock launcher's stub (static_stub.c, with clock_source.c,
 * clock_record.c and vdso_entries.c): compiled freestanding and linked into
 * one flat, position-independent image (stub.ld), which the build embeds
 * into the launcher (embed_stub.cmake writes stub_image.c). The launcher
 * copies it into an anonymous mapping of the static program, fills in the
 * variables below, makes the code read+exec, and points the vDSO's time
 * functions at its entries. The data part (a page boundary on) stays
 * read+write: the clock file's mapping and the monotonic clamp live there. */
#ifndef LOCKCHECK_STUB_IMAGE_H
#define LOCKCHECK_STUB_IMAGE_H

#include <stddef.h>

#include "../vdso_image.h"

#define LC_STUB_PATH_SIZE 4096 /* the clock file's path, NUL included */

/* Offsets in the image, from its start. */
struct lc_stub_layout {
    size_t image_size;                 /* bytes of lc_stub_image */
    size_t data_offset;                /* where the read+write part starts (a page multiple) */
    size_t map_size;                   /* bytes to map: the image, then its zeroed variables */
    size_t entries[LC_VDSO_FUNCTIONS]; /* the replacement of each vDSO function (LC_VDSO_*) */
    size_t resume;                     /* lc_stub_resume: where the program starts (below) */
    size_t path;                       /* char lc_stub_path[LC_STUB_PATH_SIZE] */
    size_t tracer;                     /* int lc_stub_tracer: the launcher's tracer process */
    size_t entry;                      /* unsigned long lc_stub_entry: the program's first instruction */
};

extern const unsigned char lc_stub_image[];
extern const struct lc_stub_layout lc_stub_layout;

#endif
