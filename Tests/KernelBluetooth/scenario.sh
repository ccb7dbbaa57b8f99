# What BluetoothOnARealKernelTests runs inside scripts/ble-vm's kernel (busybox sh), in one boot:
# mtt's fake node on hci1 (public address) and hci2 (static random), mtt's client on hci0, all
# through the kernel's management channel and L2CAP sockets, as on a user's machine.
#
# Each step prints `@@step NAME`, what its commands printed, and `@@end NAME rc=N seconds=S`; the
# Swift test reads those and asserts. Run it by hand with: scripts/ble-vm run Tests/KernelBluetooth/scenario.sh

NODE=00:AA:01:01:00:01
RANDOM_NODE=C0:11:22:33:44:55
ABSENT=00:AA:01:09:09:09

now() { cut -d' ' -f1 /proc/uptime; }
# Each step starts once hci0's previous link is gone (the kernel drops it a second or two after
# the last socket closes): a second link from a btvirt controller while the first one stands got
# no ATT answers, where one link at a time always does.
no_links() {
    i=0
    while [ "$i" -lt 50 ] && : | btmgmt --index 0 con | grep -q type; do sleep 0.2; i=$((i + 1)); done
}
step() {
    name=$1; shift
    no_links
    echo "@@step $name"
    started=$(now)
    "$@" 2>&1
    rc=$?
    echo "@@end $name rc=$rc seconds=$(awk "BEGIN { print $(now) - $started }")"
}
# A command that finds the node by scanning (ble:auto), run again (three times at most) while it
# says it heard no advertisement: a VM on a loaded host's scans sometimes hear none for tens of
# seconds (beside two test suites, auto's 15 s scan right after a scan that found the node), which is
# the emulated radio's pace, not what the step tests. Its other failures, and a third miss, stand.
finding() {
    for attempt in 1 2 3; do
        "$@" > /tmp/finding.out 2>&1
        rc=$?
        if [ "$rc" = 0 ] || ! grep -q "no MapTheThings node advertised" /tmp/finding.out || [ "$attempt" = 3 ]; then
            cat /tmp/finding.out
            [ "$rc" != 0 ] && grep -q "no MapTheThings node advertised" /tmp/finding.out && adapters
            return $rc
        fi
        echo "(attempt $attempt heard no advertisement; again)"
    done
}
# What each controller is doing, when a scan heard nobody three times (it happens beside two test
# suites, rarely, and then every time): its settings, links and advertising instances, the fake
# nodes' own words, and what BlueZ's own scan hears from hci0.
adapters() {
    for i in 0 1 2; do
        echo "(hci$i: $(: | btmgmt --index $i info | grep -E 'current settings' | tr -s ' '))"
        echo "(hci$i links: $(: | btmgmt --index $i con | tr '\n' ' '))"
        echo "(hci$i advertising: $(: | btmgmt --index $i advinfo | tr '\n' ' '))"
    done
    echo "(hci1 node: $(tail -n 3 /tmp/node.log | tr '\n' ' '))"
    echo "(hci2 node: $(tail -n 3 /tmp/random.log 2>/dev/null | tr '\n' ' '))"
    echo "(btmgmt find on hci0: $( (sleep 8; echo quit) | btmgmt --index 0 find -l 2>&1 | grep -ciE 'dev_found|device found') reports)"
}
# How long mtt takes to start right now, for the step after it whose length a test bounds: under
# emulation on a busy host that varies by seconds, and the test subtracts it.
startup() {
    t0=$(now)
    mtt --version >/dev/null
    echo "@@startup seconds=$(awk "BEGIN { print $(now) - $t0 }")"
}
# Waits up to $2 seconds for $3 to appear in file $1.
wait_for() {
    i=0
    while [ "$i" -lt $(($2 * 10)) ]; do
        grep -q "$3" "$1" 2>/dev/null && return 0
        sleep 0.1; i=$((i + 1))
    done
    echo "waited $2 s for '$3' in $1"; return 1
}

