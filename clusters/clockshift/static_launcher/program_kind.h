/* Which programs the clock launcher patches: statically linked ELF
 * programs, which ignore LD_PRELOAD. */
#ifndef LOCKCHECK_PROGRAM_KIND_H
#define LOCKCHECK_PROGRAM_KIND_H

#include <stddef.h>

/* The file execvp would run for `name` (a name with a '/' is itself,
 * otherwise the first executable file of that name in PATH), in `out`
 * (`size` bytes). 1, or 0 when there is none. */
int lc_find_program(const char* name, char* out, size_t size);

/* 1 when `path` is an ELF program without a program interpreter
 * (PT_INTERP): statically linked, static-pie included. 0 otherwise (a
 * dynamically linked program, a script, a file it cannot read). */
int lc_is_static_program(const char* path);

/* Why the clock of the program at `path` can be moved neither by
 * LD_PRELOAD nor by the launcher's patch, or NULL: a set-user-ID or
 * set-group-ID program (the loader ignores LD_PRELOAD for it, and its exec
 * cannot be traced), or a script (`#!`) whose interpreter is statically
 * linked (it ignores LD_PRELOAD, and the patch is for the program exec'd). */
const char* lc_unmovable_reason(const char* path);

#endif
