#!/usr/bin/env python3
"""Writes codec-vectors.json: byte vectors for each position codec, encoded here from SPEC §9.3's
formulas (and §1's for MapTheThings), so the Swift decoders are checked against an encoder written
apart from them. The SPEC's own examples are listed as they are printed there."""
import json, math

def s24be(v): return (v & 0xFFFFFF).to_bytes(3, "big")
def s32be(v): return (v & 0xFFFFFFFF).to_bytes(4, "big")
def u16be(v): return (v & 0xFFFF).to_bytes(2, "big")
def s24le(v): return (v & 0xFFFFFF).to_bytes(3, "little")

def mapthethings(fmt, lat, lon):
    return bytes([fmt]) + s24le(int(lat * 93206)) + s24le(int(lon * 46603))

def lpp_gps(ch, lat, lon, alt):
    return bytes([ch, 0x88]) + s24be(round(lat * 1e4)) + s24be(round(lon * 1e4)) + s24be(round(alt * 100))

def lpp_precise(ch, lat, lon, alt):
    return bytes([ch, 0x89]) + s32be(round(lat * 1e6)) + s32be(round(lon * 1e6)) + s24be(round(alt * 100))

def ttnmapper(lat, lon, alt, hdop, sats=None):
    out = math.floor((lat + 90) / 180 * 16777215).to_bytes(3, "big")
    out += math.floor((lon + 180) / 360 * 16777215).to_bytes(3, "big")
    out += u16be(alt) + bytes([round(hdop * 10)])
    return out + (bytes([sats]) if sats is not None else b"")

def fieldtester(lat, lon, alt=None, hdop=None, sats=None):
    q_lat = round((abs(lat) * 1e7 - 53) / 108)
    q_lon = round((abs(lon) * 1e7 - 107) / 215)
    p = (1 << 47 if lon < 0 else 0) | (1 << 46 if lat < 0 else 0) | q_lat << 23 | q_lon
    out = p.to_bytes(6, "big")
    if alt is not None:
        out += (alt + 1000).to_bytes(2, "big") + bytes([round(hdop * 10), sats])
    return out, (1 if lat >= 0 else -1) * (q_lat * 108 + 53) / 1e7, (1 if lon >= 0 else -1) * (q_lon * 215 + 107) / 1e7

def bcd(digits): return bytes(int(digits[i]) << 4 | int(digits[i + 1]) for i in range(0, len(digits), 2))

def adeunis_gps(lat, lon, quality, sats):
    def dm(value, degree_digits, minute_decimals):
        degrees = int(abs(value)); minutes = (abs(value) - degrees) * 60
        whole = int(minutes); fraction = round((minutes - whole) * 10 ** minute_decimals)
        return f"{degrees:0{degree_digits}d}{whole:02d}{fraction:0{minute_decimals}d}", degrees + (whole + fraction / 10 ** minute_decimals) / 60
    lat_digits, lat_value = dm(lat, 2, 3)
    lon_digits, lon_value = dm(lon, 3, 2)
    out = bcd(lat_digits + ("1" if lat < 0 else "0")) + bcd(lon_digits + ("1" if lon < 0 else "0"))
    return out + bytes([quality << 4 | sats]), math.copysign(lat_value, lat), math.copysign(lon_value, lon)

def lgt92(lat, lon, alt_cm=None, hdop=None):
    out = s32be(round(lat * 1e6)) + s32be(round(lon * 1e6)) + u16be(0x0F3C) + bytes([0x60])
    if alt_cm is not None:
        out += u16be(0) + u16be(0) + bytes([round(hdop * 100)]) + u16be(alt_cm)
    return out

vectors = []
def add(codec, data, note, port=None, **expected):
    vectors.append({"codec": codec, "fPort": port, "hex": data.hex().upper(), "note": note, **expected})

# MapTheThings (§1): 7 bytes, 24-bit little-endian, latitude × 93206, longitude × 46603.
add("mapthethings", mapthethings(1, 52.0907, 5.1214), "Utrecht, format 01", latitude=int(52.0907 * 93206) / 93206, longitude=int(5.1214 * 46603) / 46603)
add("mapthethings", mapthethings(2, -33.8688, -70.6693), "Santiago, format 02 (south and west)", latitude=int(-33.8688 * 93206) / 93206, longitude=int(-70.6693 * 46603) / 46603)
add("mapthethings", bytes.fromhex("01E9D7394F63CB"), "SPEC §1's server vector, printed to 4 decimals", latitude=40.6714, longitude=-73.9863, tolerance=1e-4)
add("mapthethings", bytes([5]) + s24be(int(-22.9068 * 93206)) + s24be(int(-43.1729 * 46603)) + u16be(-4) + u16be(1350) + bytes([87]),
    "format 05: altitude below sea level, HDOP in thousandths", latitude=int(-22.9068 * 93206) / 93206, longitude=int(-43.1729 * 46603) / 46603, altitude=-4, hdop=1.35)
add("mapthethings", bytes([0x81, 1, 2]), "a test packet", unread="not_a_position")
add("mapthethings", mapthethings(1, 52.0907, 5.1214)[:5], "cut short", unread="malformed")

