"""Prints the colours a PNG screenshot holds, one #rrggbb per line with its pixel count (those of 20
pixels or more), with nothing but the standard library: the map tests check what a person sees.
    pngcolours.py FILE.png [LEFT,TOP,RIGHT,BOTTOM]
With a box, only its pixels count (the map alone, not the legend's swatches beside it)."""
import struct, sys, zlib
from collections import Counter

data = open(sys.argv[1], "rb").read()
box = [int(float(v)) for v in sys.argv[2].split(",")] if len(sys.argv) > 2 else None
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, chunks = 8, {"IDAT": b""}
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    kind = kind.decode()
    if kind == "IHDR":
        width, height, depth, colour = struct.unpack(">IIBB", body[:10])
    elif kind == "IDAT":
        chunks["IDAT"] += body
    pos += 12 + length
assert depth == 8 and colour in (2, 6), "only 8-bit RGB or RGBA"
channels = 3 if colour == 2 else 4
raw = zlib.decompress(chunks["IDAT"])
stride = width * channels
previous = bytearray(stride)
counts = Counter()
for y in range(height):
    kind = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - channels] if x >= channels else 0
        b = previous[x]
        c = previous[x - channels] if x >= channels else 0
        if kind == 1: line[x] = (line[x] + a) & 255
        elif kind == 2: line[x] = (line[x] + b) & 255
        elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    inside = box is None or box[1] <= y < box[3]
    for x in range(0, stride, channels):
        if not inside or (box is not None and not box[0] <= x // channels < box[2]):
            continue
        counts["#%02x%02x%02x" % (line[x], line[x + 1], line[x + 2])] += 1
    previous = line
for colour, n in counts.most_common():
    if n >= 20:
        print(colour, n)
