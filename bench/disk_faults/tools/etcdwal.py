#!/usr/bin/env python3
"""etcdwal.py WALFILE: the records of an etcd 3.4 WAL segment, one a line:
OFFSET END DATAEND TYPE DETAIL (DATAEND: where the record's bytes end and its padding begins). Each record is framed by an 8-byte little-endian
length field (low 56 bits: the record's length; top bit set: the low 3 bits
of the top byte are padding), then walpb.Record (protobuf: 1 type, 2 crc,
3 data), padded to 8 bytes. A length field of 0 (the preallocated zeros)
ends the segment. TYPE: metadata, entry (DETAIL: term index [put KEY]),
state (HardState: term vote commit), crc, snapshot. Last line: "end OFFSET"."""
import re
import struct
import sys

NAMES = {1: "metadata", 2: "entry", 3: "state", 4: "crc", 5: "snapshot"}


def varint(b, i):
    shift = v = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        if c < 0x80:
            return v, i
        shift += 7


def fields(b):
    """protobuf fields of b: {number: value}, bytes for wire type 2."""
    out, i = {}, 0
    while i < len(b):
        key, i = varint(b, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % wt)
        out[num] = v
    return out


data = open(sys.argv[1], "rb").read()
off = 0
while off + 8 <= len(data):
    (lf,) = struct.unpack("<Q", data[off:off + 8])
    if lf == 0:
        break
    n = lf & ~(0xFF << 56)
    pad = (lf >> 56) & 0x7 if lf >> 63 else 0
    end = off + 8 + n + pad
    if end > len(data):
        break
    try:
        rec = fields(data[off + 8: off + 8 + n])
    except Exception:
        break
    t = rec.get(1, 0)
    detail = ""
    if t == 2:
        e = fields(rec.get(3, b""))
        detail = "term %d index %d" % (e.get(2, 0), e.get(3, 0))
        m = re.search(rb"/(lock|data/k\d+)", e.get(4, b""))
        if m:
            detail += " " + m.group(0).decode()
    elif t == 3:
        h = fields(rec.get(3, b""))
        detail = "term %d vote %d commit %d" % (h.get(1, 0), h.get(2, 0), h.get(3, 0))
    print(off, end, off + 8 + n, NAMES.get(t, t), detail)
    off = end
print("end", off)
