"""Writes N TTN v3 uplink messages, one per line, for mosquitto_pub -l (device load-1, f_cnt 0..N-1):
10 ms apart, ending a minute ago; or from START (RFC 3339, UTC) STEP microseconds apart.
    make_uplinks.py N [START STEP]"""
import json, sys
from datetime import datetime, timedelta, timezone

n = int(sys.argv[1])
if len(sys.argv) > 3:
    start = datetime.strptime(sys.argv[2].rstrip("Z")[:26], "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=timezone.utc)
    step = timedelta(microseconds=int(sys.argv[3]))
else:
    start = datetime.now(timezone.utc) - timedelta(seconds=n // 100 + 60)
    step = timedelta(milliseconds=10)
for i in range(n):
    t = (start + step * i).strftime("%Y-%m-%dT%H:%M:%S.%f") + "123Z"
    print(json.dumps({
        "end_device_ids": {"device_id": "load-1", "application_ids": {"application_id": "load"},
                           "dev_eui": "0004A30B001C0530", "dev_addr": "260B1234"},
        "received_at": t,
        "uplink_message": {
            "f_port": 1, "f_cnt": i, "frm_payload": "AtY3DlYcBw==",
            "rx_metadata": [
                {"gateway_ids": {"gateway_id": "gw-a", "eui": "B827EBFFFE000001"}, "time": t, "timestamp": 1000 + i,
                 "rssi": -97, "channel_rssi": -97, "snr": 7.25, "channel_index": 3,
                 "location": {"latitude": 52.09, "longitude": 5.12, "altitude": 12}},
                {"gateway_ids": {"gateway_id": "gw-b", "eui": "B827EBFFFE000002"}, "time": t, "rssi": -118, "snr": -9.5}],
            "settings": {"data_rate": {"lora": {"bandwidth": 125000, "spreading_factor": 7, "coding_rate": "4/5"}},
                         "frequency": "868100000"},
            "received_at": t, "consumed_airtime": "0.061696s",
            "network_ids": {"net_id": "000013", "tenant_id": "ttn"}}}, separators=(",", ":")))
