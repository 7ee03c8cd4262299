#!/usr/bin/env python3
"""A hostile client against a real shoutand: every attack a client can make, and a well-behaved
client that must be served throughout.

Usage: hostile_test.py SHOUTAND PLUGINS_DIR RULESETS_DIR TEST_PLUGINS_DIR SOURCE_DIR CORPUS_DIR

Counts the requests each attack sends, those answered (a valid JSON-RPC reply carrying the
request's id) and those failed (a wrong or missing reply, or none within the time limit), and
prints them as a table, then "hostile: N passed, M failed" (the assertions) and
"requests: sent=S answered=A failed=F". Every socket operation has a time limit, so a hang is a
failure and never a stuck run. Checks of an issue-11 item whose fix is listed in PENDING are
run where that is cheap and, when they fail, reported as skipped, naming the item;
HOSTILE_STRICT=1 makes every check count (that is how the "fails before the fix" evidence is
taken).
"""
import json
import os
import resource
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

# harness.py sits beside this file; no bytecode is left in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402 (beside this file)
from harness import random_game, wait_for  # noqa: E402

SHOUTAND, PLUGINS, RULESETS, TEST_PLUGINS, SOURCE = map(os.path.abspath, sys.argv[1:6])
CORPUS = os.path.abspath(sys.argv[6]) if len(sys.argv) > 6 else ""
STRICT = os.environ.get("HOSTILE_STRICT") == "1"
# Under AddressSanitizer the daemon's resident memory is mostly shadow memory and the freed
# blocks it holds in quarantine: the memory checks mean nothing there and are skipped.
with open(SHOUTAND, "rb") as f:
    UNDER_ASAN = b"__asan_init" in f.read()

# Issue-11 items whose fix has not landed on main yet: their checks are reported, not counted.
PENDING = {
}

# The main daemon's max_queued_bytes (item 4): what clients that never read may make the parent
# hold, all together. Small, so that 24 such clients pass it even though the daemon stops
# reading them at three quarters of it: then it must close the heaviest. Its resident memory
# may pass it by the reply cache (8 MiB), the allocator's slack and its own few MB.
QUEUED_BUDGET = 4 << 20
RSS_SLACK_KB = 16 << 10

# How long a well-behaved client may wait for one reply while the daemon is under attack
# (generous: CI machines are shared).
SERVED_WITHIN_S = 3.0

passed = failed = skipped = 0


def pending(item):
    return item in PENDING and not STRICT


def check(name, ok, detail="", item=None):
    """One assertion; for an item still pending it is printed and not counted."""
    global passed, failed, skipped
    tag = "" if item is None else " [item %s]" % item
    if item is not None and pending(item) and not ok:
        skipped += 1
        print("SKIP %s%s: not landed: %s; today it fails%s" % (
            name, tag, PENDING[item], ": " + str(detail)[:300] if detail else ""))
        return ok
    if ok:
        passed += 1
        print("ok   " + name + tag)
    else:
        failed += 1
        print("FAIL " + name + tag + (": " + str(detail)[:600] if detail else ""))
    return ok


def skip(name, item, why=None):
    global skipped
    skipped += 1
    print("SKIP %s [item %s]: %s" % (name, item, why or "not landed: " + PENDING[item]))


# ---- counting requests ----

class Tally:
    """Requests per attack: sent, answered (valid reply, right id), failed, and unread (sent by a
    client that by the attack's design never reads its replies or was closed on purpose)."""

    def __init__(self):
        self.rows = {}
        self.lock = threading.Lock()

    def add(self, attack, field, n=1):
        with self.lock:
            row = self.rows.setdefault(attack, {"sent": 0, "answered": 0, "failed": 0,
                                                "unread": 0})
            row[field] += n

    def print(self):
        total = {"sent": 0, "answered": 0, "failed": 0, "unread": 0}
        width = max(len(a) for a in self.rows) if self.rows else 10
        print("%-*s %8s %8s %8s %8s" % (width, "attack", "sent", "answered", "failed", "unread"))
        for attack, row in self.rows.items():
            print("%-*s %8d %8d %8d %8d" % (width, attack, row["sent"], row["answered"],
                                            row["failed"], row["unread"]))
            for k in total:
                total[k] += row[k]
        print("%-*s %8d %8d %8d %8d" % (width, "total", total["sent"], total["answered"],
                                        total["failed"], total["unread"]))
        return total


tally = Tally()


def valid_reply(reply, want_id):
    """A JSON-RPC 2.0 reply to the request with want_id (None for a line that had none)."""
    if not isinstance(reply, dict) or reply.get("jsonrpc") != "2.0" or "id" not in reply:
        return False
    got = reply["id"]
    if type(got) is not type(want_id) or got != want_id:
        return False
    if ("result" in reply) == ("error" in reply):
        return False
    if "error" in reply:
        e = reply["error"]
        return (isinstance(e, dict) and type(e.get("code")) is int and
                isinstance(e.get("message"), str))
    return True


def kind(reply):
    if not isinstance(reply, dict):
        return None
    e = reply.get("error")
    if not isinstance(e, dict):
        return None
    data = e.get("data")
    return data.get("kind") if isinstance(data, dict) else e.get("code")


def code(reply):
    e = reply.get("error") if isinstance(reply, dict) else None
    return e.get("code") if isinstance(e, dict) else None


