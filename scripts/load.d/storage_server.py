"""A Storage Integration on loopback for scripts/fetch-load: serves the messages of FILE (one per line)
as The Things Stack does, 1000 a page, paged by X-Continuation-Token; prints its port, then serves.
    storage_server.py FILE"""
import http.server, sys

lines = [l.rstrip("\n") for l in open(sys.argv[1])]
PAGE = 1000


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        query = dict(p.split("=", 1) for p in self.path.split("?", 1)[-1].split("&") if "=" in p)
        offset = int(query.get("continuation_token", "0"))
        page = lines[offset:offset + PAGE]
        body = "".join('{"result":%s}\n' % l for l in page).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if offset + PAGE < len(lines):
            self.send_header("X-Continuation-Token", str(offset + PAGE))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
