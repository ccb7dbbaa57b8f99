"""An HTTP server on 127.0.0.1:PORT that reads every POST and answers 201 {} (keep-alive, one
thread a connection): a MapTheThings server that accepts everything, for scripts/sync-profile.
    accepting_server.py PORT"""
import http.server
import socketserver
import sys


class Accepting(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = b"{}"
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


Server(("127.0.0.1", int(sys.argv[1])), Accepting).serve_forever()
