/* A rename is durable only after an fsync of the directory: without one it is undone. */
#include "rule.h"

static void before(void) {
    create_durable("old", "payload");
    if (rename("old", "new") != 0) fail("rename: %s", strerror(errno));
}

static void after(void) {
    expect_content("old", "payload");
    expect_absent("new");
}

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
