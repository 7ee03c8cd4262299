#!/usr/bin/env python3
"""The daemon parent's system calls per request, counted with strace: the parent's cost for a
question never asked before is mostly its system calls, so a change that adds some back (an
epoll_ctl for every reply written, an ioctl before every read, a worker's replies read a few
kilobytes at a time) fails here rather than only in a benchmark.

Usage: daemon_syscalls_test.py SHOUTAND PLUGINS_DIR RULESETS_DIR

Skipped (exit 77) without strace, or where it cannot trace (no ptrace in a container).
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402 (beside this file)

SHOUTAND, PLUGINS, RULESETS = map(os.path.abspath, sys.argv[1:4])
check = harness.Checks()
# Requests asked one at a time, then bursts of pipelined ones: both kinds of load.
ONE_AT_A_TIME = 200
BURSTS, BURST = 10, 32
TRACED = ["epoll_ctl", "ioctl", "read", "readv", "write", "writev"]


def score_request(i, game):
    # A komi of its own makes every request new to the reply cache: each goes to a worker.
    return (json.dumps({"jsonrpc": "2.0", "id": i, "method": "score", "params": {
        "game": game, "ruleset": "chinese", "dead": "none", "komi": 0.5 + i}},
        separators=(",", ":")) + "\n").encode()


def recv_lines(sock, n, buf):
    lines = []
    while len(lines) < n:
        while b"\n" not in buf:
            chunk = sock.recv(1 << 20)
            if not chunk:
                raise EOFError("the daemon closed the connection")
            buf += chunk
        line, buf = buf.split(b"\n", 1)
        lines.append(json.loads(line))
    return lines, buf


def main():
    if shutil.which("strace") is None:
        print("SKIP: no strace")
        return 77
    work = tempfile.mkdtemp(prefix="shoutand-syscalls-")
    try:
        sock_path = os.path.join(work, "s.sock")
        trace = os.path.join(work, "trace")
        conf = os.path.join(work, "shoutand.yaml")
        with open(conf, "w") as f:
            f.write("plugins_dir: %s\nrulesets_dir: %s\nworkers: 2\nlog_level: warning\n"
                    % (PLUGINS, RULESETS))
        # -ff: one file per process, the parent's named by its pid.
        proc = subprocess.Popen(["strace", "-ff", "-qq", "-o", trace, "-e",
                                 "trace=" + ",".join(TRACED), SHOUTAND, "-f", "-c", conf,
                                 "-s", sock_path], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        if not harness.wait_for(lambda: os.path.exists(sock_path) or proc.poll() is not None,
                                20):
            check("the daemon starts under strace", False)
            return check.summary()
        if proc.poll() is not None:
            print("SKIP: strace cannot run the daemon: %s" % proc.stderr.read()[-300:])
            return 77
        game = harness.random_game(size=9, length=60, seed=3)
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(30)
        s.connect(sock_path)
        buf, answered, rid = b"", 0, 0
        # The first request waits for a worker to start; it is not counted below either way.
        for _ in range(ONE_AT_A_TIME):
            rid += 1
            s.sendall(score_request(rid, game))
            replies, buf = recv_lines(s, 1, buf)
            answered += sum("result" in r for r in replies)
        for _ in range(BURSTS):
            s.sendall(b"".join(score_request(rid + k + 1, game) for k in range(BURST)))
            rid += BURST
            replies, buf = recv_lines(s, BURST, buf)
            answered += sum("result" in r for r in replies)
        s.close()
        requests = ONE_AT_A_TIME + BURSTS * BURST
        check("every request answered with a result (%d of %d)" % (answered, requests),
              answered == requests)
        # The parent is strace's child: its file has the lowest pid (workers fork later).
        # SIGTERM goes to it, not to strace, which would only detach.
        files = sorted((f for f in os.listdir(work) if f.startswith("trace.")),
                       key=lambda f: int(f.split(".")[1]))
        os.kill(int(files[0].split(".")[1]), signal.SIGTERM)
        proc.wait(timeout=30)
        counts = {name: 0 for name in TRACED}
        with open(os.path.join(work, files[0])) as f:
            for line in f:
                name = line.split("(", 1)[0]
                if name in counts:
                    counts[name] += 1
        per = {name: n / requests for name, n in counts.items()}
        print("parent, per request: " + ", ".join("%s %.2f" % kv for kv in per.items()))
        # libevent left to write adds the socket's write event for each reply and removes it
        # once written: two epoll_ctl a reply (sockio.h).
        check("no epoll_ctl for each reply or frame written (%.2f a request)"
              % per["epoll_ctl"], per["epoll_ctl"] < 0.2)
        # libevent's reader asks the kernel with an ioctl how much there is before each
        # read, and reads at most 4 KB (sockio.h).
        check("no ioctl before each read (%.2f a request)" % per["ioctl"], per["ioctl"] < 0.2)
        # What is left: a client's request read and its reply written, a worker's frames
        # read and written by the batch, and the start's few hundred reads of the rulesets.
        total = sum(per.values())
        check("at most 2.5 of these system calls a request (%.2f)" % total, total < 2.5)
        return check.summary()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
