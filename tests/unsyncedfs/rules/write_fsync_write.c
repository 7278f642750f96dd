/* File data is durable after fsync: write, fsync, write, power loss -> only the first write. */
#include "rule.h"

static void before(void) {
    int fd = open_or_fail("data", O_CREAT | O_WRONLY);
    write_or_fail(fd, "first", 5, 0);
    fsync_or_fail(fd);
    sync_directory(".");
    write_or_fail(fd, " second", 7, 5);
    close(fd);
    expect_content("data", "first second");
}

static void after(void) { expect_content("data", "first"); }

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
