#!/usr/bin/env python3
"""zklog.py LOGFILE: the records of a ZooKeeper 3.8 transaction log, one a line:
OFFSET END LENGTH ZXID(hex) TYPE. The file is a 16-byte header ("ZKLG", version,
dbid), then records: crc (8 bytes, Adler32), length (4), the txn (length bytes:
header clientId 8, cxid 4, zxid 8, time 8, type 4, then the body), and an
end-of-record byte 0x42 ('B'). A length of 0 (the preallocated zeros) ends it.
Last line: "end OFFSET" (where the valid records end)."""
import struct
import sys

TYPES = {-10: "createSession", -11: "closeSession", 1: "create", 2: "delete", 5: "setData",
         14: "multi", 15: "create2", 19: "createContainer", 21: "createTTL", -1: "error"}

with open(sys.argv[1], "rb") as f:
    data = f.read()
assert data[:4] == b"ZKLG", "not a ZooKeeper log"
off = 16
while off + 12 <= len(data):
    crc, length = struct.unpack(">qi", data[off:off + 12])
    if length <= 0 or off + 12 + length + 1 > len(data):
        break
    txn = data[off + 12: off + 12 + length]
    client, cxid, zxid, time, typ = struct.unpack(">qiqqi", txn[:32])
    end = off + 12 + length + 1
    print(off, end, length, hex(zxid), TYPES.get(typ, typ))
    off = end
print("end", off)