fake_node() {
    mtt fake-node --listen ble:hci1 --not-joined --airtime 2 > /tmp/node.log 2>&1 &
    wait_for /tmp/node.log 15 advertising; cat /tmp/node.log
}
step fake-node fake_node

# The scan runs its whole timeout, longer than the kernel's 10.24 s LE discovery round, so mtt starts
# discovery again when the kernel ends it (and a loaded VM, whose 5 s scans sometimes heard no
# advertisement at all, has time to hear the node); afterwards the adapter must not be discovering
# any more (a Stop Discovery is then rejected, where after a scan left running it succeeds).
# Like `finding`, a scan that heard no MapTheThings node at all runs again (three times at most),
# and the last one's length is what the test bounds.
scan() {
    for attempt in 1 2 3; do
        t0=$(now)
        mtt scan --timeout 15s --json > /tmp/scan.out 2>&1
        rc=$?
        took=$(awk "BEGIN { print $(now) - $t0 }")
        if grep -q '"mapthethings":true' /tmp/scan.out || [ "$attempt" = 3 ]; then break; fi
        echo "(scan $attempt heard no MapTheThings node; again)"
    done
    cat /tmp/scan.out
    echo "scan exit $rc"
    echo "scan seconds=$took"
    : | btmgmt --index 0 stop-find -l
}
startup
step scan scan

step info-auto finding mtt node info --node ble:auto --json

provision() {
    echo 000102030405060708090A0B0C0D0E0F > /tmp/appkey; chmod 600 /tmp/appkey
    mtt node provision --node ble:$NODE --dev-eui 0004A30B001C0530 --join-eui 70B3D57ED0000001 --app-key-file /tmp/appkey &&
        mtt node sf 9 --node ble:$NODE && mtt node info --node ble:$NODE --json
}
step provision provision

# 60 s of active mode; after the fourth attempt has gone to the node (2 s airtime: its result still
# to come), the node's adapter is switched off for 5 s and on again. Its advertisement is removed
# first: switched off, btvirt's controller (never reset until it is switched on) goes on
# advertising and completing connections that its kernel never sees, which a real radio switched
# off does not; a central reconnecting then would get a link the kernel never drops. The fake
# node advertises again when its adapter comes back. (Issue 47 looked at the other case: with the
# advertisement left in place, hci0 keeps a link to hci1 that hci1's host never had, `btmgmt
# --index 0 disconnect` reports it gone, and every connection hci0 starts to hci1 afterwards
# times out although hci1 is powered, connectable and holds its advertising instance: the
# virtual controllers' state, not mtt's client or fake node: BlueZ's own l2test fails the same way,
# see stale-link.sh.)
drive() {
    mtt collect --mode active --node ble:$NODE --gps fixed:40.7,-74.0 --every 3s --min-interval 3s \
        --duration 60s --db /tmp/drive.db --json > /tmp/drive.log 2> /tmp/drive.err &
    collect=$!
    wait_for /tmp/drive.log 40 '"attempt":4,.*"type":"attempt"' && echo "power off at $(now)"
    : | btmgmt --index 1 rm-adv 1 > /dev/null
    : | btmgmt --index 1 power off > /dev/null
    sleep 5
    : | btmgmt --index 1 power on > /dev/null
    echo "power on at $(now)"
    wait $collect
    echo "collect exit $?"
    grep -v '"type":"fix"' /tmp/drive.log
    cat /tmp/drive.err
    mtt status --db /tmp/drive.db --json
}
step drive drive

# A node that offers a larger MTU, from a static random address.
mtu() {
    mtt fake-node --listen ble:hci2 --static-address $RANDOM_NODE --mtu 517 > /tmp/random.log 2>&1 &
    wait_for /tmp/random.log 15 advertising; cat /tmp/random.log
    MTT_LOG_LEVEL=debug mtt node info --node ble:$RANDOM_NODE --json
}
step mtu mtu

step auto-drive finding mtt collect --mode active --node ble:auto --gps fixed:40.7,-74.0 --every 2s --min-interval 2s --duration 8s --db /tmp/auto.db --json

startup
step absent mtt node info --node ble:$ABSENT

step disconnect mtt node disconnect --node ble:$NODE
