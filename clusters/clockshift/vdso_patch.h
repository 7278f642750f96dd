/* Redirects this process's vDSO time functions to replacements of its own,
 * so that code which reads the time from the vDSO without going through the
 * C library (Go's runtime, a program that calls the vDSO pointer from
 * getauxval(AT_SYSINFO_EHDR)) sees the shifted clock too.
 *
 * How: find each function in the vDSO's ELF dynamic symbol table
 * (vdso_image.h), and overwrite its first bytes with an absolute jump
 * (movabs rax, ADDR; jmp rax) to its replacement: mprotect the page
 * writable, write, restore read+exec (the vDSO mapping may be written, as
 * debuggers write it; the write makes the process's page a private copy,
 * which fork inherits and exec replaces). x86_64 only; elsewhere nothing is
 * patched. */
#ifndef LOCKCHECK_VDSO_PATCH_H
#define LOCKCHECK_VDSO_PATCH_H

#include "vdso_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Patches the vDSO's clock_gettime, gettimeofday and time (each under both
 * of its names, lc_vdso_names) to jump to replacements[LC_VDSO_*]. Returns
 * how many functions it patched (aliases at one address count once), or -1
 * when there is no vDSO, its table cannot be read or a page cannot be made
 * writable. Uses raw system calls only: no allocation, no errno. Call it
 * once, before other threads read the time. */
int lc_vdso_patch(void (*const replacements[LC_VDSO_FUNCTIONS])(void));

#ifdef __cplusplus
}
#endif

#endif
