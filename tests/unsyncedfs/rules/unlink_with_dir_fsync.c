/* An unlink followed by an fsync of the directory stays. */
#include "rule.h"

static void before(void) {
    create_durable("victim", "gone");
    if (unlink("victim") != 0) fail("unlink: %s", strerror(errno));
    sync_directory(".");
}

static void after(void) { expect_absent("victim"); }

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