class Client:
    """One connection, one JSON object per line; every operation has a time limit."""

    def __init__(self, path, timeout=10.0, attack="well-behaved client", rcvbuf=None):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(timeout)
        # A full listen backlog refuses a Unix-socket connect at once (EAGAIN): try again, as
        # a client would, until the time limit.
        deadline = time.time() + timeout
        while True:
            try:
                self.sock.connect(path)
                break
            except BlockingIOError:
                if time.time() > deadline:
                    raise
                time.sleep(0.005)
        self.buf = b""
        self.attack = attack

    def send_raw(self, data, count=True):
        if count:
            tally.add(self.attack, "sent")
        self.sock.sendall(data)

    def send(self, obj, count=True):
        self.send_raw(json.dumps(obj).encode() + b"\n", count)

    def recv_line(self, timeout=None):
        if timeout is not None:
            self.sock.settimeout(timeout)
        while b"\n" not in self.buf:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("closed by the daemon")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def expect(self, want_id, timeout=None):
        """The next reply, counted answered if it is valid with want_id; None when none came."""
        try:
            reply = json.loads(self.recv_line(timeout))
        except (OSError, ValueError, ConnectionError) as e:
            tally.add(self.attack, "failed")
            return {"_failure": "%s: %s" % (type(e).__name__, e)}
        tally.add(self.attack, "answered" if valid_reply(reply, want_id) else "failed")
        return reply

    def call(self, method, params=None, id=1, timeout=None):
        req = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            req["params"] = params
        self.send(req)
        return self.expect(id, timeout)

    def close(self):
        self.sock.close()


# ---- positions for heavy requests ----



def corpus_games(n):
    """Up to n finished 19x19 records from the shared corpus, as SGF text ([] without it)."""
    index = os.path.join(CORPUS, "games", "gnugo-regression", "index.tsv")
    if not CORPUS or not os.path.exists(index):
        return []
    out = []
    with open(index, encoding="utf-8") as f:
        next(f)
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) > 8 and cols[1] == "19" and cols[7].isdigit() and int(cols[7]) > 150:
                path = os.path.join(CORPUS, "games", "gnugo-regression", cols[0])
                with open(path, "rb") as g:
                    out.append(g.read().decode("latin-1"))
                if len(out) == n:
                    break
    return out


def heavy_requests(n, first_id, seed=1):
    """n distinct 19x19 score requests with dead: "auto" (the komi differs, so the reply cache
    cannot answer them): generated games, and real records when the corpus is there."""
    games = [random_game(19, 260, seed + i) for i in range(3)]
    games += [{"sgf": text} for text in corpus_games(3)]
    return [{"jsonrpc": "2.0", "id": first_id + i, "method": "score",
             "params": {"ruleset": "chinese", "game": games[i % len(games)], "dead": "auto",
                        "komi": 0.5 + i}} for i in range(n)]


# ---- the daemon ----

