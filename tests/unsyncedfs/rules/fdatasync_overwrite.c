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
    char* data = read_sized("data", 8192);
    expect_bytes("data", data, 0, 8192, 'A');
    free(data);
}

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
