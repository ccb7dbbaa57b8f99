#!/usr/bin/env python3
"""The field tester's reply (SPEC §10.2), worked out here apart from mtt's code: replies.json.

Each case is an uplink of a tester at a place, heard by gateways at set distances and RSSIs (some
saying where they are, some not), and the six bytes the tester must get back:
  0 the frame counter mod 256; 1 the lowest RSSI + 200; 2 the highest + 200;
  3 and 4 the nearest and farthest gateway that says where it is, round(d / 250 m) kept in 1…128,
    both 0 when the tester sent no valid position or no gateway says where it is;
  5 how many gateways heard it.
Distances are great-circle on a sphere of 6,371,000 m. Run: python3 make_replies.py > replies.json
"""
import json
import math

R = 6_371_000.0
HOME = (52.0907, 5.1214)


def destination(lat, lon, metres, bearing):
    d, t = metres / R, math.radians(bearing)
    p1, l1 = math.radians(lat), math.radians(lon)
    p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(t))
    l2 = l1 + math.atan2(math.sin(t) * math.sin(d) * math.cos(p1), math.cos(d) - math.sin(p1) * math.sin(p2))
    return math.degrees(p2), math.degrees(l2)


def distance(a, b):
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dp, dl = p2 - p1, math.radians(b[1] - a[1])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * R * math.asin(min(1, math.sqrt(h)))


def steps(metres):
    return min(128, max(1, math.floor(metres / 250 + 0.5)))


def case(name, f_cnt, gateways, position=HOME):
    """gateways: (metres or None for no position, rssi) each."""
    receptions = []
    for index, (metres, rssi) in enumerate(gateways):
        g = {"id": f"gw-{index}", "rssi": rssi}
        if metres is not None:
            g["lat"], g["lon"] = destination(HOME[0], HOME[1], metres, (index * 47) % 360)
        receptions.append(g)
    rssis = [g["rssi"] for g in receptions]
    placed = [distance(position, (g["lat"], g["lon"])) for g in receptions if "lat" in g] if position else []
    reply = [
        f_cnt % 256,
        min(255, max(0, round(min(rssis) + 200))) if rssis else 0,
        min(255, max(0, round(max(rssis) + 200))) if rssis else 0,
        steps(min(placed)) if placed else 0,
        steps(max(placed)) if placed else 0,
        min(255, len(receptions)),
    ]
    return {"name": name, "f_cnt": f_cnt, "position": list(position) if position else None, "gateways": receptions,
            "reply": "".join(f"{b:02X}" for b in reply)}


cases = [
    case("SPEC §10.2's example", 300, [(1_234, -118), (45_000, -73), (8_000, -101)]),
    case("no gateway at all", 7, []),
    case("one gateway, 100 m off: under a step is one step", 1, [(100, -80)]),
    case("one gateway without a position", 2, [(None, -95)]),
    case("three, one without a position", 3, [(600, -110), (None, -120), (2_600, -90)]),
    case("twelve, from 200 m to 40 km", 255, [(200 + i * 3_500, -60 - i * 6) for i in range(12)]),
    case("RSSI at the edges, -200 and 0 dBm", 256, [(5_000, -200), (6_000, 0)]),
    case("over 32 km is 128 steps", 1000, [(32_100, -119), (90_000, -121)]),
    case("no valid position from the tester: distances 0", 9, [(1_000, -100), (3_000, -105)], position=None),
    case("a kilometre and a half, 6 steps", 65535, [(1_500, -99)]),
]
print(json.dumps(cases, indent=1))
