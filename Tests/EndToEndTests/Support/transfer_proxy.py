#!/usr/bin/env python3
"""A one-connection TCP relay that damages the sender-to-receiver stream, for the transfer tests.

Usage: transfer_proxy.py LISTEN_PORT TARGET_PORT (--flip-at N | --cut-at N)

Listens on 127.0.0.1:LISTEN_PORT, accepts one connection (the sender), connects to
127.0.0.1:TARGET_PORT (the receiver; retried for 10 s) and relays both ways. In the sender to
receiver direction:
  --flip-at N   XORs byte N (0-based) of the stream with 0x40 and relays the rest untouched;
  --cut-at N    relays the first N bytes, then closes both connections (a cut cable).
The receiver to sender direction is relayed as is. Prints "damaged at N" on stderr when it
did, and exits when both directions are done (or after 60 s).
"""
import socket
import sys
import threading
import time

listen_port, target_port, mode, at = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
assert mode in ("--flip-at", "--cut-at"), mode

server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", listen_port))
server.listen(1)
server.settimeout(60)
client, _ = server.accept()

deadline = time.monotonic() + 10
while True:
    try:
        upstream = socket.create_connection(("127.0.0.1", target_port), timeout=60)
        break
    except OSError:
        if time.monotonic() > deadline:
            raise
        time.sleep(0.05)


def close_both():
    for s in (client, upstream):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def sender_to_receiver():
    seen = 0
    damaged = False
    try:
        while True:
            data = client.recv(65536)
            if not data:
                break
            if not damaged and seen + len(data) > at:
                damaged = True
                offset = at - seen
                print(f"damaged at {at}", file=sys.stderr, flush=True)
                if mode == "--cut-at":
                    upstream.sendall(data[:offset])
                    close_both()
                    return
                data = data[:offset] + bytes([data[offset] ^ 0x40]) + data[offset + 1:]
            upstream.sendall(data)
            seen += len(data)
        upstream.shutdown(socket.SHUT_WR)
    except OSError:
        close_both()


def receiver_to_sender():
    try:
        while True:
            data = upstream.recv(65536)
            if not data:
                break
            client.sendall(data)
        client.shutdown(socket.SHUT_WR)
    except OSError:
        close_both()


threads = [threading.Thread(target=sender_to_receiver, daemon=True), threading.Thread(target=receiver_to_sender, daemon=True)]
for t in threads:
    t.start()
for t in threads:
    t.join(60)
