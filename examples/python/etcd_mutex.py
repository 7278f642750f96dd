"""etcd's mutex recipe (Go clientv3/concurrency Mutex + Session) as a lockcheck worker, Python 3 stdlib only.

Shared by etcd_mutex_unsafe.py (the recipe as etcd 3.4.3's Go client had it:
Lock returns as soon as the keys before its own are gone, without looking at
its own key, etcd-io/etcd#11456) and etcd_mutex_safe.py (the fixed recipe:
after the wait it reads its own key again and fails when it is gone, as
etcd's Go client does since the fix "concurrency: make lock more reliable").

Per acquire (owner ids are fresh per attempt, so one session per acquire):
  1. session: POST /v3/lease/grant TTL = ceil(ttl_ms / 1000) s, and a
     keep-alive thread that renews it every TTL/3 while the acquire waits
     (concurrency.Session's keep-alive). At the grant the thread stops: from
     then on the lease is renewed by lockcheck's `renew` ops (capability
     `renew`), so every renewal of a held lock is an op in the history and the
     checkers' lease bounds stay exact (a paused worker renews nothing either
     way: SIGSTOP stops the thread too).
  2. one txn: if create_revision(myKey) == 0 then put myKey = owner with the
     lease, and read the prefix's first-created key; myKey = prefix + lease in
     hex (Go: fmt.Sprintf("%s%x", pfx, lease)), prefix = /lockcheck/<key>/.
     myRev = the txn's revision = myKey's create revision (the fencing token).
  3. no key created before myRev: granted. Else waitDeletes: read the last
     key created before myRev (max_create_revision = myRev - 1, sort by create
     revision, descending, limit 1); watch it from the read's revision until a
     DELETE; read again; until none is left.
  4. unsafe: return. safe: GET myKey; gone -> fail "session expired".
release: DELETE myKey (Go's Unlock: by key name), then revoke the lease (Go's
Session.Close). renew: one keep-alive; TTL 0 -> fail not-owner (etcd_mutex_blind_renew.py:
ok anyway, the bug of a heartbeat that ignores a failed refresh).

What each ok carries as `value`, for the servers' record (NOTES.md):
  acquire: {"key", "lease", "create_revision", "grant_revision"} where
  grant_revision is the header revision of the read that decided the grant
  (the txn when granted at once, else the last waitDeletes read for the
  unsafe client, the own-key GET for the safe one); "waited": true when it
  waited.
  renew: {"lease_ttl_s", "revision", "raft_term", "member_id"} (the keep-alive
  reply's header: the store revision when the leader answered, and which leader)
  release: {"deleted": 0|1, "revision", "revoke_revision"}

recipe_options (all optional): "wait_ms" (default 8000: how long an acquire
waits in the queue before it deletes its key and fails `held`; keep it below
the spec's op_timeout_ms), "prefix" (default "/lockcheck/").
"""
import sys
import threading
import time

from etcd_gateway import EtcdError, Gateway, b64, kv_fields, prefix_end
from lockcheck_client import fail, info, ok


def log(*parts):
    sys.stderr.write("etcd-mutex: " + " ".join(str(p) for p in parts) + "\n")
    sys.stderr.flush()


def failure(error, step):
    """fail when nothing was done, info when it may have been (lockcheck's rule)."""
    return fail("not executed: %s: %s" % (step, error)) if error.definite else info("%s: %s" % (step, error))


class KeepAlive(threading.Thread):
    """Renews one lease every ttl/3 until stopped (concurrency.Session's keep-alive loop)."""

    def __init__(self, endpoints, timeout_s, lease, ttl_s):
        super().__init__(daemon=True)
        self.gateway = Gateway(endpoints, timeout_s)
        self.lease = lease
        self.interval = ttl_s / 3.0
        self.stopped = threading.Event()
        self.lost = False  # the server said the lease is gone (TTL 0)

    def run(self):
        while not self.stopped.wait(self.interval):
            try:
                ttl, _ = self.gateway.lease_keepalive(self.lease)
            except EtcdError as e:
                log("keep-alive of lease %x: %s" % (self.lease, e))
                continue
            if ttl <= 0:
                self.lost = True  # Go's session closes Done(); Lock does not look at it
                log("keep-alive of lease %x: lease gone" % self.lease)
                return

    def stop(self):
        self.stopped.set()
        self.join(timeout=self.gateway.timeout_s + 1)


