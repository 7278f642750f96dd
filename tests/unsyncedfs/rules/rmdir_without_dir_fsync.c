/* rmdir without an fsync of the parent is undone. */
#include "rule.h"

static void before(void) {
    if (mkdir("gone", 0755) != 0) fail("mkdir: %s", strerror(errno));
    sync_directory(".");
    if (rmdir("gone") != 0) fail("rmdir: %s", strerror(errno));
}

static void after(void) {
    struct stat st;
    if (stat("gone", &st) != 0 || !S_ISDIR(st.st_mode)) fail("directory 'gone' did not come back");
}

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
