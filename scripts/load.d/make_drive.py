"""The track of a drive for the listener: an NMEA capture (RMC and GGA at 1 Hz) of a car driving
east from 52.09, 5.12 (where make_uplinks.py's gw-a stands) at 20 m/s, from 2026-11-20 08:00:00 UTC
for as long as N uplinks 3 s apart take from 10 s in, and 20 s more. With those uplinks
(make_uplinks.py N 2026-11-20T08:00:10.000000Z 3000000) every sample lands 60 m from the last, in
a zoom-19 cell of its own: the costliest case for the coverage kept as samples are stored.
    make_drive.py N NMEA_FILE"""
import math, sys
from datetime import datetime, timedelta, timezone

n, nmea_path = int(sys.argv[1]), sys.argv[2]
start = datetime(2026, 11, 20, 8, 0, 0, tzinfo=timezone.utc)


def sentence(body):
    check = 0
    for ch in body:
        check ^= ord(ch)
    return "$%s*%02X\r\n" % (body, check)


def degrees_minutes(value, width, hemispheres):
    a = abs(value)
    d = int(a)
    return "%0*d%07.4f" % (width, d, (a - d) * 60), hemispheres[0] if value >= 0 else hemispheres[1]


with open(nmea_path, "w") as f:
    for s in range(10 + 3 * n + 20):
        t = start + timedelta(seconds=s)
        lon = 5.12 + 20 * s / (111320 * math.cos(math.radians(52.09)))
        la, ns = degrees_minutes(52.09, 2, "NS")
        lo, ew = degrees_minutes(lon, 3, "EW")
        hms = t.strftime("%H%M%S") + ".00"
        f.write(sentence("GPRMC,%s,A,%s,%s,%s,%s,38.9,90.0,%s,,,A" % (hms, la, ns, lo, ew, t.strftime("%d%m%y"))))
        f.write(sentence("GPGGA,%s,%s,%s,%s,%s,1,08,0.9,12.0,M,46.9,M,," % (hms, la, ns, lo, ew)))
