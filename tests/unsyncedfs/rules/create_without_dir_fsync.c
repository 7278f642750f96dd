/* A file created and fsynced, but its directory never: under dir-fsync the
 * file vanishes with its data; under any-fsync (ext4's journal) the file's
 * fsync committed its directory entry too. */
#include "rule.h"

static void before(void) {
    int fd = open_or_fail("fresh", O_CREAT | O_EXCL | O_WRONLY);
    write_or_fail(fd, "synced data", 11, 0);
    fsync_or_fail(fd);
    close(fd);
}

static void after(void) {
    if (strcmp(rule_metadata, "any-fsync") == 0)
        expect_content("fresh", "synced data");
    else
        expect_absent("fresh");
}

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
