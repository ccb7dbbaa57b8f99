#ifndef MTT_CBLUEZ_SHIM_H
#define MTT_CBLUEZ_SHIM_H

#if __has_include(<bluetooth/bluetooth.h>)
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
#include <bluetooth/l2cap.h>
#else
#error "mtt needs the BlueZ headers: install libbluetooth-dev (sudo apt-get install libbluetooth-dev)"
#endif

#endif
