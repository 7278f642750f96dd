/* etcd's and ZooKeeper's logs: preallocate, sync, then overwrite the zeros
 * record by record with fdatasync. An unsynced record is zeros again after
 * the power loss, and the preallocated size stays. */
#include "rule.h"

#define SIZE (1024 * 1024)

static void before(void) {
    int fd = open_or_fail("wal", O_CREAT | O_WRONLY);
    if (fallocate(fd, 0, 0, SIZE) != 0) fail("fallocate: %s", strerror(errno));
    fsync_or_fail(fd);
    sync_directory(".");
    write_or_fail(fd, "rec1", 4, 0);
    if (fdatasync(fd) != 0) fail("fdatasync: %s", strerror(errno));
    write_or_fail(fd, "rec2", 4, 4);
    write_or_fail(fd, "far", 3, SIZE - 3000);
    close(fd);
}

static void after(void) {
    char* data = read_sized("wal", SIZE);
    if (memcmp(data, "rec1", 4) != 0) fail("the synced record is lost");
    expect_bytes("wal", data, 4, SIZE, '\0');
    free(data);
}

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