class Daemon:
    """A shoutand in the foreground, in a process group of its own (so that the group can be
    signalled as systemd does), logging to a file."""

    def __init__(self, workdir, name, config, plugins_dir, rulesets_dir):
        self.sock = os.path.join(workdir, name + ".sock")
        self.config = os.path.join(workdir, name + ".yaml")
        with open(self.config, "w") as f:
            f.write("plugins_dir: %s\nrulesets_dir: %s\n%s" % (plugins_dir, rulesets_dir, config))
        self.log = open(os.path.join(workdir, name + ".log"), "w+")
        self.proc = subprocess.Popen([SHOUTAND, "-f", "-c", self.config, "-s", self.sock],
                                     stdout=self.log, stderr=self.log, start_new_session=True)
        deadline = time.time() + 10
        while time.time() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                Client(self.sock, timeout=2).close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("daemon did not start: " + self.logtext())

    def logtext(self):
        self.log.flush()
        with open(self.log.name, encoding="utf-8", errors="replace") as f:
            return f.read()

    def workers(self):
        out = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True)
        return [int(p) for p in out.stdout.split()]

    def rss_kb(self):
        try:
            with open("/proc/%d/status" % self.proc.pid) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def wait_log(self, text, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if text in self.logtext():
                return True
            time.sleep(0.05)
        return False

    def kill(self):
        """Whatever state it is in: the whole group, so no worker outlives the run."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            pass


# ---- the well-behaved client, running throughout ----

class Sentinel(threading.Thread):
    """Asks a light question every 20 ms and times each answer: the client an attack must not
    hurt. Each attack reads its own window of these figures."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path = path
        self.stop_flag = threading.Event()
        self.hold = threading.Event()   # set while an attack is allowed to cost a request
        self.lock = threading.Lock()
        self.calls = 0
        self.failures = []
        self.worst = 0.0

    def window(self):
        with self.lock:
            c, f, self.worst = self.calls, len(self.failures), 0.0
            return c, f

    def since(self, mark):
        with self.lock:
            return self.calls - mark[0], self.failures[mark[1]:], self.worst

    def run(self):
        c = Client(self.path, timeout=SERVED_WITHIN_S * 3)
        n = 0
        while not self.stop_flag.is_set():
            if self.hold.is_set():
                time.sleep(0.02)
                continue
            n += 1
            # Alternately a question the parent's cache answers and one a worker must judge.
            if n % 2:
                method, params = "version", None
            else:
                method, params = "score", {"ruleset": "chinese", "dead": "none",
                                           "game": {"size": 9, "moves": ["B E5", "W C3"]},
                                           "komi": n % 1000 + 0.5}
            t = time.time()
            reply = c.call(method, params, id=n)
            took = time.time() - t
            with self.lock:
                self.calls += 1
                self.worst = max(self.worst, took)
                if "result" not in reply or reply.get("id") != n:
                    self.failures.append((method, reply))
                    if "_failure" in reply:  # the connection is gone: start again
                        c.close()
                        try:
                            c = Client(self.path, timeout=SERVED_WITHIN_S * 3)
                        except OSError:
                            time.sleep(0.2)
            time.sleep(0.02)
        c.close()


def served_throughout(d, sentinel, mark, attack, seconds):
    """The sentinel's calls during the attack all succeeded in time (and there were some, if
    the attack lasted long enough for one), and a new client is served after it."""
    n, failures, worst = sentinel.since(mark)
    check("%s: the well-behaved client was served throughout (%d calls, slowest %.0f ms)"
          % (attack, n, worst * 1000), (n > 0 or seconds < 0.5) and not failures and
          worst < SERVED_WITHIN_S, failures[:2])
    c = Client(d.sock, timeout=SERVED_WITHIN_S)
    check("%s: a new client is served after it" % attack,
          "result" in c.call("version", id="probe"))
    c.close()


# ---- attacks on the main daemon ----

def malformed(d):
    """Lines that are not requests: each gets the right error, with the id it can be given."""
    attack = "malformed lines"
    c = Client(d.sock, attack=attack)
    big_id = "i" * 200000
    cases = [
        (b"{not json", None, {-32700}),
        (b"\xff\xfe\x00garbage\x01\x02", None, {-32700}),
        (b'{"jsonrpc":"2.0","id":1,"method":"version","x":"\xc3\x28"}', None, {-32700}),
        (b'{"jsonrpc":"2.0","id":1,"method":"ver\xc0\xafsion"}', None, {-32700}),  # overlong
        (b'{"jsonrpc":"2.0","id":1,"method":"\xed\xa0\x80"}', None, {-32700}),  # a surrogate
        (b'{"jsonrpc":"2.0","id":1,"method":"vers\x00ion"}', None, {-32700}),
        (b'{"jsonrpc":"2.0","id":1,"method":"version"', None, {-32700}),
        (b'{"jsonrpc":"2.0","id":1,"id":2,"method":"version"}', None, {-32700}),
        (b'{"jsonrpc":"2.0","id":1e999999,"method":"version"}', None, {-32700}),
        (b'{"jsonrpc":"2.0","id":99999999999999999999999999,"method":"version"}', None,
         {-32700}),
        # Valid JSON that is not an object: refused, or not decoded at all.
        (b"[]", None, {-32600, -32700}),
        (b'[{"jsonrpc":"2.0","id":1,"method":"version"}]', None, {-32600}),
        (b"42", None, {-32600, -32700}),
        (b'"version"', None, {-32600, -32700}),
        (b"null", None, {-32600, -32700}),
        (b"true", None, {-32600, -32700}),
        # Objects that are not requests: refused with their id where it is a valid one.
        (b'{"jsonrpc":"1.0","id":1,"method":"version"}', 1, {-32600}),
        (b'{"jsonrpc":"2.0","id":{"a":1},"method":"version"}', None, {-32600}),
        (b'{"jsonrpc":"2.0","id":[1],"method":"version"}', None, {-32600}),
        (b'{"jsonrpc":"2.0","id":3,"method":7}', 3, {-32600}),
        (b'{"jsonrpc":"2.0","id":3,"method":"score","params":"x"}', 3, {-32600}),
        # Deep nesting: past the parser's depth, 200,000 arrays and 100,000 objects deep.
        (b"[" * 4000, None, {-32700}),
        (b'{"jsonrpc":"2.0","id":4,"method":"version","params":' + b"[" * 200000 +
         b"]" * 200000 + b"}", None, {-32700}),
        (b'{"jsonrpc":"2.0","id":4,"method":"version","params":' + b'{"a":' * 100000 +
         b"1" + b"}" * 100000 + b"}", None, {-32700}),
        # Requests that parse: the error carries their id.
        (b'{"jsonrpc":"2.0","id":5,"method":"no_such_method"}', 5, {-32601}),
        (b'{"jsonrpc":"2.0","id":6,"method":"score","params":{"game":{"size":99}}}', 6,
         {-32602}),
        (b'{"jsonrpc":"2.0","id":7,"method":"score","params":{"game":{"size":9},'
         b'"komi":1e300}}', 7, {-32602}),
        (b'{"jsonrpc":"2.0","id":8,"method":"legal","params":{"game":{"size":9},'
         b'"move":"B Z99"}}', 8, {-32602}),
        (b'{"jsonrpc":"2.0","id":9,"method":"describe","params":{"ruleset":"../../etc/passwd"}}',
         9, {-32602, -32002}),
    ]
    for data, want_id, codes in cases:
        c.send_raw(data + b"\n")
        reply = c.expect(want_id)
        check("malformed %r... -> %s" % (data[:50], "/".join(map(str, sorted(codes)))),
              valid_reply(reply, want_id) and code(reply) in codes, reply)
    # Ids at the edge of what a client may send come back as they went.
    for rid in (big_id, -9223372036854775808, 9223372036854775807, "", "é\u2028\"\\"):
        reply = c.call("version", id=rid)
        check("id %r comes back unchanged" % (rid[:12] if isinstance(rid, str) else rid),
              valid_reply(reply, rid) and "result" in reply, str(reply)[:200])
    check("the connection is still usable after the malformed lines",
          "result" in c.call("version", id="after"))
    c.close()


def too_large(d):
    """10 MB lines: too_large each time, and the same connection keeps working."""
    attack = "10 MB lines"
    c = Client(d.sock, timeout=20, attack=attack)
    for i, shape in enumerate(("one write", "in pieces", "no JSON at all")):
        if shape == "no JSON at all":
            line = b"\xff" * (10 << 20) + b"\n"
        else:
            line = (b'{"jsonrpc":"2.0","id":%d,"method":"version","pad":"' % i +
                    b"x" * (10 << 20) + b'"}\n')
        tally.add(attack, "sent")
        if shape == "in pieces":
            for k in range(0, len(line), 1 << 20):
                c.sock.sendall(line[k:k + (1 << 20)])
                time.sleep(0.01)
        else:
            c.sock.sendall(line)
        reply = c.expect(None)
        check("10 MB line (%s) -> too_large" % shape, kind(reply) == "too_large", reply)
        reply = c.call("version", id="after-%d" % i)
        check("10 MB line (%s): the connection is still usable" % shape,
              "result" in reply, reply)
    c.close()


def many_connections(d, n=1000):
    attack = "%d connections" % n
    clients = []
    try:
        for i in range(n):
            clients.append(Client(d.sock, timeout=15, attack=attack))
        for i, c in enumerate(clients):
            c.send({"jsonrpc": "2.0", "id": i, "method": "version"})
        answered = sum(1 for i, c in enumerate(clients) if "result" in c.expect(i))
        check("%d connections at once are each answered" % n, answered == n,
              "%d of %d" % (answered, n))
    except OSError as e:
        check("%d connections at once are each answered" % n, False, "%d open: %s"
              % (len(clients), e))
    finally:
        for c in clients:
            c.close()
    # While the loop is busy, the kernel's listen backlog is all that holds new clients:
    # libevent's default re-listened with 128, and connects past that were refused at
    # once.  A stopped parent is a loop that is busy for as long as the check needs.
    waiting, refused_at = [], None
    os.kill(d.proc.pid, signal.SIGSTOP)
    try:
        for i in range(n):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.setblocking(False)
            waiting.append(s)
            try:
                s.connect(d.sock)
            except BlockingIOError:
                refused_at = i + 1
                break
    finally:
        os.kill(d.proc.pid, signal.SIGCONT)
        for s in waiting:
            s.close()
    check("%d connects while the loop is busy wait in the listen backlog" % n,
          refused_at is None, "connect %s of %d refused" % (refused_at, n))


def slow_loris(d):
    """Clients that dribble their requests a byte at a time, and others that stop mid-line."""
    attack = "slow-loris"
    lines = [b'{"jsonrpc":"2.0","id":"loris-%d","method":"version"}\n' % i for i in range(50)]
    dribblers = [Client(d.sock, timeout=10, attack=attack) for _ in lines]
    stalled = [Client(d.sock, timeout=10, attack=attack) for _ in range(20)]
    for c in stalled:
        c.sock.sendall(b'{"jsonrpc":"2.0","id":1,"method":"ver')
    for c in dribblers:
        tally.add(attack, "sent")
    for k in range(max(map(len, lines))):
        for c, line in zip(dribblers, lines):
            if k < len(line):
                c.sock.sendall(line[k:k + 1])
        time.sleep(0.02)
    got = [c.expect("loris-%d" % i) for i, c in enumerate(dribblers)]
    check("50 requests sent a byte at a time are each answered",
          all("result" in r for r in got), [r for r in got if "result" not in r][:2])
    for c in dribblers + stalled:
        c.close()


def never_readers(d, sentinel, n):
    """Clients that send requests with large replies and never read them: the parent's memory
    stays within its budget, the heaviest are closed with overloaded, and the memory comes
    back once they leave."""
    attack = "clients that never read"
    request = b'{"jsonrpc":"2.0","id":1,"method":"describe","params":{"ruleset":"japanese"}}\n'
    base_kb = d.rss_kb()
    clients = [Client(d.sock, timeout=10, attack=attack, rcvbuf=4096) for _ in range(n)]
    for c in clients:
        c.sock.setblocking(False)
    chunk = request * 64
    unsent = [chunk] * n          # bytes each client still has to write
    written = [0] * n             # bytes each client has written
    worst_kb = base_kb
    deadline = time.time() + 6
    idle_since = time.time()
    # Write while the daemon reads; stop when it has read nothing for a second (every client
    # paused) or after 6 s.
    while time.time() < deadline and time.time() - idle_since < 1.0:
        _, writable, _ = select.select([], [c.sock for c in clients], [], 0.1)
        for i, c in enumerate(clients):
            if c.sock not in writable:
                continue
            try:
                k = c.sock.send(unsent[i])
            except OSError:
                continue
            written[i] += k
            unsent[i] = unsent[i][k:] or chunk
            idle_since = time.time()
        worst_kb = max(worst_kb, d.rss_kb())
    for _ in range(10):  # the daemon finishes what it read
        worst_kb = max(worst_kb, d.rss_kb())
        time.sleep(0.1)
    total = sum(w // len(request) for w in written)  # whole requests; the rest is a part line
    tally.add(attack, "sent", total)
    tally.add(attack, "unread", total)
    budget_kb = base_kb + (2 * QUEUED_BUDGET >> 10) + RSS_SLACK_KB
    memory_check = check if not UNDER_ASAN else (
        lambda name, ok, detail="", item=None: skip(name, item, "not measured under "
                                                    "AddressSanitizer (shadow memory, quarantine)"))
    memory_check("%d clients that never read (%d requests): the parent stays under %d MB (peak %d MB,"
          " %d MB before)" % (n, total, budget_kb >> 10, worst_kb >> 10, base_kb >> 10),
          worst_kb < budget_kb, item=4)
    # They read at last: those the daemon closed find the end of the stream, after an
    # overloaded error line where the daemon could still write one (their buffers were full).
    # All are read at once for two seconds: a closed one reaches its end within that (it holds
    # little), while one still served keeps receiving the replies to what it sent.
    tails, ended = {c.sock: b"" for c in clients}, set()
    read_until = time.time() + 2
    while time.time() < read_until and len(ended) < n:
        readable, _, _ = select.select([s for s in tails if s not in ended], [], [], 0.1)
        for sock in readable:
            try:
                chunk = sock.recv(1 << 20)
            except OSError:
                chunk = b""
            if not chunk:
                ended.add(sock)
            tails[sock] = (tails[sock] + chunk)[-4096:]
    closed = len(ended)
    with_line = sum(b'"overloaded"' in tails[sock] for sock in ended)
    probe = Client(d.sock, attack=attack)
    time.sleep(1.1)  # the counters reach status once a second
    status = probe.call("status", id="after-overload").get("result", {})
    probe.close()
    check("past the budget the heaviest clients are closed with overloaded (%d of %d closed, "
          "%d with the error line; status overloaded=%s)" % (closed, n, with_line,
                                                            status.get("overloaded")),
          closed > 0 and status.get("overloaded", 0) >= closed, item=4)
    for c in clients:
        c.close()
    deadline = time.time() + 8
    while time.time() < deadline and d.rss_kb() > base_kb + (24 << 10):
        time.sleep(0.2)
    after_kb = d.rss_kb()
    memory_check("the memory comes back once they leave (%d MB, %d MB before)"
          % (after_kb >> 10, base_kb >> 10), after_kb <= base_kb + (24 << 10), item=4)


def sgf_attacks(d):
    attack = "hostile SGF"
    c = Client(d.sock, timeout=15, attack=attack)

    def score(sgf, rid, timeout=15):
        return c.call("score", {"ruleset": "chinese", "dead": "none", "game": {"sgf": sgf}},
                      id=rid, timeout=timeout)
    # (record, whether it must be refused): a lenient reader may read the others.
    broken = [("garbage", True), ("()", True), (")(", True), ("(;SZ[99])", True),
              ("(;SZ[0])", True), ("(;SZ[9];B[aa", True), ("(;B[zz])", True),
              ("(;SZ[9]AB[aa:zz])", True), ("(;SZ[9]KM[1e400])", True),
              ("(" * 100000, True), ("(;SZ[9]CA[x-no-such]C[\u00ff];B[aa])", False),
              ("(;SZ[9]C[" + "\\" * 1000, False), ("(;SZ[9]" + "\x01" * 1000 + ")", False)]
    for i, (sgf, refused) in enumerate(broken):
        rid = "broken-%d" % i
        reply = score(sgf, rid)
        check("broken SGF %r -> %s" % (sgf[:24], "bad_sgf" if refused else "an answer"),
              valid_reply(reply, rid) and (kind(reply) in ("bad_sgf", "invalid_params") if refused
                                           else kind(reply) != "internal"), reply)
    shapes = {
        "100,000 nested variations": "(;SZ[9]" + "(;B[aa];W[bb]" * 60000 + ")" * 60000 + ")",
        "100,000 properties on one node": "(;SZ[9]" + "C[x]" * 100000 + ")",
        "50,000 game trees": "(;SZ[9])" * 50000,
        "a 900 KB comment": "(;SZ[9]C[" + "x" * 900000 + "];B[aa])",
    }
    for name, sgf in shapes.items():
        t = time.time()
        reply = score(sgf, name)
        took = time.time() - t
        check("%s (%d KB) answered in %.2f s, not by a crash" % (name, len(sgf) >> 10, took),
              valid_reply(reply, name) and kind(reply) != "internal" and took < 5, reply)
    if pending(2):
        skip("80,000 sibling variations answered within 5 s", 2)
    else:
        sgf = "(;SZ[9]" + "(;B[aa])" * 80000 + ")"
        t = time.time()
        reply = score(sgf, "siblings", timeout=60)
        took = time.time() - t
        check("80,000 sibling variations (%d KB) answered within 5 s (%.2f s)"
              % (len(sgf) >> 10, took), valid_reply(reply, "siblings") and "result" in reply
              and took < 5, reply, item=2)
    c.close()


def hostile_rulesets(d, rulesets_dir):
    """Hostile ruleset files and SIGHUP: each refused and logged; the old set keeps serving."""
    attack = "hostile rulesets + SIGHUP"
    c = Client(d.sock, attack=attack)
    before = sorted(r["name"] for r in c.call("rulesets", id=0)["result"]["rulesets"])
    c.close()
    # A billion laughs: nine levels of nine aliases, 387 million strings if walked.
    laughs = "plugin: chinese\nsummary: [&a0 [x, x, x, x, x, x, x, x, x], " + ", ".join(
        "&a%d [%s]" % (k, ", ".join(["*a%d" % (k - 1)] * 9)) for k in range(1, 10)) + "]\n"
    files = {
        "laughs.yaml": laughs,
        "garbage.yaml": "\x00\xff\xfe" * 1000,
        "traversal.yaml": "plugin: ../../../../../../tmp/nothing-here\n",
        "nested.yaml": "plugin: chinese\nparameters:\n  komi: " + "[" * 10000 + "]" * 10000 + "\n",
        "huge.yaml": "plugin: chinese\nparameters:\n  size: 99999999999999999999999999\n",
        "longkey.yaml": "plugin: chinese\n" + "k" * 500000 + ": 1\n",
    }
    for i, (name, text) in enumerate(files.items()):
        path = os.path.join(rulesets_dir, name)
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        d.proc.send_signal(signal.SIGHUP)
        check("hostile ruleset %s is refused and logged" % name, d.wait_log(name, 10),
              d.logtext()[-400:])
        os.unlink(path)
        c = Client(d.sock, attack=attack)
        reply = c.call("rulesets", id=i + 1)
        names = sorted(r["name"] for r in reply.get("result", {}).get("rulesets", []))
        check("after %s the old rulesets serve" % name, names == before, names)
        reply = c.call("score", {"ruleset": "chinese", "dead": "none",
                                 "game": {"size": 9, "moves": ["B E5"]}}, id="s%d" % i)
        check("after %s a score is judged" % name, "result" in reply, reply)
        c.close()
    check("the daemon is still running after the hostile reloads", d.proc.poll() is None)


def worker_killed(d, sentinel):
    """SIGKILL a worker under load: at most the request it was running fails, with its id."""
    attack = "worker killed under load"
    stop = threading.Event()
    errors, counts = [], []

    def load(k):
        c = Client(d.sock, attack=attack)
        n = 0
        game = {"size": 9, "moves": ["B E5", "W C3", "B G7", "W C7"]}
        while not stop.is_set():
            rid = "%d-%d" % (k, n)
            for j in range(4):  # four in flight at a time
                c.send({"jsonrpc": "2.0", "id": "%s-%d" % (rid, j), "method": "score",
                        "params": {"ruleset": "chinese", "game": game, "dead": "none",
                                   "komi": (k * 100000 + n * 4 + j) % 997 + 0.5}})
            for j in range(4):
                want = "%s-%d" % (rid, j)
                reply = c.expect(want)
                if "result" not in reply:
                    errors.append((want, reply))
                    if "_failure" in reply:
                        stop.set()
            n += 1
        counts.append(n * 4)
        c.close()
    sentinel.hold.set()  # the well-behaved client may lose a request here, by design
    threads = [threading.Thread(target=load, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    time.sleep(0.4)
    victims = d.workers()
    for victim in victims:
        kill_quietly(victim)
        time.sleep(0.4)
    time.sleep(0.3)
    stop.set()
    for t in threads:
        t.join(30)
    sentinel.hold.clear()
    served = sum(counts)
    check("both workers killed in turn under load: at most their running requests fail "
          "(%d served, %d failed)" % (served, len(errors)),
          len(errors) <= len(victims) and served > 20, errors[:3])
    check("a request lost with its worker is an internal error with its id",
          all(kind(r) == "internal" and r.get("id") == want for want, r in errors),
          errors[:3], item=5)
    check("the killed workers are replaced", wait_for(lambda: len(d.workers()) == 2 and
                                                      not set(victims) & set(d.workers()), 5),
          d.workers())
    # A crashing plugin is deterministic: its request's error carries the id too.
    c = Client(d.sock, attack=attack)
    reply = c.call("score", {"ruleset": "crash", "game": {"size": 9}}, id="crash-1")
    check("a request whose worker crashes gets internal", kind(reply) == "internal", reply)
    check("the crash's internal error carries the request's id", valid_reply(reply, "crash-1"),
          reply, item=5)
    c.close()


def kill_quietly(pid):
    """SIGKILL a worker that may have ended on its own meanwhile."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def methods_items(d):
    """Items 7-11 as a client meets them."""
    attack = "rules items 7-11"
    c = Client(d.sock, timeout=20, attack=attack)
    with open(os.path.join(SOURCE, "examples", "demo-9x9.sgf"), encoding="utf-8") as f:
        demo = f.read()
    # 7: the referee counts with the record's KM, as score does.
    score = c.call("score", {"ruleset": "chinese", "game": {"sgf": demo}}, id="km-score")
    ref = c.call("referee", {"ruleset": "chinese", "game": {"sgf": demo}}, id="km-referee")
    outcome = ref.get("result", {}).get("outcome", {})
    check("referee of demo-9x9.sgf counts with its KM[7] as score does (score %s, referee %s)"
          % (score.get("result", {}).get("re"), outcome.get("re")),
          "result" in score and outcome.get("re") == score["result"].get("re") and
          outcome.get("score", {}).get("white", {}).get("komi") ==
          score["result"]["white"]["komi"], outcome.get("score", {}).get("white"), item=7)
    # 8: a game ended by a violation says so in every field.
    suicide = {"size": 9, "moves": ["B A2", "W E5", "B B1", "W A1"]}
    reply = c.call("score", {"ruleset": "japanese", "game": suicide}, id="violation")
    r = reply.get("result", {})
    native = r.get("native", {})
    check("score of a game White lost by suicide is B+F", r.get("re") == "B+F" and
          r.get("winner") == "B", r)
    # No count decided it: every member giving the result says so (docs/protocol.md, score),
    # and the count stands apart, for information.
    counted = any(ch.isdigit() for ch in str(native.get("text", "")))
    check("a violation-ended game says so in every field (how %r, margin %r, native %r, "
          "text %r)" % (r.get("how"), r.get("margin"), native, r.get("text")),
          r.get("how") == "infraction" and "margin" in r and r["margin"] is None and
          "margin" in native and native["margin"] is None and not counted and
          "forfeit" in str(r.get("text")) and "count" in r, r, item=8)
    events = [{"type": "move", "vertex": v} for v in ("A2", "E5", "B1", "A1")]
    reply = c.call("referee", {"ruleset": "japanese", "size": 9, "events": events},
                   id="violation-referee")
    o = reply.get("result", {}).get("outcome", {})
    check("the referee's outcome for the same suicide says so too (%r)" % o,
          o.get("how") == "infraction" and o.get("re") == "B+F" and o.get("winner") == "B" and
          not any(ch.isdigit() for ch in str(o.get("native", {}).get("text", "?1"))) and
          "forfeit" in str(o.get("text")), reply, item=8)
    # 9: legal never calls an illegal move ok, and agrees with replay's verdict for it.
    def scenarios(first):
        """Illegal moves for the player second to move, whoever moves first: a stone on an
        occupied point, a suicide in the corner, and the immediate retake of a ko."""
        a, b = first, "W" if first == "B" else "B"
        ko = {"size": 9, "handicap": 0, "setup": {"black" if b == "B" else "white":
                                                  ["B1", "A2", "C2", "B3"],
                                                  "black" if a == "B" else "white":
                                                  ["C1", "D2", "C3"]},
              "moves": [a + " B2"]}
        return [("occupied", {"size": 9, "moves": [a + " E5"]}, b + " E5"),
                ("suicide", {"size": 9, "moves": [a + " A2", b + " E5", a + " B1"]}, b + " A1"),
                ("ko", ko, b + " C2")]
    # bad-consequence: a plugin answering a consequence outside the ABI's enum.
    for ruleset in ("chinese", "japanese", "ancient", "tromp-taylor", "chinese-1988",
                    "bad-consequence"):
        first = c.call("describe", {"ruleset": ruleset}, id="first-" + ruleset)
        first = first.get("result", {}).get("setup", {}).get("first", "B")
        for what, game, move in scenarios(first):
            reply = c.call("legal", {"ruleset": ruleset, "game": game, "move": move},
                           id="legal-%s-%s" % (ruleset, what))
            res = reply.get("result", {})
            check("legal %s under %s: not legal, and a consequence that is not ok (%s)"
                  % (what, ruleset, res.get("consequence")),
                  ("result" in reply and res.get("legal") is False and
                   res.get("consequence") not in ("ok", None, "none")) or
                  (what == "suicide" and res.get("legal") is True), reply, item=9)
            # The same move played: replay's verdict is the consequence legal announced.
            played = dict(game, moves=game["moves"] + [move])
            replay = c.call("replay", {"ruleset": ruleset, "game": played},
                            id="replay-%s-%s" % (ruleset, what))
            if "error" in replay:
                verdict = "reject" if kind(replay) == "illegal_move" else kind(replay)
            else:
                last = replay["result"]["moves"][-1]
                verdict = last["verdict"] if last.get("reason") else "none"
            check("legal %s under %s announces what replay does (%s, replay %s)"
                  % (what, ruleset, res.get("consequence"), verdict),
                  res.get("consequence") == verdict, (reply, replay), item=9)
    # 10: what should not pass silently.
    both = {"size": 9, "setup": {"black": ["C3", "D4"], "white": ["C3"]}, "moves": ["W E5"]}
    for name, game in (("a setup stone of both colours", both),
                       ("AB and AW on one point", {"sgf": "(;FF[4]SZ[9]AB[cc]AW[cc];B[ee])"}),
                       ("HA[3] with two handicap stones",
                        {"sgf": "(;FF[4]SZ[9]HA[3]AB[cc][gg];W[ee])"}),
                       ("RU[bogus]", {"sgf": "(;FF[4]SZ[9]RU[bogus];B[ee];W[cc])"})):
        rid = "item10-" + name
        reply = c.call("score", {"game": game, "dead": "none"}, id=rid)
        notes = " ".join(reply.get("result", {}).get("notes", []))
        check("%s: an error or a note saying so" % name, valid_reply(reply, rid) and
              ("error" in reply or any(w in notes.lower() for w in
                                       ("both", "handicap", "bogus", "unknown", "ha[", "ru["))),
              reply.get("error") or notes, item=10)
    # 11: tromp-taylor describes itself, and its count has no dame share.
    reply = c.call("describe", {"ruleset": "tromp-taylor"}, id="tt")
    text = reply.get("result", {}).get("description", "")
    check("describe tromp-taylor does not give the Chinese rules' text",
          "result" in reply and "3¾ zi" not in text and "Suicide is forbidden" not in text,
          text[:200], item=11)
    reply = c.call("score", {"ruleset": "tromp-taylor", "dead": "none",
                             "game": {"size": 9, "moves": ["B C3", "W G7"]}}, id="tt-score")
    r = reply.get("result", {})
    check("a Tromp-Taylor count has no dame share",
          "result" in reply and r["black"].get("dame_share") == 0 and
          r["white"].get("dame_share") == 0, (r.get("black"), r.get("white")), item=11)
    c.close()


# ---- attacks that need a daemon of their own ----

def timeouts(work, plugins_dir, rulesets_dir):
    """A request over the time budget gets timeout with its own id."""
    attack = "time budget"
    d = Daemon(work, "budget", "workers: 2\nrequest_timeout_ms: 40\n", plugins_dir, rulesets_dir)
    try:
        c = Client(d.sock, timeout=15, attack=attack)
        # The automatic dead-stone judgement of a 19x19 game under every ruleset: some 200 ms
        # of work on an idle machine (more on a busy one), five times the budget.
        game = heavy_requests(1, 0)[0]["params"]["game"]
        for i, rid in enumerate(("heavy-19x19", 12345)):
            c.send({"jsonrpc": "2.0", "id": rid, "method": "compare",
                    "params": {"game": game, "dead": "auto", "komi": 0.5 + i}})
            reply = c.expect(rid)
            check("a heavy 19x19 dead:auto compare over a 40 ms budget gets timeout",
                  kind(reply) == "timeout", str(reply)[:300])
            check("the timeout error carries the request's id %r" % rid,
                  valid_reply(reply, rid), reply, item=5)
        reply = c.call("score", {"ruleset": "sleepy", "game": {"size": 9}}, id="sleepy")
        check("a plugin that sleeps gets timeout with its id", kind(reply) == "timeout" and
              valid_reply(reply, "sleepy"), reply, item=5)
        check("served after the timeouts", "result" in c.call("version", id="after"))
        c.close()
        workers_cannot_start(d, rulesets_dir)
    finally:
        d.kill()


def workers_cannot_start(d, rulesets_dir):
    """Workers that die at start (their rulesets no longer load): status still answers."""
    attack = "status without workers"
    broken = os.path.join(rulesets_dir, "zz-broken-for-workers.yaml")
    with open(broken, "w") as f:
        f.write("plugin: chinese\nparameters:\n  komi: plenty\n")
    try:
        for w in d.workers():
            kill_quietly(w)
        d.wait_log("cannot load", 5)
        time.sleep(0.3)
        c = Client(d.sock, timeout=5, attack=attack)
        reply = c.call("status", id="health")
        check("status answers while workers cannot start", valid_reply(reply, "health") and
              "result" in reply, reply, item="11 status")
        c.close()
    finally:
        os.unlink(broken)


def sigterm_group(work, plugins_dir, rulesets_dir, workers, kill_workers_first=False):
    """40 pipelined heavy requests, then SIGTERM to the whole process group (what systemctl
    stop sends without KillMode=mixed), or SIGKILL of every worker: every request is answered
    or refused, and the daemon exits in bounded time."""
    what = ("SIGKILL of every worker, %d worker%s" if kill_workers_first else
            "SIGTERM to the group, %d worker%s") % (workers, "" if workers == 1 else "s")
    attack = "heavy queue: " + what
    if pending(1):  # today this hangs until the time limits below: 40 s a run
        skip("%s: 40 queued heavy requests answered or refused, the daemon exits" % what, 1)
        return
    d = Daemon(work, "term%d%s" % (workers, "k" if kill_workers_first else ""),
               "workers: %d\n" % workers, plugins_dir, rulesets_dir)
    try:
        c = Client(d.sock, timeout=30, attack=attack)
        requests = heavy_requests(40, 0)
        for r in requests:
            c.send(r)
        time.sleep(0.3)
        if kill_workers_first:
            for w in d.workers():
                kill_quietly(w)
        else:
            os.killpg(d.proc.pid, signal.SIGTERM)
        got, deadline = {}, time.time() + 25
        while len(got) < len(requests) and time.time() < deadline:
            try:
                reply = json.loads(c.recv_line(max(0.1, deadline - time.time())))
            except (OSError, ValueError, ConnectionError):
                break
            # A reply without a request's id answers none of them: that request counts failed.
            rid = reply.get("id") if isinstance(reply, dict) else None
            if type(rid) is int and 0 <= rid < len(requests) and rid not in got and \
                    valid_reply(reply, rid):
                got[rid] = reply
        tally.add(attack, "answered", len(got))
        tally.add(attack, "failed", len(requests) - len(got))
        check("%s: each of 40 queued heavy requests is answered or refused (%d)"
              % (what, len(got)), len(got) == len(requests),
              "missing ids %s" % sorted(set(range(40)) - set(got))[:10], item=1)
        if kill_workers_first:
            check("%s: the daemon still runs" % what, d.proc.poll() is None)
            d.proc.send_signal(signal.SIGTERM)
        try:
            rc = d.proc.wait(15)
        except subprocess.TimeoutExpired:
            rc = None
        check("%s: the daemon exits 0 within 15 s (%s)" % (what, rc), rc == 0, item=1)
        c.close()
    finally:
        d.kill()


# ---- the run ----

def sanitizer_reports(log):
    """The sanitizers' reports in a log, but for the crash the misbehaving plugin makes on
    purpose (AddressSanitizer reports the SIGSEGV it raises)."""
    reports, current = [], None
    for line in log.splitlines():
        if "runtime error:" in line:
            reports.append(line)
        elif "Sanitizer" in line and current is None:
            current = [line]
        elif current is not None:
            current.append(line)
            if line.startswith("SUMMARY:") or "ABORTING" in line:
                text = "\n".join(current)
                if "tests/plugins/misbehaving.c" not in text:
                    reports.append(text)
                current = None
    if current is not None and "tests/plugins/misbehaving.c" not in "\n".join(current):
        reports.append("\n".join(current))
    return reports


def accepts_setting(work, plugins_dir, rulesets_dir, line):
    """Whether this shoutand knows a configuration line (shoutand -n checks it)."""
    path = os.path.join(work, "probe.yaml")
    with open(path, "w") as f:
        f.write("plugins_dir: %s\nrulesets_dir: %s\n%s\n" % (plugins_dir, rulesets_dir, line))
    out = subprocess.run([SHOUTAND, "-n", "-c", path], capture_output=True, text=True, timeout=30)
    os.unlink(path)
    return out.returncode == 0

def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4096:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))
    connections = min(1000, resource.getrlimit(resource.RLIMIT_NOFILE)[0] - 100)
    work = tempfile.mkdtemp(prefix="shoutand-hostile-")
    plugins_dir, rulesets_dir = harness.work_tree(work, PLUGINS, TEST_PLUGINS, RULESETS, {
        "crash.yaml": harness.misbehaving("crash"),
        "bad-consequence.yaml": harness.misbehaving("bad_consequence"),
        "sleepy.yaml": harness.misbehaving("sleep", sleep_ms=60000)})
    if not corpus_games(1):
        print("note: no corpus at %r; the heavy requests are generated games only" % CORPUS)
    start = time.time()
    d = None
    sentinel = None
    try:
        config = "workers: 2\nmax_connections: %d\nidle_timeout: 60\n" % (connections + 200)
        # The memory budget's setting exists once item 4's fix is in this build.
        if accepts_setting(work, plugins_dir, rulesets_dir, "max_queued_bytes: %d" % QUEUED_BUDGET):
            config += "max_queued_bytes: %d\n" % QUEUED_BUDGET
        d = Daemon(work, "main", config, plugins_dir, rulesets_dir)
        sentinel = Sentinel(d.sock)
        sentinel.start()
        attacks = [
            ("malformed lines", lambda: malformed(d)),
            ("10 MB lines", lambda: too_large(d)),
            ("%d connections" % connections, lambda: many_connections(d, connections)),
            ("slow-loris", lambda: slow_loris(d)),
            ("clients that never read", lambda: never_readers(d, sentinel, 24)),
            ("hostile SGF", lambda: sgf_attacks(d)),
            ("hostile rulesets + SIGHUP", lambda: hostile_rulesets(d, rulesets_dir)),
            ("rules items 7-11", lambda: methods_items(d)),
            ("worker killed under load", lambda: worker_killed(d, sentinel)),
        ]
        for name, run in attacks:
            t = time.time()
            mark = sentinel.window()
            try:
                run()
            except Exception as e:  # an attack that breaks the client is a failure, not a stop
                check("%s ran to the end" % name, False, "%s: %s" % (type(e).__name__, e))
            if name != "worker killed under load":
                served_throughout(d, sentinel, mark, name, time.time() - t)
            print("     (%s: %.1f s)" % (name, time.time() - t))
        sentinel.stop_flag.set()
        sentinel.join(10)
        check("the daemon survived every attack", d.proc.poll() is None, d.logtext()[-2000:])
        d.proc.send_signal(signal.SIGTERM)
        try:
            rc = d.proc.wait(15)
        except subprocess.TimeoutExpired:
            rc = None
        check("after the attacks SIGTERM stops the daemon with status 0 (%s)" % rc, rc == 0)
        log = d.logtext()
        reports = sanitizer_reports(log)
        check("no sanitizer report in the daemon's log (%d)" % len(reports), not reports,
              "\n".join(reports)[:2000])
        if failed:
            print(log[-3000:])
        d.kill()
        d = None
        for name, run in (
                ("time budget", lambda: timeouts(work, plugins_dir, rulesets_dir)),
                ("SIGTERM to the group, 2 workers",
                 lambda: sigterm_group(work, plugins_dir, rulesets_dir, 2)),
                ("SIGTERM to the group, 1 worker",
                 lambda: sigterm_group(work, plugins_dir, rulesets_dir, 1)),
                ("SIGKILL of every worker",
                 lambda: sigterm_group(work, plugins_dir, rulesets_dir, 2, True))):
            t = time.time()
            try:
                run()
            except Exception as e:
                check("%s ran to the end" % name, False, "%s: %s" % (type(e).__name__, e))
            print("     (%s: %.1f s)" % (name, time.time() - t))
    finally:
        if sentinel is not None:
            sentinel.stop_flag.set()
        if d is not None:
            d.kill()
        shutil.rmtree(work, ignore_errors=True)
    print()
    total = tally.print()
    print("(unread: requests from clients that by design never read their replies; "
          "sent = answered + failed + unread)")
    print("well-behaved client: %d calls, %d failed" % (sentinel.calls, len(sentinel.failures)))
    print("(%.0f s; %d checks skipped as not landed)" % (time.time() - start, skipped))
    print("hostile: %d passed, %d failed" % (passed, failed))
    print("requests: sent=%d answered=%d failed=%d" % (total["sent"], total["answered"],
                                                      total["failed"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
