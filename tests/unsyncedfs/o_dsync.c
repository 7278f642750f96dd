/* A write through a descriptor opened with O_DSYNC is durable when it returns;
 * a later plain write to the same file is not. */
#include "rule.h"

static void before(void) {
    int synced = open_or_fail("log", O_CREAT | O_WRONLY | O_DSYNC);
    sync_directory(".");
    write_or_fail(synced, "durable-1", 9, 0);
    close(synced);
    int plain = open_or_fail("log", O_WRONLY);
    write_or_fail(plain, " lost", 5, 9);
    close(plain);
}

static void after(void) { expect_content("log", "durable-1"); }

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
