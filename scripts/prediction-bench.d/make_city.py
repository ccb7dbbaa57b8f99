"""Writes N The Things Stack uplinks, one per line (mosquitto_pub -l), of 200 trackers walking a
10 km x 10 km square round Utrecht, heard by up to G gateways (default 50) on a jittered grid over it.
Each tracker says where it is (decoded_payload), so `--gps payload` places every uplink. A gateway
hears a frame when its signal, a log-distance line with shadowing tied to the place (a smooth field,
6 dB) plus 3 dB of each frame's own, is above the floor of its SF (SF7-SF10 drawn at random; LoRa's
sensitivity, -123 dBm at SF7 to -132 at SF10, lowered by FLOOR_OFFSET dB from the environment: real
gateways report signals a few dB under it); a frame nobody hears is not written (its tracker's counter skips it, and mtt
estimates where it was lost). Deterministic (seeded).
    make_city.py N [G]"""
import json, math, os, random, sys
from datetime import datetime, timedelta, timezone

n = int(sys.argv[1])
g = int(sys.argv[2]) if len(sys.argv) > 2 else 50
rng = random.Random(45)
lat0, lon0 = 52.045, 5.047  # south-west corner
metres_lat, metres_lon = 111_320.0, 111_320.0 * math.cos(math.radians(52.09))
side = 10_000.0
per_row = math.ceil(math.sqrt(g))
gateways = []
for k in range(g):
    x = (k % per_row + 0.5) * side / per_row + rng.uniform(-300, 300)
    y = (k // per_row + 0.5) * side / per_row + rng.uniform(-300, 300)
    gateways.append(("city-gw-%02d" % k, "B827EBFFFE%06X" % k, x, y, rng.uniform(-8, 4)))
# Shadowing tied to the place: a sum of a few plane waves, about 6 dB, the same wherever asked.
waves = [(rng.uniform(0, 2 * math.pi), rng.uniform(150, 900), rng.uniform(0, 2 * math.pi)) for _ in range(12)]
def shadow(x, y):
    return sum(math.sin((x * math.cos(a) + y * math.sin(a)) / L + p) for a, L, p in waves) * 6 / math.sqrt(len(waves) / 2)
trackers = 200
where = [(rng.uniform(0, side), rng.uniform(0, side)) for _ in range(trackers)]
counter = [0] * trackers
start = datetime(2026, 11, 1, 8, 0, tzinfo=timezone.utc)
written = 0
i = 0
while written < n:
    device = i % trackers
    x, y = where[device]
    x = min(side, max(0, x + rng.gauss(0, 40)))
    y = min(side, max(0, y + rng.gauss(0, 40)))
    where[device] = (x, y)
    fcnt = counter[device]
    counter[device] += 1
    t = (start + timedelta(milliseconds=50 * i)).strftime("%Y-%m-%dT%H:%M:%S.%f") + "000Z"
    i += 1
    sf = rng.choice([7, 8, 9, 10])
    floor = {7: -123, 8: -126, 9: -129, 10: -132}[sf] - float(os.environ.get("FLOOR_OFFSET") or 0)
    rx = []
    field = shadow(x, y)
    for gid, eui, gx, gy, offset in gateways:
        d = max(30.0, math.hypot(x - gx, y - gy))
        signal = -40 - 32 * math.log10(d) + offset + field + rng.gauss(0, 3)
        if signal < floor:
            continue
        snr = max(-20.0, min(10.0, signal + 120))
        rssi = signal - min(snr, 0)
        rx.append({"gateway_ids": {"gateway_id": gid, "eui": eui}, "time": t, "rssi": round(rssi, 1), "channel_rssi": round(rssi, 1),
                   "snr": round(snr, 2), "location": {"latitude": round(lat0 + gy / metres_lat, 6), "longitude": round(lon0 + gx / metres_lon, 6), "altitude": 20}})
    if not rx:
        continue
    written += 1
    print(json.dumps({
        "end_device_ids": {"device_id": "city-%03d" % device, "application_ids": {"application_id": "city"},
                           "dev_eui": "70B3D57ED1%06X" % device, "dev_addr": "260C%04X" % device},
        "received_at": t,
        "uplink_message": {
            "f_port": 1, "f_cnt": fcnt, "frm_payload": "AQ==",
            "decoded_payload": {"latitude": round(lat0 + y / metres_lat, 6), "longitude": round(lon0 + x / metres_lon, 6), "altitude": 5, "sats": 8, "hdop": 1.0},
            "rx_metadata": rx,
            "settings": {"data_rate": {"lora": {"bandwidth": 125000, "spreading_factor": sf, "coding_rate": "4/5"}}, "frequency": "868100000"},
            "received_at": t, "network_ids": {"net_id": "000013", "tenant_id": "ttn"}}}, separators=(",", ":")))
