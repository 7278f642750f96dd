/* The vDSO's ELF image: its dynamic symbol table, parsed from memory, and
 * the jump lockcheck writes over a vDSO function's first bytes. Shared by
 * the clock library, which patches its own process's vDSO (vdso_patch.c),
 * and the clock launcher, which patches a statically linked program's vDSO
 * through ptrace from a copy of it (static_launcher/). No allocation, no
 * libc beyond string compares: the library runs it before malloc exists.
 * x86_64 only (ELF64). */
#ifndef LOCKCHECK_VDSO_IMAGE_H
#define LOCKCHECK_VDSO_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LC_JUMP_SIZE 12 /* movabs rax, imm64 (10 bytes); jmp rax (2 bytes) */

/* The vDSO's names of the three time functions lockcheck redirects, each a
 * primary name and its alias (the same address in today's kernels). */
#define LC_VDSO_CLOCK_GETTIME 0
#define LC_VDSO_GETTIMEOFDAY 1
#define LC_VDSO_TIME 2
#define LC_VDSO_FUNCTIONS 3
extern const char* const lc_vdso_names[LC_VDSO_FUNCTIONS][2];

struct lc_vdso_image {
    uintptr_t start, end; /* the first loaded segment, whole pages: the kernel refuses to split it */
    uintptr_t bias;       /* add to a symbol's value for its address */
    const void* symbols;  /* Elf64_Sym[count] */
    const char* names;
    uint32_t count;
};

/* Reads the image whose ELF header is at `base` (the process's own vDSO, or
 * a copy of another process's: every address found is then in the copy).
 * Returns 1, or 0 when it is no ELF64 image with a dynamic symbol table. */
int lc_vdso_image_open(uintptr_t base, struct lc_vdso_image* image);

/* The address of the function `name` when it has room for a jump
 * (LC_JUMP_SIZE bytes, or an unknown size), 0 otherwise. */
uintptr_t lc_vdso_image_function(const struct lc_vdso_image* image, const char* name);

/* The bytes of a jump to `target`: movabs rax, target; jmp rax. */
void lc_jump_code(uintptr_t target, unsigned char code[LC_JUMP_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
