#!/usr/bin/env python3
"""The python-zeroconf side of DiscoveryInteropTests (PyPI `zeroconf`).

    zeroconf_peer.py browse   --interface ADDR --name INSTANCE [--seconds S]
        Browses _atelier._tcp.local. on the interface holding ADDR until INSTANCE is resolved,
        prints it as one JSON line ({"name","server","port","addresses","properties"}) and exits
        0; exits 1 with a message on stderr if it is not found within S seconds.

    zeroconf_peer.py register --interface ADDR --name INSTANCE --port P [--txt K=V ...] [--seconds S]
        Registers INSTANCE._atelier._tcp.local. (host zeroconf-peer.local. at ADDR), prints
        "registered" once it is announced, and stays until stdin closes or S seconds pass,
        then unregisters (goodbye) and exits 0.

zeroconf is pinned to the one interface address, so nothing leaves that interface.
"""
import argparse
import json
import socket
import sys
import threading
import time

from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceListener, Zeroconf

TYPE = "_atelier._tcp.local."


def browse(zc, args):
    found = threading.Event()
    wanted = f"{args.name}.{TYPE}"

    class Listener(ServiceListener):
        def add_service(self, zc, type_, name):
            if name.lower() == wanted.lower():
                found.set()

        def update_service(self, zc, type_, name):
            self.add_service(zc, type_, name)

        def remove_service(self, zc, type_, name):
            pass

    browser = ServiceBrowser(zc, TYPE, Listener())
    deadline = time.monotonic() + args.seconds
    try:
        while time.monotonic() < deadline:
            if found.wait(0.1):
                info = zc.get_service_info(TYPE, wanted, timeout=int(max(0.1, deadline - time.monotonic()) * 1000))
                if info is not None and info.port and info.parsed_addresses():
                    print(json.dumps({
                        "name": info.name,
                        "server": info.server,
                        "port": info.port,
                        "addresses": info.parsed_addresses(),
                        "properties": {k.decode(): (v.decode() if v is not None else None) for k, v in info.properties.items()},
                    }), flush=True)
                    return 0
                found.clear()
        print(f"zeroconf_peer: {wanted} not resolved within {args.seconds} s", file=sys.stderr)
        return 1
    finally:
        browser.cancel()


def register(zc, args):
    properties = dict(pair.split("=", 1) for pair in args.txt)
    info = ServiceInfo(TYPE, f"{args.name}.{TYPE}", addresses=[socket.inet_aton(args.interface)], port=args.port,
                       properties=properties, server="zeroconf-peer.local.")
    zc.register_service(info)
    print("registered", flush=True)
    done = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    done.wait(args.seconds)
    zc.unregister_service(info)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["browse", "register"])
    parser.add_argument("--interface", required=True, help="the IPv4 address of the interface to use")
    parser.add_argument("--name", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--txt", action="append", default=[])
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    zc = Zeroconf(interfaces=[args.interface], ip_version=IPVersion.V4Only)
    try:
        return browse(zc, args) if args.command == "browse" else register(zc, args)
    finally:
        zc.close()


if __name__ == "__main__":
    sys.exit(main())
