"""A small etcd v3 client over etcd's HTTP/JSON gateway (grpc-gateway), Python 3 stdlib only.

etcd 3.4 serves its v3 API as JSON on the client port (`POST /v3/kv/range`,
`/v3/kv/txn`, `/v3/lease/grant`, `/v3/lease/keepalive`, `/v3/watch`, ...).
Keys and values are base64; int64 fields come back as JSON strings; a field
at its zero value is left out (a PUT event has no "type", a deleted key's kv
has only key and mod_revision).

Used by the mutex clients (etcd_mutex*.py) and by tools/etcd_history.py.
"""
import base64
import json
import socket
import urllib.error
import urllib.request

# gRPC codes that say the request was certainly not carried out (the same set
# lockcheck's etcd_error_is_definite uses): InvalidArgument, NotFound,
# PermissionDenied, ResourceExhausted, FailedPrecondition, Unauthenticated.
DEFINITE_CODES = {3, 5, 7, 8, 9, 16}


def b64(text):
    return base64.b64encode(text.encode() if isinstance(text, str) else text).decode()


def unb64(text):
    return base64.b64decode(text or "").decode("utf-8", "replace")


def prefix_end(prefix):
    """range_end that selects every key starting with prefix (etcd's GetPrefixRangeEnd)."""
    raw = bytearray(prefix.encode())
    for i in range(len(raw) - 1, -1, -1):
        if raw[i] < 0xFF:
            raw[i] += 1
            return bytes(raw[: i + 1])
    return b"\0"


def as_int(value):
    """etcd's int64 fields: JSON strings through the gateway, absent when 0."""
    return int(value) if value not in (None, "") else 0


class EtcdError(Exception):
    """An answer etcd gave or a transport failure.

    sent: False when the request certainly never reached a server (nothing
    happened), True when it may have been carried out.
    """

    def __init__(self, message, sent, code=None):
        super().__init__(message)
        self.sent = sent
        self.code = code

    @property
    def definite(self):
        """True when nothing was done: not sent, or refused with a definite gRPC code."""
        return not self.sent or self.code in DEFINITE_CODES


class Gateway:
    """POSTs JSON to the first member that answers; a member that refuses the
    connection is skipped for the next one, as lockcheck's etcd client does."""

    def __init__(self, endpoints, timeout_s):
        self.endpoints = list(endpoints)
        self.timeout_s = timeout_s
        self.current = 0
        # never through an http_proxy of the environment
        self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def _open(self, endpoint, path, body, timeout_s):
        request = urllib.request.Request(
            "http://%s%s" % (endpoint, path), data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"}, method="POST")
        return self.opener.open(request, timeout=timeout_s)

    def post(self, path, body, timeout_s=None):
        """One unary call; returns the decoded reply or raises EtcdError."""
        timeout_s = self.timeout_s if timeout_s is None else timeout_s
        last = None
        for _ in range(len(self.endpoints)):
            endpoint = self.endpoints[self.current]
            try:
                with self._open(endpoint, path, body, timeout_s) as response:
                    text = response.read()
                reply = json.loads(text.split(b"\n", 1)[0] if path == "/v3/lease/keepalive" else text)
                if path == "/v3/lease/keepalive":  # a stream of one message: {"result": ...} or {"error": ...}
                    if "error" in reply:
                        error = reply["error"]
                        raise EtcdError("keepalive: %s" % error.get("message"), True, error.get("code"))
                    reply = reply.get("result", {})
                return reply
            except urllib.error.HTTPError as e:  # etcd answered with an error: {"error","message","code"}
                try:
                    detail = json.loads(e.read())
                except ValueError:
                    detail = {}
                code = detail.get("code")
                error = EtcdError("%s: etcd error %s: %s" % (path, code, detail.get("message", e.reason)), True, code)
                if code not in DEFINITE_CODES:
                    self.current = (self.current + 1) % len(self.endpoints)
                raise error
            except (urllib.error.URLError, ConnectionError, socket.timeout, OSError, ValueError) as e:
                reason = getattr(e, "reason", e)
                refused = isinstance(reason, ConnectionRefusedError) or "refused" in str(reason).lower()
                self.current = (self.current + 1) % len(self.endpoints)
                last = EtcdError("%s at %s: %s" % (path, endpoint, reason), sent=not refused)
                if not refused:
                    raise last  # it may have been carried out: never send it elsewhere
        raise last

    # ---- the calls the recipes need -------------------------------------------------------------

    def lease_grant(self, ttl_s):
        reply = self.post("/v3/lease/grant", {"TTL": str(ttl_s)})
        if reply.get("error"):
            raise EtcdError("lease grant refused: %s" % reply["error"], True, None)
        return as_int(reply.get("ID")), as_int(reply.get("TTL")), reply

    def lease_keepalive(self, lease_id, timeout_s=None):
        """Returns (ttl_s, header); ttl 0 means the lease is gone. The header says which member
        answered (member_id), in which raft term, at which store revision."""
        reply = self.post("/v3/lease/keepalive", {"ID": str(lease_id)}, timeout_s)
        return as_int(reply.get("TTL")), header_fields(reply)

    def lease_revoke(self, lease_id):
        """Returns the header revision (the revision that deleted the lease's keys, if it had any)."""
        reply = self.post("/v3/lease/revoke", {"ID": str(lease_id)})
        return as_int(reply.get("header", {}).get("revision"))

    def range(self, key, range_end=None, **options):
        body = {"key": b64(key)}
        if range_end is not None:
            body["range_end"] = b64(range_end)
        body.update({k: (str(v) if isinstance(v, int) and not isinstance(v, bool) else v) for k, v in options.items()})
        return self.post("/v3/kv/range", body)

    def txn(self, compare, success, failure=()):
        return self.post("/v3/kv/txn", {"compare": list(compare), "success": list(success), "failure": list(failure)})

    def watch_stream(self, create_request, timeout_s):
        """Opens a watch; yields each decoded message ({"result": {...}}) as it arrives.

        The gateway answers a watch with a chunked HTTP stream of one JSON
        object per line that never ends on its own: the caller stops reading.
        timeout_s bounds each read (socket timeout), not the whole stream.
        """
        endpoint = self.endpoints[self.current]
        response = self._open(endpoint, "/v3/watch", {"create_request": create_request}, timeout_s)
        try:
            for line in response:
                line = line.strip()
                if line:
                    yield json.loads(line)
        finally:
            response.close()


def header_fields(reply):
    """A reply's header: revision and raft_term as ints, member_id as etcd prints it (hex)."""
    header = reply.get("header", {})
    return {"revision": as_int(header.get("revision")), "raft_term": as_int(header.get("raft_term")),
            "member_id": "%x" % as_int(header.get("member_id"))}


def kv_fields(kv):
    """A kv of a reply or an event, decoded: key and value as text, int64s as ints."""
    return {
        "key": unb64(kv.get("key")),
        "value": unb64(kv.get("value")),
        "create_revision": as_int(kv.get("create_revision")),
        "mod_revision": as_int(kv.get("mod_revision")),
        "version": as_int(kv.get("version")),
        "lease": as_int(kv.get("lease")),
    }
