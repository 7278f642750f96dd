/* A truncation without fsync is undone (size and bytes); one with fsync stays. */
#include "rule.h"

static char pattern(size_t i) { return (char)('a' + (char)(i % 26)); }

static void write_pattern(const char* name) {
    char data[10000];
    for (size_t i = 0; i < sizeof data; ++i) data[i] = pattern(i);
    int fd = open_or_fail(name, O_CREAT | O_WRONLY);
    write_or_fail(fd, data, sizeof data, 0);
    fsync_or_fail(fd);
    close(fd);
}

static void before(void) {
    write_pattern("t");
    write_pattern("t2");
    sync_directory(".");
    if (truncate("t", 100) != 0) fail("truncate t: %s", strerror(errno));
    int fd = open_or_fail("t2", O_WRONLY);
    if (ftruncate(fd, 100) != 0) fail("ftruncate t2: %s", strerror(errno));
    fsync_or_fail(fd);
    if (ftruncate(fd, 50) != 0) fail("ftruncate t2: %s", strerror(errno));
    close(fd);
}

static void after(void) {
    char* data = read_sized("t", 10000);
    for (size_t i = 0; i < 10000; ++i)
        if (data[i] != pattern(i)) fail("t[%zu] is '%c', expected '%c'", i, data[i], pattern(i));
    free(data);
    free(read_sized("t2", 100));
}

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
