"""The reference: paho-mqtt + json + sqlite3 (WAL), committing every 100 messages.
Prints 'ready' once subscribed and exits after storing N uplinks."""
import json, sqlite3, sys
import paho.mqtt.client as mqtt

port, n, db_path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
db = sqlite3.connect(db_path)
db.execute("PRAGMA journal_mode=WAL")
db.execute("CREATE TABLE IF NOT EXISTS uplinks (device_id TEXT, f_cnt INTEGER, received_at TEXT, payload TEXT, gateways TEXT)")
stored = 0

def on_connect(client, userdata, flags, rc, properties=None):
    client.subscribe("v3/+/devices/+/up", qos=0)

def on_subscribe(client, userdata, mid, granted, properties=None):
    print("ready", flush=True)

def on_message(client, userdata, msg):
    global stored
    m = json.loads(msg.payload)
    up = m["uplink_message"]
    db.execute("INSERT INTO uplinks VALUES (?, ?, ?, ?, ?)",
               (m["end_device_ids"]["device_id"], up.get("f_cnt", 0), up.get("received_at"), up.get("frm_payload"),
                json.dumps(up.get("rx_metadata", []))))
    stored += 1
    if stored % 100 == 0 or stored == n:
        db.commit()
    if stored == n:
        client.disconnect()

try:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
except AttributeError:
    client = mqtt.Client()
client.on_connect, client.on_subscribe, client.on_message = on_connect, on_subscribe, on_message
client.connect("127.0.0.1", port)
client.loop_forever()
