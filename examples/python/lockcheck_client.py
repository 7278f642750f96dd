"""Write a lockcheck worker in Python: the protocol loop of docs/protocol.md (version 1).

A worker reads JSON lines on stdin and answers each on stdout. Give `serve` a
factory that builds your lock client from the init request (`login(init)`
gives the user and password the servers ask for); the client has

    name: str                              shown in lockcheck's log
    supports: list[str]                    e.g. ["fencing"] if acquire returns tokens
    acquire(key, owner, ttl_ms) -> dict    one of ok(token, valid_ms), fail(error), info(error)
    release(key, owner) -> dict

`fail` means the op certainly did not happen ("held" for a busy lock,
"not-owner" for a release by a non-owner, anything else for "not executed");
`info` means it may have happened (a timeout after sending).
"""
import json
import sys

PROTOCOL = 1


def ok(token=None, valid_ms=None):
    """An ok reply. valid_ms (optional): how much of the lease was left when
    the grant arrived, as this client computed it (negative: already expired);
    lockcheck then blames a late grant on the client that used it."""
    reply = {"type": "ok"}
    if token is not None:
        reply["token"] = token
    if valid_ms is not None:
        reply["valid_ms"] = int(valid_ms)
    return reply


def fail(error):
    return {"type": "fail", "error": error}


def info(error):
    return {"type": "info", "error": error}


def login(init):
    """(user, password) the run's servers ask for: the init's "auth", a fresh
    password per run (Redis: user "default"; MariaDB: user "lockcheck").
    (None, None) for servers without a login (ZooKeeper, etcd)."""
    auth = init.get("auth") or {}
    return auth.get("user"), auth.get("password")


def _send(reply):
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()


def _answer(client, request):
    f = request.get("f")
    if f in ("read", "write"):  # checkpoints of the critical section: answering is the point
        return ok()
    if f == "acquire":
        return client.acquire(request["key"], request["owner"], request["ttl_ms"])
    if f == "release":
        return client.release(request["key"], request["owner"])
    if f == "renew" and hasattr(client, "renew"):
        return client.renew(request["key"], request["owner"], request["ttl_ms"])
    return fail("unsupported op " + str(f))


def serve(make_client):
    """Runs the worker until stdin closes."""
    init = json.loads(sys.stdin.readline() or "{}")
    if init.get("f") != "init" or init.get("protocol") != PROTOCOL:
        _send({"id": 0, **fail("expected init of protocol %d" % PROTOCOL)})
        sys.exit(254)
    client = make_client(init)
    _send({"id": 0, "type": "ok", "protocol": PROTOCOL, "client": client.name, "supports": client.supports})
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            reply = _answer(client, request)
            _send({"id": request["id"], **reply})
        except (ValueError, KeyError) as e:
            _send({"id": -1, **fail("bad request: %s" % e)})
