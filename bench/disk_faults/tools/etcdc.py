#!/usr/bin/env python3
"""etcdc.py: a tiny etcd v3 client over the HTTP/JSON gateway, for etcd.sh.

  etcdc.py URL write FROM TO      put /data/kI for I in [FROM, TO); prints "acked N"
  etcdc.py URL lock OWNER FILE    grant a 30 s lease, then txn: if create_revision(/lock) == 0,
                                  put /lock=OWNER with the lease; saves the lease id to FILE
  etcdc.py URL resume FILE        the lease's TTL left, and who /lock is (value, lease)
  etcdc.py URL survey N           how many of /data/k0..k(N-1) exist and intact; /lock; revision
  etcdc.py URL put KEY VALUE      one put; prints its revision
"""
import base64
import json
import sys
import urllib.request


def b64(s):
    return base64.b64encode(s.encode()).decode()


def unb64(s):
    return base64.b64decode(s).decode(errors="replace")


def call(url, path, body, timeout=5):
    req = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read())


def value(i):
    return "value-of-k%d:%s" % (i, "x" * 30)


def main():
    url, cmd = sys.argv[1], sys.argv[2]
    try:
        if cmd == "write":
            acked = 0
            for i in range(int(sys.argv[3]), int(sys.argv[4])):
                call(url, "/v3/kv/put", {"key": b64("/data/k%d" % i), "value": b64(value(i))})
                acked += 1
            print("acked", acked)
        elif cmd == "lock":
            lease = call(url, "/v3/lease/grant", {"TTL": 30})["ID"]
            r = call(url, "/v3/kv/txn", {
                "compare": [{"key": b64("/lock"), "target": "CREATE", "result": "EQUAL", "create_revision": 0}],
                "success": [{"request_put": {"key": b64("/lock"), "value": b64(sys.argv[3]), "lease": lease}}],
            })
            ok = r.get("succeeded", False)
            with open(sys.argv[4], "w") as f:
                f.write(str(lease) + "\n")
            print("lock %s with lease %x at revision %s" % ("GRANTED" if ok else "refused", int(lease),
                                                           r["header"]["revision"]))
        elif cmd == "resume":
            lease = open(sys.argv[3]).read().strip()
            t = call(url, "/v3/lease/timetolive", {"ID": lease})
            ttl = int(t.get("TTL", -1))
            r = call(url, "/v3/kv/range", {"key": b64("/lock")})
            kvs = r.get("kvs", [])
            holder = "none" if not kvs else "%s (lease %x)" % (unb64(kvs[0].get("value", "")),
                                                             int(kvs[0].get("lease", 0)))
            print("lease %x %s; /lock: %s" % (int(lease), "expired/unknown" if ttl < 0 else "alive, TTL %d s" % ttl,
                                              holder))
        elif cmd == "survey":
            n = int(sys.argv[3])
            r = call(url, "/v3/kv/range", {"key": b64("/data/"), "range_end": b64("/data0")})
            got = {unb64(kv["key"]): unb64(kv.get("value", "")) for kv in r.get("kvs", [])}
            present = sum(1 for i in range(n) if "/data/k%d" % i in got)
            altered = sum(1 for i in range(n) if "/data/k%d" % i in got and got["/data/k%d" % i] != value(i))
            lk = call(url, "/v3/kv/range", {"key": b64("/lock")}).get("kvs", [])
            print("data %d/%d present, %d altered, %d keys under /data/; revision %s; /lock: %s" % (
                present, n, altered, len(got), r["header"].get("revision"),
                "none" if not lk else unb64(lk[0].get("value", ""))))
        elif cmd == "put":
            r = call(url, "/v3/kv/put", {"key": b64(sys.argv[3]), "value": b64(sys.argv[4])})
            print("put revision", r["header"]["revision"])
        elif cmd == "get":
            r = call(url, "/v3/kv/range", {"key": b64(sys.argv[3])})
            kvs = r.get("kvs", [])
            print("get %s: %s (revision %s)" % (sys.argv[3], "none" if not kvs else unb64(kvs[0].get("value", "")),
                                                r["header"].get("revision")))
        else:
            sys.exit(2)
    except Exception as e:  # one line, whatever it is
        print("error: %s" % (str(e).splitlines()[0] if str(e) else type(e).__name__))
        sys.exit(1)


main()
