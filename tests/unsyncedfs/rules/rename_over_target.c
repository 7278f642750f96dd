/* A rename that replaces a file, without a directory fsync: both files come back as they were. */
#include "rule.h"

static void before(void) {
    create_durable("a", "A-data");
    create_durable("b", "B-data");
    if (rename("a", "b") != 0) fail("rename: %s", strerror(errno));
    expect_content("b", "A-data");
    expect_absent("a");
}

static void after(void) {
    expect_content("a", "A-data");
    expect_content("b", "B-data");
}

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
