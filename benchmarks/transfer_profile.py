#!/usr/bin/env python3
"""Where atl-send / atl-recv spend their CPU: groups `perf script` samples by their call stack.

Profile the 1 GiB case of benchmarks/transfer.sh (data made by it), one side per perf.data:

    B=.build/release; F=benchmarks/data/transfer-1024MiB.bin; cat $F > /dev/null
    perf record -F 499 --call-graph dwarf,16384 -o recv.data \
        $B/atl-recv --listen 127.0.0.1:9790 --code 7-crane-orbit --into /tmp/dst --progress none &
    perf record -F 499 --call-graph dwarf,16384 -o send.data \
        $B/atl-send --to 127.0.0.1:9790 --code 7-crane-orbit --progress none $F; wait
    perf script -i send.data | python3 benchmarks/transfer_profile.py
    perf script -i recv.data | python3 benchmarks/transfer_profile.py

Each sample goes to the first category whose rule matches its stack (leaf first, frames joined
by '|'); the rest is "other", whose commonest leaves are listed.
"""
import collections
import re
import sys

RULES = [
    # (the pre-pass is gone since message version 2; the rules stay for profiles of older builds)
    ("SHA-256 pre-pass: read() of the file", lambda s, leaf: "LocalBatch" in s and "digest" in s and "sys_read" in s),
    ("SHA-256 pre-pass: hashing", lambda s, leaf: "LocalBatch" in s and "digest" in s),
    ("page faults on fresh buffers (kernel)", lambda s, leaf: "exc_page_fault" in s),
    ("mmap/munmap/brk (kernel)", lambda s, leaf: any(x in s for x in ("sys_munmap", "sys_mmap", "sys_brk", "do_vmi_munmap"))),
    ("fsync (kernel)", lambda s, leaf: "fsync" in s),
    ("socket send (kernel copy + TCP)", lambda s, leaf: "sendto" in s or "tcp_sendmsg" in s),
    ("socket recv (kernel copy + TCP)", lambda s, leaf: "recvfrom" in s or "tcp_recvmsg" in s),
    ("file pread (kernel copy)", lambda s, leaf: "pread64" in s),
    ("file write (page-cache copy, ext4)", lambda s, leaf: "ksys_write" in s or "vfs_write" in s),
    ("poll", lambda s, leaf: "do_sys_poll" in s),
    ("ChaCha20-Poly1305", lambda s, leaf: "chacha20_poly1305" in s or "poly1305" in leaf),
    ("SHA-256 while streaming (sender: before sealing; receiver: before writing)", lambda s, leaf: "sha256_block" in s),
    ("memcpy/memmove (user)", lambda s, leaf: leaf.startswith(("__memmove", "__memcpy"))),
    ("malloc/free (user)", lambda s, leaf: any(x in leaf for x in ("malloc", "free", "_int_", "alloc"))),
]

counts = collections.Counter()
other = collections.Counter()
total = 0


def flush(frames):
    global total
    if not frames:
        return
    total += 1
    joined = "|".join(frames)
    for name, rule in RULES:
        if rule(joined, frames[0]):
            counts[name] += 1
            return
    counts["other"] += 1
    other[frames[0]] += 1


frames = []
for line in sys.stdin:
    line = line.rstrip("\n")
    if not line.strip():
        flush(frames)
        frames = []
    elif line.startswith((" ", "\t")):
        parts = line.strip().split(None, 1)
        if len(parts) == 2:
            frames.append(re.sub(r"\+0x[0-9a-f]+", "", parts[1].split(" (")[0]))
flush(frames)

if not total:
    sys.exit("no samples with call stacks on stdin (perf script of a perf record --call-graph run)")
for name, n in counts.most_common():
    print(f"{100 * n / total:5.1f} %  {name}")
print(f"{total} samples; commonest leaves in 'other': {other.most_common(5)}")
