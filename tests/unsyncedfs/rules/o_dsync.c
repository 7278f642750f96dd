/* A write through a descriptor opened with O_DSYNC is durable when it returns;
 * a later plain write to the same file is not. The same through O_DIRECT |
 * O_DSYNC (MariaDB opens InnoDB's files with O_DIRECT); plain O_DIRECT
 * writes are not durable. */
#include "rule.h"

#define BLOCK 4096

static void before(void) {
    int synced = open_or_fail("log", O_CREAT | O_WRONLY | O_DSYNC);
    sync_directory(".");
    write_or_fail(synced, "durable-1", 9, 0);
    close(synced);
    int plain = open_or_fail("log", O_WRONLY);
    write_or_fail(plain, " lost", 5, 9);
    close(plain);

    char* block = NULL;
    if (posix_memalign((void**)&block, BLOCK, BLOCK) != 0) fail("posix_memalign");
    int direct_synced = open_or_fail("direct", O_CREAT | O_WRONLY | O_DIRECT | O_DSYNC);
    sync_directory(".");
    memset(block, 'D', BLOCK);
    write_or_fail(direct_synced, block, BLOCK, 0);
    close(direct_synced);
    int direct = open_or_fail("direct", O_WRONLY | O_DIRECT);
    memset(block, 'X', BLOCK);
    write_or_fail(direct, block, BLOCK, 0);
    write_or_fail(direct, block, BLOCK, BLOCK);
    close(direct);
    free(block);
}

static void after(void) {
    expect_content("log", "durable-1");
    char* data = read_sized("direct", BLOCK);
    expect_bytes("direct", data, 0, BLOCK, 'D');
    free(data);
}

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
