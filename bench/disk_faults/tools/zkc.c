/* zkc: a tiny ZooKeeper client for zk.sh (lockcheck issue 40).
 *
 *   zkc HOST:PORT write FROM TO [SIZE]  create /data/kI (persistent) for I in [FROM, TO); prints "acked N";
 *                                       with SIZE, each value is SIZE bytes (a prefix, then 'x's)
 *   zkc HOST:PORT lock OWNER FILE       create /locks/lock- (ephemeral sequential) with data OWNER in a
 *                                       new 30 s session; saves session id, password and node name to
 *                                       FILE; exits without closing the session (it lives on the server)
 *   zkc HOST:PORT resume FILE           reconnects with the session in FILE: "session alive" or
 *                                       "session expired", and whether the node it was given exists, whose
 *                                       it is, and whether it is the lowest (the holder by the recipe)
 *   zkc HOST:PORT survey N              how many of /data/k0..k(N-1) exist; /locks children with owners
 *
 * Exit 0 on success, 1 on a ZooKeeper error (printed), 2 on bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zookeeper/zookeeper.h>

static volatile int g_state = 0;

static void watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx) {
    (void)zh; (void)path; (void)ctx;
    if (type == ZOO_SESSION_EVENT) g_state = state;
}

static zhandle_t *connect_zk(const char *hosts, const clientid_t *cid, int timeout_ms) {
    zoo_set_debug_level(0); /* quiet: the library logs every refused connect */
    zhandle_t *zh = zookeeper_init(hosts, watcher, 30000, cid, NULL, 0);
    if (!zh) { perror("zookeeper_init"); exit(1); }
    for (int i = 0; i < timeout_ms / 10; i++) {
        if (g_state == ZOO_CONNECTED_STATE || g_state == ZOO_EXPIRED_SESSION_STATE ||
            g_state == ZOO_AUTH_FAILED_STATE)
            break;
        usleep(10000);
    }
    return zh;
}

static int lowest_child(zhandle_t *zh, const char *dir, char *out, size_t n) {
    struct String_vector v;
    int rc = zoo_get_children(zh, dir, 0, &v);
    if (rc != ZOK) return rc;
    out[0] = 0;
    for (int i = 0; i < v.count; i++)
        if (!out[0] || strcmp(v.data[i], out) < 0) snprintf(out, n, "%s", v.data[i]);
    deallocate_String_vector(&v);
    return ZOK;
}

