"""Viewers of a community map, from a process of their own: VIEWERS threads, each looking at one
random view after another for SECONDS, as the page or QGIS asks for it, and the latency of every
answer. python3 viewers.py PORT KIND ZOOM VIEWERS SECONDS  (KIND: cells or tiles; ZOOM: the map's)
prints: requests p50_ms p95_ms p99_ms errors

A view is 1280 x 800 pixels at the map's zoom, around one of the country's cities (zoom 6: the
whole country), where people look. cells: the page's one /api/cells request for the view (cells of
zoom + 5, at most 19). tiles: each vector tile of the view, as QGIS asks for them."""
import http.client, math, os, random, sys, threading, time

port, kind, zoom, viewers, seconds = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
# More of the query (SILENT_DAYS=N: the gateways silent for N days hidden, where the page hides 5).
extra = "&silent_days=%s" % os.environ["SILENT_DAYS"] if os.environ.get("SILENT_DAYS") else ""
cities = [(52.370, 4.895), (51.922, 4.479), (52.078, 4.300), (52.091, 5.121), (51.441, 5.470), (53.219, 6.567), (51.556, 5.091),
          (52.371, 5.222), (51.589, 4.776), (51.842, 5.853), (52.222, 6.894), (52.517, 6.083), (50.851, 5.691), (53.201, 5.800), (51.985, 5.899)]


def pixel(lat, lon, z):
    n = 256 * 2 ** z
    y = (1 - math.log(math.tan(math.radians(lat)) + 1 / math.cos(math.radians(lat))) / math.pi) / 2 * n
    return (lon + 180) / 360 * n, y


def lonlat(px, py, z):
    n = 256 * 2 ** z
    return px / n * 360 - 180, math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * py / n))))


def requests_for_a_view(rng):
    lat, lon = (52.2, 5.3) if zoom <= 6 else rng.choice(cities)
    if zoom > 6:
        lat, lon = lat + rng.uniform(-0.05, 0.05), lon + rng.uniform(-0.08, 0.08)
    cx, cy = pixel(lat, lon, zoom)
    left, top, right, bottom = cx - 640, cy - 400, cx + 640, cy + 400
    if kind == "cells":
        w, n = lonlat(left, top, zoom)
        e, s = lonlat(right, bottom, zoom)
        return ["/api/cells?z=%d&bbox=%.6f,%.6f,%.6f,%.6f%s" % (min(19, zoom + 5), w, s, e, n, extra)]
    return ["/tiles/cells/%d/%d/%d.mvt%s" % (zoom, x, y, extra.replace("&", "?", 1))
            for x in range(int(left // 256), int(right // 256) + 1) for y in range(int(top // 256), int(bottom // 256) + 1)]


latencies, errors, lock = [], [0], threading.Lock()


def viewer(index):
    rng = random.Random(index)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for path in requests_for_a_view(rng):
            started = time.monotonic()
            try:
                connection.request("GET", path)
                answer = connection.getresponse()
                answer.read()
                ok = answer.status == 200
            except Exception:
                ok = False
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            took = (time.monotonic() - started) * 1000
            with lock:
                if ok:
                    latencies.append(took)
                else:
                    errors[0] += 1


threads = [threading.Thread(target=viewer, args=(i,)) for i in range(viewers)]
for t in threads:
    t.start()
for t in threads:
    t.join()
latencies.sort()


def percentile(p):
    return latencies[min(len(latencies) - 1, int(len(latencies) * p / 100))] if latencies else float("nan")


print("%d %.1f %.1f %.1f %d" % (len(latencies), percentile(50), percentile(95), percentile(99), errors[0]))
