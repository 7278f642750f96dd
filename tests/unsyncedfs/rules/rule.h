/* Helpers of the lose-unsynced filesystem's rule programs (docs/nemesis.md,
 * "The lose-unsynced filesystem"). A rule program runs twice:
 *
 *   PROGRAM before DIR [RULE]   makes changes in DIR (the mount), some durable, some not
 *   PROGRAM after DIR [RULE]    after the power loss and a remount: checks that
 *                               exactly the durable changes survived
 *
 * RULE is the daemon's --metadata (dir-fsync, the default, or any-fsync).
 * Exit 0: the rule held; 1: it did not (one line on stderr says how); 2: usage. */
#ifndef LOCKCHECK_UNSYNCEDFS_RULE_H
#define LOCKCHECK_UNSYNCEDFS_RULE_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The RULE argument. */
static const char* rule_metadata = "dir-fsync";

static inline void fail(const char* format, ...) {
    va_list args;
    va_start(args, format);
    fputs("FAIL: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    exit(1);
}

static inline int open_or_fail(const char* name, int flags) {
    int fd = open(name, flags | O_CLOEXEC, 0644);
    if (fd < 0) fail("open %s: %s", name, strerror(errno));
    return fd;
}

static inline void write_or_fail(int fd, const void* data, size_t length, off_t offset) {
    const char* bytes = data;
    size_t done = 0;
    while (done < length) {
        ssize_t n = pwrite(fd, bytes + done, length - done, offset + (off_t)done);
        if (n <= 0) fail("pwrite: %s", strerror(errno));
        done += (size_t)n;
    }
}

static inline void fsync_or_fail(int fd) {
    if (fsync(fd) != 0) fail("fsync: %s", strerror(errno));
}

/* fsync(2) of a directory. */
static inline void sync_directory(const char* name) {
    int fd = open_or_fail(name, O_RDONLY | O_DIRECTORY);
    fsync_or_fail(fd);
    close(fd);
}

/* Creates NAME with CONTENT, fsyncs it and its directory ("."): durable. */
static inline void create_durable(const char* name, const char* content) {
    int fd = open_or_fail(name, O_CREAT | O_TRUNC | O_WRONLY);
    write_or_fail(fd, content, strlen(content), 0);
    fsync_or_fail(fd);
    close(fd);
    sync_directory(".");
}

/* The whole content of NAME (malloc'd, NUL-terminated); LENGTH gets its size. */
static inline char* read_all(const char* name, size_t* length) {
    int fd = open_or_fail(name, O_RDONLY);
    struct stat st;
    if (fstat(fd, &st) != 0) fail("fstat %s: %s", name, strerror(errno));
    char* data = calloc((size_t)st.st_size + 1, 1);
    size_t done = 0;
    while (done < (size_t)st.st_size) {
        ssize_t n = pread(fd, data + done, (size_t)st.st_size - done, (off_t)done);
        if (n < 0) fail("pread %s: %s", name, strerror(errno));
        if (n == 0) break;
        done += (size_t)n;
    }
    close(fd);
    *length = done;
    return data;
}

/* The content of NAME, which must be SIZE bytes long (malloc'd). */
static inline char* read_sized(const char* name, size_t size) {
    size_t length = 0;
    char* data = read_all(name, &length);
    if (length != size) fail("%s has %zu bytes, expected %zu", name, length, size);
    return data;
}

/* Fails unless bytes FROM to TO (exclusive) of NAME's DATA are all BYTE. */
static inline void expect_bytes(const char* name, const char* data, size_t from, size_t to, char byte) {
    for (size_t i = from; i < to; ++i)
        if (data[i] != byte)
            fail("%s[%zu] is 0x%02x, expected 0x%02x", name, i, (unsigned char)data[i], (unsigned char)byte);
}

static inline void expect_content(const char* name, const char* expected) {
    size_t length = 0;
    char* data = read_all(name, &length);
    if (length != strlen(expected) || memcmp(data, expected, length) != 0)
        fail("%s holds \"%.*s\" (%zu bytes), expected \"%s\"", name, (int)length, data, length, expected);
    free(data);
}

static inline void expect_absent(const char* name) {
    struct stat st;
    if (lstat(name, &st) == 0) fail("%s exists, expected it to be gone", name);
    if (errno != ENOENT) fail("lstat %s: %s", name, strerror(errno));
}

/* Parses the arguments, changes into DIR and runs BEFORE or AFTER. */
static inline int rule_main(int argc, char** argv, void (*before)(void), void (*after)(void)) {
    if (argc < 3 || argc > 4 || (strcmp(argv[1], "before") != 0 && strcmp(argv[1], "after") != 0)) {
        fprintf(stderr, "usage: %s before|after DIR [dir-fsync|any-fsync]\n", argv[0]);
        return 2;
    }
    if (argc == 4) rule_metadata = argv[3];
    if (chdir(argv[2]) != 0) fail("chdir %s: %s", argv[2], strerror(errno));
    if (strcmp(argv[1], "before") == 0)
        before();
    else
        after();
    return 0;
}

#endif
