/* Shared mappings: msync(MS_SYNC) makes the file durable; pages dirtied later
 * are lost. A read-only shared mapping sees pwrite(2)s at once (etcd's bbolt
 * reads its database through one and writes with pwrite). */
#include <sys/mman.h>

#include "rule.h"

#define SIZE 8192

static void before(void) {
    int fd = open_or_fail("map", O_CREAT | O_RDWR);
    if (ftruncate(fd, SIZE) != 0) fail("ftruncate: %s", strerror(errno));
    fsync_or_fail(fd);
    sync_directory(".");
    char* map = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) fail("mmap: %s", strerror(errno));
    memcpy(map, "synced", 6);
    if (msync(map, SIZE, MS_SYNC) != 0) fail("msync: %s", strerror(errno));
    const char* reader = mmap(NULL, SIZE, PROT_READ, MAP_SHARED, fd, 0);
    if (reader == MAP_FAILED) fail("mmap (read-only): %s", strerror(errno));
    write_or_fail(fd, "pwritten", 8, 100);
    if (memcmp(reader + 100, "pwritten", 8) != 0) fail("a read-only mapping does not see a pwrite");
    memcpy(map + 4096, "unsynced", 8);
    munmap(map, SIZE);
    munmap((void*)reader, SIZE);
    close(fd);
}

static void after(void) {
    char* data = read_sized("map", SIZE);
    if (memcmp(data, "synced", 6) != 0) fail("the msync'ed bytes are lost");
    expect_bytes("map", data, 6, SIZE, '\0');
    free(data);
}

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
