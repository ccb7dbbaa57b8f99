"""A walk around Utrecht as a MapTheThings data set, one sample every second, RSSI over every band:
python3 walk.py COUNT > walk.json (for `mtt import`)."""
import json, sys

n = int(sys.argv[1])
print("[")
for i in range(n):
    lat, lon = 52.0 + (i % 500) * 0.0004, 5.0 + (i // 500) * 0.0006
    t = "2026-06-21T%02d:%02d:%02d.5Z" % (i // 3600 % 24, i // 60 % 60, i % 60)
    entry = {"data": "AAAAAA==", "dataRate": "SF7BW125", "frequency": 868.1, "gatewayEui": "B827EBFFFE000001",
             "gps": "%.6fN,%.6fE" % (lat, lon), "nodeEui": "0004A30B%08X" % (i // 86400), "payload_seq": i % 86400,
             "rssi": -90 - (i % 40), "snr": 9.5 - (i % 25), "time": t}
    print(json.dumps(entry) + ("," if i < n - 1 else ""))
print("]")