class EtcdMutex:
    supports = ["fencing", "renew"]
    recheck_own_key = True  # the fix; etcd_mutex_unsafe.py sets False
    trust_keepalive_ttl = True  # TTL 0 fails the renew; etcd_mutex_blind_renew.py sets False
    name = "python etcd Mutex (re-reads its own key after the wait)"

    def __init__(self, init):
        self.endpoints = init["nodes"]
        self.timeout_s = init.get("server_timeout_ms", 1000) / 1000.0
        options = init.get("recipe_options") or {}
        self.wait_s = options.get("wait_ms", 8000) / 1000.0
        self.root = options.get("prefix", "/lockcheck/")
        self.etcd = Gateway(self.endpoints, self.timeout_s)
        self.held = {}  # owner -> {"key", "lease"}

    # ---- helpers ---------------------------------------------------------------------------------

    def revoke(self, lease):
        """Session.Close: revoke the lease. Not an op of the history; said in the worker log when it fails."""
        try:
            return self.etcd.lease_revoke(lease)
        except EtcdError as e:
            log("revoke of lease %x failed (it will expire): %s" % (lease, e))
            return None

    def delete(self, key):
        """Unlock: DELETE by key name; returns (deleted count, header revision)."""
        reply = self.etcd.post("/v3/kv/deleterange", {"key": b64(key)})
        return int(reply.get("deleted", 0) or 0), int(reply["header"]["revision"])

    def give_up(self, key, lease, why):
        """Leaves the queue: delete our key, revoke the lease. fail only when the delete was confirmed."""
        try:
            self.delete(key)
        except EtcdError as e:
            self.revoke(lease)  # the key goes with the lease, at the latest when it expires
            return info("%s; deleting own key: %s" % (why, e))
        self.revoke(lease)
        return fail(why)

    def wait_deletes(self, prefix, max_create_rev, deadline):
        """Go's waitDeletes. Returns the header revision of the read that found no older key,
        or None when the deadline passed. Raises EtcdError."""
        while True:
            reply = self.etcd.range(prefix, prefix_end(prefix), max_create_revision=max_create_rev,
                                    sort_order="DESCEND", sort_target="CREATE", limit=1)
            header_rev = int(reply["header"]["revision"])
            kvs = reply.get("kvs") or []
            if not kvs:
                return header_rev
            last_key = kv_fields(kvs[0])["key"]
            if not self.wait_delete(last_key, header_rev, deadline):
                return None

    def wait_delete(self, key, rev, deadline):
        """Go's waitDelete: watch key from rev until a DELETE event. False at the deadline."""
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        request = {"key": b64(key), "start_revision": str(rev)}
        try:
            for message in self.etcd.watch_stream(request, left):
                result = message.get("result", {})
                if result.get("canceled"):
                    raise EtcdError("watch of %s cancelled: %s" % (key, result.get("cancel_reason")), True)
                for event in result.get("events", []):
                    if event.get("type") == "DELETE":
                        return True
                if time.monotonic() >= deadline:
                    return False
        except (OSError, ValueError) as e:  # the read timed out (the deadline) or the stream broke
            if time.monotonic() >= deadline:
                return False
            raise EtcdError("watch of %s: %s" % (key, e), True)
        raise EtcdError("watch of %s ended" % key, True)

    # ---- the lock --------------------------------------------------------------------------------

    def acquire(self, key, owner, ttl_ms):
        started = time.monotonic()
        ttl_s = max(1, -(-int(ttl_ms) // 1000))
        try:
            lease, granted_ttl, _ = self.etcd.lease_grant(ttl_s)
        except EtcdError as e:
            return fail("lease grant: %s" % e)  # a lease alone never takes the lock
        if granted_ttl * 1000 < ttl_ms:
            self.revoke(lease)
            return fail("etcd granted a %d s lease, shorter than ttl_ms %d" % (granted_ttl, ttl_ms))
        keeper = KeepAlive(self.endpoints, self.timeout_s, lease, granted_ttl)
        keeper.start()
        try:
            return self.lock(key, owner, lease, granted_ttl, started)
        finally:
            keeper.stop()

    def lock(self, key, owner, lease, lease_ttl, started):
        prefix = "%s%s/" % (self.root, key)
        my_key = "%s%x" % (prefix, lease)
        first_created = {"request_range": {"key": b64(prefix), "range_end": b64(prefix_end(prefix)),
                                           "sort_order": "ASCEND", "sort_target": "CREATE", "limit": "1"}}
        try:
            reply = self.etcd.txn(
                [{"target": "CREATE", "key": b64(my_key), "result": "EQUAL", "create_revision": "0"}],
                [{"request_put": {"key": b64(my_key), "value": b64(owner), "lease": str(lease)}}, first_created],
                [{"request_range": {"key": b64(my_key)}}, first_created])
        except EtcdError as e:
            result = failure(e, "lock txn")
            self.revoke(lease)  # whatever the txn did goes with the lease
            return result
        my_rev = int(reply["header"]["revision"])
        responses = reply.get("responses") or []
        if not reply.get("succeeded"):  # a fresh lease's key cannot exist: as Go, take its create revision
            my_rev = kv_fields(responses[0]["response_range"]["kvs"][0])["create_revision"]
        owners = (responses[1].get("response_range") or {}).get("kvs") or []
        value = {"key": my_key, "lease": lease, "lease_ttl_s": lease_ttl, "create_revision": my_rev}
        if not owners or kv_fields(owners[0])["create_revision"] == my_rev:
            self.held[owner] = {"key": my_key, "lease": lease, "lease_ttl_s": lease_ttl}
            return dict(ok(my_rev), value=dict(value, grant_revision=int(reply["header"]["revision"])))

        deadline = started + self.wait_s
        try:
            grant_rev = self.wait_deletes(prefix, my_rev - 1, deadline)
        except EtcdError as e:
            return self.give_up(my_key, lease, "waiting: %s" % e)
        if grant_rev is None:
            return self.give_up(my_key, lease, "held")
        value.update(waited=True, grant_revision=grant_rev)

        if self.recheck_own_key:  # the fix: is our key (our session) still there?
            try:
                mine = self.etcd.range(my_key)
            except EtcdError as e:
                return self.give_up(my_key, lease, "re-reading own key: %s" % e)
            check_rev = int(mine["header"]["revision"])
            if not mine.get("kvs"):
                self.revoke(lease)
                return dict(fail("session expired: own key %s gone at revision %d" % (my_key, check_rev)),
                            value=dict(value, grant_revision=None, own_key_missing_at=check_rev))
            value["grant_revision"] = check_rev
        self.held[owner] = {"key": my_key, "lease": lease, "lease_ttl_s": lease_ttl}
        return dict(ok(my_rev), value=value)

    def renew(self, key, owner, ttl_ms):
        held = self.held.get(owner)
        if held is None:
            return fail("not-owner")
        reply = None
        for _ in range(len(self.endpoints)):  # a keep-alive is idempotent: another member may answer
            try:
                reply = self.etcd.lease_keepalive(held["lease"])
                break
            except EtcdError as e:
                if e.definite and e.sent:
                    return fail("keepalive: %s" % e)
                reply = e
        if isinstance(reply, EtcdError):
            return failure(reply, "keepalive")
        ttl, header = reply
        if ttl <= 0 and self.trust_keepalive_ttl:
            return dict(fail("not-owner"), value=header)
        # The blind client reports the lease it believes it renewed.
        return dict(ok(), value=dict(header, lease_ttl_s=ttl if ttl > 0 else held["lease_ttl_s"]))

    def release(self, key, owner):
        held = self.held.pop(owner, None)
        if held is None:
            return fail("not-owner")
        try:
            deleted, revision = self.delete(held["key"])
        except EtcdError as e:
            self.revoke(held["lease"])
            return failure(e, "unlock")
        revoke_revision = self.revoke(held["lease"])
        value = {"deleted": deleted, "revision": revision, "revoke_revision": revoke_revision}
        return dict(ok(), value=value) if deleted else dict(fail("not-owner"), value=value)
