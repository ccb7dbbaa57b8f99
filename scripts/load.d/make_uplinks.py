"""Writes N TTN v3 uplink messages, one per line, for mosquitto_pub -l (device load-1, f_cnt 0..N-1):
10 ms apart, ending a minute ago; or from START (RFC 3339, UTC) STEP microseconds apart. With
FORMAT=chirpstack in the environment, ChirpStack v4 uplink events with the same content. With
TRACKERS=K, a fleet of K trackers (tracker-0 … tracker-K-1, in turn) whose uplinks carry their own
position in decoded_payload, each some 11 m on from its last (TTS only).
    make_uplinks.py N [START STEP]"""
import json, os, sys
from datetime import datetime, timedelta, timezone

n = int(sys.argv[1])
if len(sys.argv) > 3:
    start = datetime.strptime(sys.argv[2].rstrip("Z")[:26], "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=timezone.utc)
    step = timedelta(microseconds=int(sys.argv[3]))
else:
    start = datetime.now(timezone.utc) - timedelta(seconds=n // 100 + 60)
    step = timedelta(milliseconds=10)
chirpstack = os.environ.get("FORMAT") == "chirpstack"
trackers = int(os.environ.get("TRACKERS") or 0)
# TRACKERS_PARKED=1: every tracker at one place (the fixed listener's), to weigh the reading alone.
parked = os.environ.get("TRACKERS_PARKED") == "1"
for i in range(n):
    t = (start + step * i).strftime("%Y-%m-%dT%H:%M:%S.%f") + "123Z"
    if chirpstack:
        print(json.dumps({
            "deduplicationId": "3ac7e3c4-4401-4b8d-9386-%012d" % i, "time": t,
            "deviceInfo": {"tenantId": "52f14cd4-c6f1-4fbd-8f87-4025e1d49242", "applicationId": "17c82e96-be03-4f38-aef3-f83d48582d97",
                           "applicationName": "load", "deviceName": "load-1", "devEui": "0004a30b001c0530"},
            "devAddr": "260b1234", "dr": 5, "fCnt": i, "fPort": 1, "data": "AtY3DlYcBw==",
            "rxInfo": [
                {"gatewayId": "b827ebfffe000001", "uplinkId": 1000 + i, "gwTime": t, "nsTime": t, "rssi": -97, "snr": 7.25,
                 "channel": 3, "location": {"latitude": 52.09, "longitude": 5.12, "altitude": 12}, "crcStatus": "CRC_OK"},
                {"gatewayId": "b827ebfffe000002", "uplinkId": 2000 + i, "gwTime": t, "nsTime": t, "rssi": -118, "snr": -9.5, "crcStatus": "CRC_OK"}],
            "txInfo": {"frequency": 868100000, "modulation": {"lora": {"bandwidth": 125000, "spreadingFactor": 7, "codeRate": "CR_4_5"}}}},
            separators=(",", ":")))
        continue
    if trackers:
        device, counter = i % trackers, i // trackers
        ids = {"device_id": "tracker-%d" % device, "application_ids": {"application_id": "load"},
               "dev_eui": "70B3D57ED0%06X" % device, "dev_addr": "260B%04X" % device}
        frame = {"f_port": 1, "f_cnt": counter, "frm_payload": "AQ==",
                 "decoded_payload": {"latitude": 52.09 if parked else round(52.0 + (device % 40) * 0.01 + counter * 0.0001, 6),
                                     "longitude": 5.12 if parked else round(5.0 + (device // 40) * 0.01, 6),
                                     "altitude": 12, "sats": 7, "hdop": 1.1}}
    else:
        ids = {"device_id": "load-1", "application_ids": {"application_id": "load"},
               "dev_eui": "0004A30B001C0530", "dev_addr": "260B1234"}
        frame = {"f_port": 1, "f_cnt": i, "frm_payload": "AtY3DlYcBw=="}
    print(json.dumps({
        "end_device_ids": ids,
        "received_at": t,
        "uplink_message": {
            **frame,
            "rx_metadata": [
                {"gateway_ids": {"gateway_id": "gw-a", "eui": "B827EBFFFE000001"}, "time": t, "timestamp": 1000 + i,
                 "rssi": -97, "channel_rssi": -97, "snr": 7.25, "channel_index": 3,
                 "location": {"latitude": 52.09, "longitude": 5.12, "altitude": 12}},
                {"gateway_ids": {"gateway_id": "gw-b", "eui": "B827EBFFFE000002"}, "time": t, "rssi": -118, "snr": -9.5}],
            "settings": {"data_rate": {"lora": {"bandwidth": 125000, "spreading_factor": 7, "coding_rate": "4/5"}},
                         "frequency": "868100000"},
            "received_at": t, "consumed_airtime": "0.061696s",
            "network_ids": {"net_id": "000013", "tenant_id": "ttn"}}}, separators=(",", ":")))