# Cayenne LPP (§9.3).
add("cayenne-lpp", bytes.fromhex("018806765FF2960A0003E8"), "SPEC example", latitude=42.3519, longitude=-87.9094, altitude=10.0)
add("cayenne-lpp", bytes.fromhex("0067011003680A") + lpp_gps(1, -33.8688, 151.2093, -12.5), "temperature and humidity first; below sea level", latitude=-33.8688, longitude=151.2093, altitude=-12.5)
add("cayenne-lpp", bytes.fromhex("0A74019A") + lpp_gps(10, 46.5197, 6.6323, 372) + lpp_precise(10, 46.519654, 6.632273, 372.25), "RAK10700: battery, both GPS records: the precise one", latitude=46.519654, longitude=6.632273, altitude=372.25)
add("cayenne-lpp", bytes.fromhex("0067011003680A"), "no GPS record: no fix", unread="no_fix")
add("cayenne-lpp", lpp_gps(1, 42.3519, -87.9094, 10)[:7], "GPS record cut short", unread="malformed")
add("cayenne-lpp", bytes.fromhex("01FF00"), "unknown type before any GPS", unread="malformed")

# TTN Mapper 9/10 bytes (§9.3).
add("ttnmapper-9", bytes.fromhex("CA79B18379EC00150C08"), "SPEC example, Amsterdam", latitude=52.3654939, longitude=4.8884979, altitude=21, hdop=1.2, satellites=8)
add("ttnmapper-9", bytes.fromhex("4FD4BEEB86CF003A090B"), "SPEC example, Sydney", latitude=-33.8688078, longitude=151.2092955, altitude=58, hdop=0.9, satellites=11)
add("ttnmapper-9", ttnmapper(31.5590, 35.4732, -430, 1.5), "Dead Sea shore, 9 bytes: below sea level, no satellites", latitude=math.floor((31.5590 + 90) / 180 * 16777215) / 16777215 * 180 - 90, longitude=math.floor((35.4732 + 180) / 360 * 16777215) / 16777215 * 360 - 180, altitude=-430, hdop=1.5)
add("ttnmapper-9", bytes.fromhex("CA79B18379EC00"), "7 bytes", unread="malformed")

# Field tester (§9.3).
add("fieldtester", bytes.fromhex("1ECDAF810663047E0C08"), "SPEC example, Toulouse", port=1, latitude=43.6046921, longitude=1.4441872, altitude=150, hdop=1.2, satellites=8)
add("fieldtester", bytes.fromhex("D02E939EA3E903F30907"), "SPEC example, Rio", port=1, latitude=-22.9067945, longitude=-43.1728922, altitude=11, hdop=0.9, satellites=7)
data, lat, lon = fieldtester(-45.8788, 170.5028, -3, 2.0, 6)
add("fieldtester", data, "Dunedin: south, east, below sea level", port=1, latitude=lat, longitude=lon, altitude=-3, hdop=2.0, satellites=6)
data, lat, lon = fieldtester(40.4168, -3.7038)
add("fieldtester", data, "discovery frame: the position alone", port=3, latitude=lat, longitude=lon)
add("fieldtester", bytes(10), "no fix", port=1, unread="no_fix")
add("fieldtester", bytes([0]), "a downlink flush", port=2, unread="not_a_position")
add("fieldtester", bytes.fromhex("1ECDAF810663047E"), "8 bytes on fPort 1", port=1, unread="malformed")

# Adeunis FTD (§9.3).
add("adeunis-ftd", bytes.fromhex("9F1452057260000059801 7FEFE105F1707".replace(" ", "")), "SPEC example", latitude=52.0954333, longitude=0.0996667, satellites=7)
gps, lat, lon = adeunis_gps(-34.6037, -58.3816, 2, 9)
add("adeunis-ftd", bytes([0x1E]) + gps + bytes([0x05, 0x02, 0x0E, 0x10]), "Buenos Aires: south and west, no temperature", latitude=lat, longitude=lon, satellites=9)
add("adeunis-ftd", bytes([0xA0, 0x14]), "status frame: no GPS", unread="no_fix")
add("adeunis-ftd", bytes([0x90, 0x14, 0x52, 0x05]), "GPS flag, field cut short", unread="malformed")
add("adeunis-ftd", bytes([0x10]) + bytes.fromhex("5A05726000005980") + bytes([0x17]), "not BCD", unread="malformed")

# Dragino LGT-92 (§9.3).
add("lgt92", bytes.fromhex("0157C460F93572774F3C640096FF1F783039"), "SPEC example, 18 bytes", port=2, latitude=22.52912, longitude=-113.937801, altitude=123.45, hdop=1.2)
add("lgt92", lgt92(-1.2921, 36.8219), "Nairobi, 11 bytes", port=2, latitude=-1.2921, longitude=36.8219)
add("lgt92", lgt92(51.9900, 4.6180, -676, 0.8), "Zuidplaspolder, 18 bytes: below sea level (s16 cm: ±327 m at most)", port=2, latitude=51.9900, longitude=4.6180, altitude=-6.76, hdop=0.8)
add("lgt92", bytes(8) + bytes.fromhex("0F3C60"), "no fix: zeros", port=2, unread="no_fix")
add("lgt92", bytes([0xFF] * 8) + bytes.fromhex("0F3C60"), "no fix: 0xFF", port=2, unread="no_fix")
add("lgt92", bytes.fromhex("0157C460F9357277"), "8 bytes", port=2, unread="malformed")
add("lgt92", lgt92(-1.2921, 36.8219), "a status port", port=5, unread="not_a_position")

with open("codec-vectors.json", "w") as out:
    json.dump(vectors, out, indent=1)
    out.write("\n")
print(len(vectors), "vectors")
