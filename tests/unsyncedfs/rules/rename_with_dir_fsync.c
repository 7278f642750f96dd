/* A rename followed by an fsync of the directory survives. */
#include "rule.h"

static void before(void) {
    create_durable("old", "payload");
    if (rename("old", "new") != 0) fail("rename: %s", strerror(errno));
    sync_directory(".");
}

static void after(void) {
    expect_content("new", "payload");
    expect_absent("old");
}

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
