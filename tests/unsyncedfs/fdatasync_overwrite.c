/* fdatasync makes data durable; an overwrite across a page boundary and an
 * extension after it are undone byte for byte. */
#include "rule.h"

static void before(void) {
    char block[8192];
    memset(block, 'A', sizeof block);
    int fd = open_or_fail("data", O_CREAT | O_WRONLY);
    write_or_fail(fd, block, sizeof block, 0);
    if (fdatasync(fd) != 0) fail("fdatasync: %s", strerror(errno));
    sync_directory(".");
    memset(block, 'B', 100);
    write_or_fail(fd, block, 100, 4050);
    write_or_fail(fd, "tail", 4, 8192);
    close(fd);
}

static void after(void) {
    size_t length = 0;
    char* data = read_all("data", &length);
    if (length != 8192) fail("data has %zu bytes, expected 8192", length);
    for (size_t i = 0; i < length; ++i)
        if (data[i] != 'A') fail("data[%zu] is '%c', expected 'A'", i, data[i]);
    free(data);
}

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
