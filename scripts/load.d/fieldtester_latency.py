#!/usr/bin/env python3
"""Field-test latency: N testers' port-1 test uplinks published on a broker as The Things Stack does,
one every INTERVAL seconds, and the time until each one's reply downlink appears on the broker.
Prints p50, p99 and the worst in milliseconds. Used by scripts/fieldtester-latency.
  fieldtester_latency.py PORT N INTERVAL
"""
import base64
import datetime
import json
import sys
import threading
import time

import paho.mqtt.client as mqtt

port, count, interval = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
frame = base64.b64encode(bytes.fromhex("1ECDAF810663047E0C08")).decode()
sent, answered = {}, {}
done = threading.Event()


def uplink(i):
    now = datetime.datetime.now(datetime.timezone.utc).isoformat().replace("+00:00", "Z")
    return json.dumps({
        "end_device_ids": {"device_id": f"tester-{i}", "dev_eui": f"2CF7F1C04400{i:04X}"},
        "received_at": now,
        "uplink_message": {
            "f_port": 1, "f_cnt": i, "frm_payload": frame,
            "rx_metadata": [{"gateway_ids": {"gateway_id": "gw-1"}, "rssi": -101, "snr": 3.5, "time": now,
                             "location": {"latitude": 43.61, "longitude": 1.45}}],
            "settings": {"data_rate": {"lora": {"bandwidth": 125000, "spreading_factor": 9}}, "frequency": "868100000"},
        },
    })


def on_message(client, userdata, message):
    device = message.topic.split("/")[3]
    if device in sent and device not in answered:
        answered[device] = time.monotonic() - sent[device]
        if len(answered) == count:
            done.set()


client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2) if hasattr(mqtt, "CallbackAPIVersion") else mqtt.Client()
client.on_message = on_message
client.connect("127.0.0.1", port)
client.subscribe("v3/+/devices/+/down/#")
client.loop_start()
time.sleep(0.5)
for i in range(count):
    device = f"tester-{i}"
    sent[device] = time.monotonic()
    client.publish(f"v3/testers@ttn/devices/{device}/up", uplink(i))
    time.sleep(interval)
done.wait(30)
client.loop_stop()
times = sorted(v * 1000 for v in answered.values())
if not times:
    sys.exit("no reply came")
pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]
print(f"{len(times)} of {count} tests answered; reply after p50 {pick(0.5):.1f} ms, p99 {pick(0.99):.1f} ms, worst {times[-1]:.1f} ms")
