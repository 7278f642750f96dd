/* Which programs the clock launcher patches (program_kind.h). */
#define _GNU_SOURCE
#include "program_kind.h"

#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_executable_file(const char* path) {
    struct stat info;
    return stat(path, &info) == 0 && S_ISREG(info.st_mode) && access(path, X_OK) == 0;
}

int lc_find_program(const char* name, char* out, size_t size) {
    if (strchr(name, '/')) return snprintf(out, size, "%s", name) < (int)size && is_executable_file(out);
    const char* path = getenv("PATH");
    if (!path) path = "/usr/local/bin:/bin:/usr/bin";
    while (*path) {
        const size_t length = strcspn(path, ":");
        const int written = length ? snprintf(out, size, "%.*s/%s", (int)length, path, name)
                                   : snprintf(out, size, "%s", name); /* an empty entry: the working directory */
        if (written > 0 && written < (int)size && is_executable_file(out)) return 1;
        path += length + (path[length] == ':');
    }
    return 0;
}

int lc_is_static_program(const char* path) {
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    Elf64_Ehdr header;
    int is_static = 0;
    if (pread(fd, &header, sizeof header, 0) == (ssize_t)sizeof header &&
        memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 && header.e_ident[EI_CLASS] == ELFCLASS64 &&
        (header.e_type == ET_EXEC || header.e_type == ET_DYN) && header.e_phentsize == sizeof(Elf64_Phdr)) {
        is_static = 1;
        for (int i = 0; i < header.e_phnum && is_static; ++i) {
            Elf64_Phdr segment;
            const off_t at = (off_t)(header.e_phoff + (Elf64_Off)i * sizeof segment);
            if (pread(fd, &segment, sizeof segment, at) != (ssize_t)sizeof segment || segment.p_type == PT_INTERP)
                is_static = 0;
        }
    }
    close(fd);
    return is_static;
}

/* The interpreter a `#!` script names, in `out`; 1, or 0 for no script. */
static int script_interpreter(const char* path, char* out, size_t size) {
    char line[PATH_MAX + 3] = {0};
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    const ssize_t got = read(fd, line, sizeof line - 1);
    close(fd);
    if (got < 3 || line[0] != '#' || line[1] != '!') return 0;
    const char* start = line + 2 + strspn(line + 2, " \t");
    const size_t length = strcspn(start, " \t\n");
    return length > 0 && length < size && snprintf(out, size, "%.*s", (int)length, start) > 0;
}

const char* lc_unmovable_reason(const char* path) {
    struct stat info;
    if (stat(path, &info) == 0 && (info.st_mode & (S_ISUID | S_ISGID)))
        return "it is set-user-ID or set-group-ID: the loader ignores LD_PRELOAD for it and its exec cannot be traced";
    char interpreter[PATH_MAX];
    if (script_interpreter(path, interpreter, sizeof interpreter) && lc_is_static_program(interpreter))
        return "it is a script whose interpreter is statically linked, which ignores LD_PRELOAD";
    return NULL;
}
