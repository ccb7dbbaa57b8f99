"""Asks a headless Chromium, through its DevTools protocol, what the page shows: the map tests read
the page's state (dots drawn per colour, status updates) and take screenshots with it.
    devtools.py PORT eval EXPRESSION     prints the expression's value as JSON
    devtools.py PORT shot FILE.png       writes a screenshot of the page
    devtools.py PORT hover X,Y           moves the mouse to the page's point X,Y, as a user would
    devtools.py PORT click X,Y           clicks there with the left button, as a user would
"""
import base64, json, sys, time, urllib.request
import websocket

port, command, argument = sys.argv[1], sys.argv[2], sys.argv[3]
deadline = time.time() + 20
while True:
    try:
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json", timeout=2))
        pages = [t for t in targets if t.get("type") == "page" and "webSocketDebuggerUrl" in t]
        if pages:
            break
    except OSError:
        pass
    if time.time() > deadline:
        sys.exit("devtools: no page to talk to on port " + port)
    time.sleep(0.1)
ws = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], suppress_origin=True, timeout=20)


def call(method, params):
    ws.send(json.dumps({"id": 1, "method": method, "params": params}))
    while True:
        answer = json.loads(ws.recv())
        if answer.get("id") == 1:
            if "error" in answer:
                sys.exit("devtools: " + json.dumps(answer["error"]))
            return answer["result"]


if command == "eval":
    result = call("Runtime.evaluate", {"expression": argument, "returnByValue": True})
    print(json.dumps(result["result"].get("value")))
elif command == "shot":
    data = call("Page.captureScreenshot", {"format": "png"})["data"]
    open(argument, "wb").write(base64.b64decode(data))
elif command in ("hover", "click"):
    x, y = (float(v) for v in argument.split(","))
    for dx in (-2, 0):
        # Two moves, as a real pointer sends them: Leaflet sees the pointer arrive.
        call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x + dx, "y": y})
        time.sleep(0.05)
    if command == "click":
        for kind in ("mousePressed", "mouseReleased"):
            call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})
            time.sleep(0.05)
    print("null")
