# Issue 47, item 18: which side fails when the fake node's adapter is switched off and on with its
# advertising instance left in place? Not run by the suite (it shows btvirt's state, not mtt's);
# run it by hand, with BlueZ's l2test in the image as the control that has no mtt code:
#   BLE_VM_PROGRAMS=l2test scripts/ble-vm build && scripts/ble-vm run Tests/KernelBluetooth/stale-link.sh
#
# What it showed (2026-11-27, Debian's 6.1 kernel, btvirt -L -l3): before the power cycle l2test
# connects from hci0 to the node at once. With hci1 switched off, btvirt's hci1 controller goes on
# advertising (the kernel's own LE Set Advertising Parameters at the power-off failed, -22, then
# timed out) and completes the central's reconnect, which hci1's host never sees. From then on hci0
# lists a link to the node that hci1 does not have; btvirt has no link supervision, so nothing ever
# ends it (`btmgmt disconnect` says "disconnected" and the link is still listed), and every new
# connection to that address, l2test's as much as mtt's, times out: after the power-on, after the
# disconnect, with a new fake-node advertising afresh, and after a second power cycle. A real radio
# switched off stops advertising, and a central's controller drops a silent link after its
# supervision timeout (4.2 s by Linux's default), so neither the fake node's re-advertising nor
# mtt's reconnect is the side that fails.
NODE=00:AA:01:01:00:01
now() { cut -d' ' -f1 /proc/uptime; }
wait_for() { i=0; while [ "$i" -lt $(($2 * 10)) ]; do grep -q "$3" "$1" 2>/dev/null && return 0; sleep 0.1; i=$((i + 1)); done; echo "waited $2 s for '$3' in $1"; return 1; }
state() {
    echo "--- $1 at $(now)"
    echo "hci0 con:"; : | btmgmt --index 0 con
    echo "hci1 con:"; : | btmgmt --index 1 con
    echo "hci1 info:"; : | btmgmt --index 1 info | grep -i "current settings"
    echo "hci1 advinfo:"; : | btmgmt --index 1 advinfo | grep -i "instances"
}
# A plain L2CAP ATT connection from hci0 by BlueZ's own tool: the control, no mtt code. l2test
# connects and stays (-n) until the timeout ends it: "Connected to" in its log is the verdict.
plain() {
    t0=$(now)
    timeout 12 l2test -n -i hci0 -J 4 -V le_public $NODE > /tmp/l2.log 2>&1
    rc=$?
    echo "l2test ($1): rc=$rc after $(awk "BEGIN { print $(now) - $t0 }") s: $(tr '\n' ' ' < /tmp/l2.log | cut -c1-300)"
}
mtt fake-node --listen ble:hci1 --airtime 1 > /tmp/node.log 2>&1 &
wait_for /tmp/node.log 20 advertising; cat /tmp/node.log
plain "before anything"
mtt collect --mode active --node ble:$NODE --gps fixed:40.7,-74.0 --every 3s --min-interval 3s --duration 70s --db /tmp/drive.db --json > /tmp/drive.log 2> /tmp/drive.err &
collect=$!
wait_for /tmp/drive.log 60 '"attempt":3,.*"type":"attempt"' && echo "power off at $(now) (advertising left in place)"
: | btmgmt --index 1 power off > /dev/null
state "hci1 off"
sleep 8
: | btmgmt --index 1 power on > /dev/null
echo "power on at $(now)"
sleep 2
state "hci1 on"
wait_for /tmp/node.log 10 "again" ; tail -3 /tmp/node.log
sleep 20
state "20 s after power-on"
kill $collect; wait $collect
grep -v '"type":"fix"' /tmp/drive.log | grep -E "node_lost|node_back|confirmed" | cut -c1-200
tail -5 /tmp/drive.err
sleep 3
state "collect stopped"
plain "after the power cycle, advertising left in place"
: | btmgmt --index 0 disconnect -t 1 $NODE
sleep 2
state "after hci0 disconnect"
plain "after hci0's stale link dropped"
# The node made again: its advertising removed and added afresh by a new fake-node.
kill %1 2>/dev/null; sleep 1
: | btmgmt --index 1 rm-adv 1 > /dev/null
mtt fake-node --listen ble:hci1 --airtime 1 > /tmp/node2.log 2>&1 &
wait_for /tmp/node2.log 20 advertising
plain "a new fake-node advertising afresh"
: | btmgmt --index 1 power off > /dev/null; sleep 1; : | btmgmt --index 1 power on > /dev/null; sleep 2
plain "after a second power cycle"
echo done