static void print_locks(zhandle_t *zh) {
    struct String_vector v;
    int rc = zoo_get_children(zh, "/locks", 0, &v);
    if (rc == ZNONODE) { printf("locks: /locks missing\n"); return; }
    if (rc != ZOK) { printf("locks: error %s\n", zerror(rc)); return; }
    printf("locks:");
    for (int i = 0; i < v.count; i++) {
        char path[512], data[128];
        int len = sizeof data - 1;
        struct Stat st;
        snprintf(path, sizeof path, "/locks/%s", v.data[i]);
        if (zoo_get(zh, path, 0, data, &len, &st) == ZOK) {
            data[len > 0 ? len : 0] = 0;
            printf(" %s(data=%s,owner=0x%llx)", v.data[i], data, (unsigned long long)st.ephemeralOwner);
        }
    }
    if (v.count == 0) printf(" none");
    printf("\n");
    deallocate_String_vector(&v);
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    const char *hosts = argv[1], *cmd = argv[2];
    if (!strcmp(cmd, "write") && (argc == 5 || argc == 6)) {
        static char big[1 << 20];
        int size = argc == 6 ? atoi(argv[5]) : 0;
        if (size < 0 || size > (int)sizeof big) return 2;
        zhandle_t *zh = connect_zk(hosts, NULL, 10000);
        if (g_state != ZOO_CONNECTED_STATE) { printf("not connected\n"); return 1; }
        zoo_create(zh, "/data", "", 0, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
        int acked = 0;
        for (int i = atoi(argv[3]); i < atoi(argv[4]); i++) {
            char path[64], value[64];
            snprintf(path, sizeof path, "/data/k%d", i);
            snprintf(value, sizeof value, "value-of-k%d:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", i);
            const char *v = value;
            int len = (int)strlen(value);
            if (size > 0) {
                memset(big, 'x', (size_t)size);
                memcpy(big, value, (size_t)(len < size ? len : size));
                v = big;
                len = size;
            }
            int rc = zoo_create(zh, path, v, len, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
            if (rc == ZOK) acked++;
            else { printf("create %s: %s\n", path, zerror(rc)); break; }
        }
        printf("acked %d\n", acked);
        zookeeper_close(zh);
        return 0;
    }
    if (!strcmp(cmd, "lock") && argc == 5) {
        zhandle_t *zh = connect_zk(hosts, NULL, 10000);
        if (g_state != ZOO_CONNECTED_STATE) { printf("not connected\n"); return 1; }
        zoo_create(zh, "/locks", "", 0, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
        char name[256];
        int rc = zoo_create(zh, "/locks/lock-", argv[3], (int)strlen(argv[3]), &ZOO_OPEN_ACL_UNSAFE,
                            ZOO_EPHEMERAL_SEQUENTIAL, name, sizeof name);
        if (rc != ZOK) { printf("create: %s\n", zerror(rc)); return 1; }
        char low[256];
        lowest_child(zh, "/locks", low, sizeof low);
        const clientid_t *id = zoo_client_id(zh);
        FILE *f = fopen(argv[4], "w");
        fprintf(f, "%llx\n", (unsigned long long)id->client_id);
        for (int i = 0; i < 16; i++) fprintf(f, "%02x", (unsigned char)id->passwd[i]);
        fprintf(f, "\n%s\n", name);
        fclose(f);
        printf("created %s session 0x%llx, %s\n", name, (unsigned long long)id->client_id,
               strcmp(name + strlen("/locks/"), low) == 0 ? "holds the lock (lowest)" : "waits");
        fflush(stdout);
        _exit(0); /* leave the session open on the server */
    }
    if (!strcmp(cmd, "resume") && argc == 4) {
        FILE *f = fopen(argv[3], "r");
        if (!f) return 2;
        clientid_t cid;
        unsigned long long sid;
        char pw[64], name[256];
        if (fscanf(f, "%llx %63s %255s", &sid, pw, name) != 3) return 2;
        fclose(f);
        cid.client_id = (int64_t)sid;
        for (int i = 0; i < 16; i++) { unsigned b; sscanf(pw + 2 * i, "%2x", &b); cid.passwd[i] = (char)b; }
        zhandle_t *zh = connect_zk(hosts, &cid, 15000);
        if (g_state == ZOO_EXPIRED_SESSION_STATE) { printf("session 0x%llx expired\n", sid); return 0; }
        if (g_state != ZOO_CONNECTED_STATE) { printf("session 0x%llx: not connected\n", sid); return 1; }
        struct Stat st;
        char data[128];
        int len = sizeof data - 1;
        int rc = zoo_get(zh, name, 0, data, &len, &st);
        char low[256] = "";
        lowest_child(zh, "/locks", low, sizeof low);
        if (rc == ZOK) {
            data[len > 0 ? len : 0] = 0;
            int mine = (long long)st.ephemeralOwner == (long long)sid;
            int lowest = strcmp(name + strlen("/locks/"), low) == 0;
            printf("session 0x%llx alive; its node %s exists, data=%s, ephemeralOwner=0x%llx (%s); %s\n", sid, name,
                   data, (unsigned long long)st.ephemeralOwner, mine ? "its own" : "ANOTHER SESSION'S",
                   lowest ? "lowest: the recipe says it HOLDS the lock" : "not lowest");
        } else {
            printf("session 0x%llx alive; its node %s: %s\n", sid, name, zerror(rc));
        }
        fflush(stdout);
        _exit(0); /* do not close: leave the session as it is */
    }
    if (!strcmp(cmd, "survey") && argc == 4) {
        zhandle_t *zh = connect_zk(hosts, NULL, 10000);
        if (g_state != ZOO_CONNECTED_STATE) { printf("not connected\n"); return 1; }
        int n = atoi(argv[3]), present = 0, altered = 0;
        for (int i = 0; i < n; i++) {
            char path[64], want[64], data[128];
            int len = sizeof data - 1;
            snprintf(path, sizeof path, "/data/k%d", i);
            snprintf(want, sizeof want, "value-of-k%d:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", i);
            if (zoo_get(zh, path, 0, data, &len, NULL) == ZOK) {
                present++;
                data[len > 0 ? len : 0] = 0;
                if (strcmp(data, want)) altered++;
            }
        }
        printf("data %d/%d present, %d altered\n", present, n, altered);
        print_locks(zh);
        zookeeper_close(zh);
        return 0;
    }
    return 2;
}
