/* Directory changes are journaled in order: an fsync of a new directory
 * commits its own creation (an earlier change) as well; a directory made
 * after it and never synced vanishes. */
#include "rule.h"

static void before(void) {
    if (mkdir("sub", 0755) != 0) fail("mkdir sub: %s", strerror(errno));
    int fd = open_or_fail("sub/f", O_CREAT | O_WRONLY);
    write_or_fail(fd, "inside", 6, 0);
    fsync_or_fail(fd);
    close(fd);
    sync_directory("sub");
    if (mkdir("lost", 0755) != 0) fail("mkdir lost: %s", strerror(errno));
}

static void after(void) {
    expect_content("sub/f", "inside");
    expect_absent("lost");
}

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
