#!/usr/bin/env python3
"""Writes decoded-payloads.json: decoded payloads in the shapes device makers' decoders write
(SPEC §9.1), each with the position TTN Mapper's key set finds in it, or why there is none.
Made for mtt's tests: every key spelling, nested objects, Cayenne LPP as TTS and ChirpStack decode
it, numbers as strings, arrays, and the no-fix flags."""
import json

cases = []
def add(note, decoded, **expected):
    cases.append({"note": note, "decoded": decoded, **expected})

lat_keys = ["lat", "latitude", "Latitude", "latitudeDeg", "gps_lat"]
lon_keys = ["lon", "lng", "long", "longitude", "Longitude", "longitudeDeg", "gps_lng"]
alt_keys = ["alt", "altitude", "Altitude", "height", "gpsalt", "gps_alt"]
sat_keys = ["sats", "satellites", "numsat", "numsats"]
acc_keys = ["acc", "accuracy", "hacc"]
hdop_keys = ["hdop", "gps_hdop"]
for i, lat_key in enumerate(lat_keys):
    lon_key = lon_keys[i % len(lon_keys)]
    add(f"keys {lat_key}/{lon_key}", {lat_key: 52.1 + i / 100, lon_key: 5.1 + i / 100, "battery": 3.9},
        latitude=52.1 + i / 100, longitude=5.1 + i / 100)
for i, lon_key in enumerate(lon_keys):
    add(f"longitude key {lon_key}", {"latitude": -33.9, lon_key: 151.2 + i / 100}, latitude=-33.9, longitude=151.2 + i / 100)
for i, key in enumerate(alt_keys):
    add(f"altitude key {key}", {"lat": 46.5, "lon": 6.6, key: 372 + i}, latitude=46.5, longitude=6.6, altitude=372 + i)
for i, key in enumerate(sat_keys):
    add(f"satellites key {key}", {"lat": 46.5, "lon": 6.6, key: 5 + i}, latitude=46.5, longitude=6.6, satellites=5 + i)
for i, key in enumerate(acc_keys):
    add(f"accuracy key {key}", {"lat": 46.5, "lon": 6.6, key: 3 + i}, latitude=46.5, longitude=6.6, accuracy=3 + i)
for i, key in enumerate(hdop_keys):
    add(f"HDOP key {key}", {"lat": 46.5, "lon": 6.6, key: 0.9 + i}, latitude=46.5, longitude=6.6, hdop=0.9 + i)

add("nested location (Digital Matter style), figures at the root",
    {"location": {"latitude": 51.5074, "longitude": -0.1278}, "hdop": 1.1, "sats": 9, "batV": 4.1},
    latitude=51.5074, longitude=-0.1278, hdop=1.1, satellites=9)
add("nested gps", {"gps": {"lat": 48.8566, "lng": 2.3522, "alt": 35}}, latitude=48.8566, longitude=2.3522, altitude=35)
add("nested value (a Node-RED style wrapper)", {"value": {"Latitude": 40.4168, "Longitude": -3.7038}}, latitude=40.4168, longitude=-3.7038)
add("the nested object is searched before the root",
    {"latitude": 1.5, "longitude": 1.5, "gps": {"latitude": 59.3293, "longitude": 18.0686}}, latitude=59.3293, longitude=18.0686)
add("numbers sent as strings (a RAK decoder)", {"latitude": "-34.6037", "longitude": "-58.3816", "altitude": "25", "sats": "7"},
    latitude=-34.6037, longitude=-58.3816, altitude=25, satellites=7)
add("an array: the first element", [{"lat": 35.6762, "lon": 139.6503}, {"lat": 0, "lon": 0}], latitude=35.6762, longitude=139.6503)
add("altitude sent unsigned: -12 m as 65524", {"lat": 52.0, "lon": 4.6, "alt": 65524}, latitude=52.0, longitude=4.6, altitude=-12)
add("Cayenne LPP as The Things Stack decodes it (float32 artefacts)",
    {"gps_1": {"latitude": 42.35190200805664, "longitude": -87.90940093994141, "altitude": 10}, "temperature_0": 27.2},
    latitude=42.35190200805664, longitude=-87.90940093994141, altitude=10)
add("Cayenne LPP on channel 10 (RAK10700)", {"voltage_10": 4.1, "gps_10": {"latitude": 46.5197, "longitude": 6.6323, "altitude": 372}},
    latitude=46.5197, longitude=6.6323, altitude=372)
add("ChirpStack's own LPP codec", {"gpsLocation": {"3": {"latitude": -45.8788, "longitude": 170.5028, "altitude": -3}}},
    latitude=-45.8788, longitude=170.5028, altitude=-3)

add("fixFailed: a cached position (Digital Matter Oyster)", {"latitudeDeg": 51.5, "longitudeDeg": -0.12, "fixFailed": True}, unread="no_fix")
add("fixFailed false is a fix", {"latitudeDeg": 51.5, "longitudeDeg": -0.12, "fixFailed": False}, latitude=51.5, longitude=-0.12)
add("gnss_fix false (Browan Tabs)", {"latitude": 51.5, "longitude": -0.12, "gnss_fix": False}, unread="no_fix")
add("gnss_fix true", {"latitude": 51.5, "longitude": -0.12, "gnss_fix": True}, latitude=51.5, longitude=-0.12)
add("no position: a temperature sensor", {"temperature": 21.5, "humidity": 40}, unread="not_a_position")
add("an empty array", [], unread="not_a_position")
add("a bare number", 42, unread="not_a_position")
add("a latitude without a longitude", {"latitude": 51.5}, unread="malformed")
add("a latitude that is not a number", {"latitude": "north", "longitude": 5.1}, unread="malformed")

with open("decoded-payloads.json", "w") as out:
    json.dump(cases, out, indent=1)
    out.write("\n")
print(len(cases), "cases")
