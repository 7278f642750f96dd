/* An unlink without an fsync of the directory is undone, data and all. */
#include "rule.h"

static void before(void) {
    create_durable("victim", "still here");
    if (unlink("victim") != 0) fail("unlink: %s", strerror(errno));
    expect_absent("victim");
}

static void after(void) { expect_content("victim", "still here"); }

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
