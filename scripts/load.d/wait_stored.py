"""Waits until another connection sees N rows of TABLE (uplinks unless named) committed in mtt's
database, then exits; exits 1 after TIMEOUT seconds (600 unless given).

    wait_stored.py DB N [TIMEOUT] [TABLE]

One process with one connection, asking the cheap question (the largest row id) every 5 ms and
counting the rows once that reaches N: the measurement must not take the CPU it is measuring."""
import sqlite3, sys, time

path, n = sys.argv[1], int(sys.argv[2])
deadline = time.monotonic() + (float(sys.argv[3]) if len(sys.argv) > 3 else 600)
table = sys.argv[4] if len(sys.argv) > 4 else "uplinks"
db = sqlite3.connect(path)
while time.monotonic() < deadline:
    try:
        if (db.execute("SELECT max(rowid) FROM " + table).fetchone()[0] or 0) >= n \
                and db.execute("SELECT count(*) FROM " + table).fetchone()[0] >= n:
            sys.exit(0)
    except sqlite3.OperationalError:
        pass  # not created yet
    time.sleep(0.005)
sys.exit(1)
