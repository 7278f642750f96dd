/* Many threads at once, against the daemon's worker threads: appends with
 * fdatasync, concurrent overwrites of one shared file, and directory changes
 * in one shared directory, each with a known durable point (a barrier, one
 * sync, a barrier). After the power loss every file must hold exactly what
 * was durable at that point, and the directory exactly its entries then. */
#include <pthread.h>

#include "rule.h"

#define THREADS 8
#define RECORDS 205 /* synced after every 10th: 200 durable, 5 not */
#define RECORD 64
#define NAMES 20

static pthread_barrier_t barrier;

static void record_text(char* out, int thread, int k) {
    memset(out, '.', RECORD);
    int n = snprintf(out, RECORD, "thread %d record %d", thread, k);
    out[n] = ' ';
    out[RECORD - 1] = '\n';
}

static void* worker(void* arg) {
    const int id = (int)(long)arg;
    char name[64], other[64], record[RECORD];

    /* Appends to a file of its own, fdatasync after every 10th record. */
    snprintf(name, sizeof name, "t%d", id);
    int fd = open_or_fail(name, O_WRONLY | O_APPEND);
    for (int k = 0; k < RECORDS; ++k) {
        record_text(record, id, k);
        if (write(fd, record, RECORD) != RECORD) fail("append: %s", strerror(errno));
        if ((k + 1) % 10 == 0 && fdatasync(fd) != 0) fail("fdatasync: %s", strerror(errno));
    }
    close(fd);

    /* Its own block of the shared file, and its own names in names/. */
    int shared = open_or_fail("shared", O_WRONLY);
    char block[4096];
    memset(block, 'a' + id, sizeof block);
    write_or_fail(shared, block, sizeof block, (off_t)id * 4096);
    for (int k = 0; k < NAMES; ++k) {
        snprintf(name, sizeof name, "names/n%d-%d", id, k);
        close(open_or_fail(name, O_CREAT | O_WRONLY));
    }
    snprintf(name, sizeof name, "names/n%d-%d", id, NAMES - 1);
    snprintf(other, sizeof other, "names/m%d", id);
    if (rename(name, other) != 0) fail("rename: %s", strerror(errno));
    snprintf(name, sizeof name, "names/n%d-%d", id, NAMES - 2);
    if (unlink(name) != 0) fail("unlink: %s", strerror(errno));

    pthread_barrier_wait(&barrier);
    if (id == 0) {
        fsync_or_fail(shared);
        sync_directory("names");
    }
    pthread_barrier_wait(&barrier);

    /* Nothing from here on is synced. */
    memset(block, 'Z', sizeof block);
    write_or_fail(shared, block, sizeof block, (off_t)id * 4096);
    write_or_fail(shared, block, 100, (off_t)THREADS * 4096 + id * 100);
    close(shared);
    snprintf(name, sizeof name, "names/late-%d", id);
    close(open_or_fail(name, O_CREAT | O_WRONLY));
    snprintf(name, sizeof name, "names/n%d-0", id);
    if (unlink(name) != 0) fail("unlink: %s", strerror(errno));
    snprintf(name, sizeof name, "names/n%d-1", id);
    snprintf(other, sizeof other, "names/moved-%d", id);
    if (rename(name, other) != 0) fail("rename: %s", strerror(errno));
    return NULL;
}

static void before(void) {
    for (int i = 0; i < THREADS; ++i) {
        char name[32];
        snprintf(name, sizeof name, "t%d", i);
        close(open_or_fail(name, O_CREAT | O_WRONLY));
    }
    close(open_or_fail("shared", O_CREAT | O_WRONLY));
    if (mkdir("names", 0755) != 0) fail("mkdir: %s", strerror(errno));
    sync_directory(".");
    pthread_barrier_init(&barrier, NULL, THREADS);
    pthread_t threads[THREADS];
    for (long i = 0; i < THREADS; ++i) pthread_create(&threads[i], NULL, worker, (void*)i);
    for (int i = 0; i < THREADS; ++i) pthread_join(threads[i], NULL);
}

static void after(void) {
    char name[64], expected[RECORD];
    for (int id = 0; id < THREADS; ++id) {
        snprintf(name, sizeof name, "t%d", id);
        char* data = read_sized(name, 200 * RECORD);
        for (int k = 0; k < 200; ++k) {
            record_text(expected, id, k);
            if (memcmp(data + k * RECORD, expected, RECORD) != 0) fail("%s: record %d differs", name, k);
        }
        free(data);
    }
    char* data = read_sized("shared", THREADS * 4096);
    for (int id = 0; id < THREADS; ++id)
        expect_bytes("shared", data, (size_t)id * 4096, (size_t)(id + 1) * 4096, (char)('a' + id));
    free(data);
    for (int id = 0; id < THREADS; ++id) {
        for (int k = 0; k < NAMES - 2; ++k) {
            snprintf(name, sizeof name, "names/n%d-%d", id, k);
            expect_content(name, "");
        }
        snprintf(name, sizeof name, "names/n%d-%d", id, NAMES - 2);
        expect_absent(name);
        snprintf(name, sizeof name, "names/n%d-%d", id, NAMES - 1);
        expect_absent(name);
        snprintf(name, sizeof name, "names/m%d", id);
        expect_content(name, "");
        snprintf(name, sizeof name, "names/late-%d", id);
        expect_absent(name);
        snprintf(name, sizeof name, "names/moved-%d", id);
        expect_absent(name);
    }
}

int main(int argc, char** argv) { return rule_main(argc, argv, before, after); }
