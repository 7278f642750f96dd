/* The vDSO patch (vdso_patch.h). */
#include "vdso_patch.h"

#if defined(__x86_64__)
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "raw_syscall.h"

/* Makes the whole mapping writable (or back to read+exec): mprotect of part
 * of it fails with EINVAL, since the kernel does not split the vDSO. */
static int set_writable(const struct lc_vdso_image* image, int writable) {
    const long protection = PROT_READ | PROT_EXEC | (writable ? PROT_WRITE : 0);
    return lc_syscall3(SYS_mprotect, image->start, image->end - image->start, protection) == 0;
}

int lc_vdso_patch(void (*const replacements[LC_VDSO_FUNCTIONS])(void)) {
    struct lc_vdso_image image;
    if (!lc_vdso_image_open((uintptr_t)getauxval(AT_SYSINFO_EHDR), &image) || !set_writable(&image, 1)) return -1;
    uintptr_t done[LC_VDSO_FUNCTIONS * 2];
    int patched = 0;
    for (int f = 0; f < LC_VDSO_FUNCTIONS; ++f)
        for (int alias = 0; alias < 2; ++alias) {
            const uintptr_t at = lc_vdso_image_function(&image, lc_vdso_names[f][alias]);
            int seen = !at;
            for (int d = 0; d < patched; ++d) seen |= done[d] == at;
            if (seen) continue;
            unsigned char code[LC_JUMP_SIZE];
            lc_jump_code((uintptr_t)replacements[f], code);
            volatile unsigned char* out = (volatile unsigned char*)at;
            for (int i = 0; i < LC_JUMP_SIZE; ++i) out[i] = code[i];
            done[patched++] = at;
        }
    return set_writable(&image, 0) ? patched : -1;
}

#else
int lc_vdso_patch(void (*const replacements[LC_VDSO_FUNCTIONS])(void)) {
    (void)replacements;
    return -1;
}
#endif
