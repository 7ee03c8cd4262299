#!/usr/bin/env python3
"""How shoutand starts: its paths after detaching, its socket path, and its workers' confinement.

Usage: daemon_start_test.py PART SHOUTAND PLUGINS_DIR RULESETS_DIR
PART is "paths", "socket", "filter" or "privileges".  "privileges" needs root (CI runs as root) and exits
77, which meson reports as skipped, otherwise.  Prints one line per check and "N passed, M
failed"; exits non-zero on any failure.
"""
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

# harness.py sits beside this file; no bytecode is left in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402 (beside this file)
from harness import wait_for  # noqa: E402

PART = sys.argv[1]
SHOUTAND, PLUGINS, RULESETS = map(os.path.abspath, sys.argv[2:5])
# Every daemon the test starts has MARKER=its work directory in its environment, so that one lost
# (detached, its socket not where expected) is still found and stopped.
MARKER = "SHOUTAND_START_TEST"
SKIPPED = 77  # meson's exit status for a test that cannot run here
check = harness.Checks()
# A game any worker can score: its request needs a worker, never the reply cache.
GAME = {"size": 5, "setup": {"black": ["B1", "B2", "B3", "B4", "B5"],
                             "white": ["C1", "C2", "C3", "C4", "C5"]},
        "moves": ["B pass", "W pass"], "handicap": 0}
def call(path, method, params=None, timeout=5):
    """One request on a new connection; the reply, or an exception's text."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(path)
            req = {"jsonrpc": "2.0", "id": 1, "method": method}
            if params is not None:
                req["params"] = params
            s.sendall(json.dumps(req).encode() + b"\n")
            buf = b""
            while b"\n" not in buf:
                chunk = s.recv(65536)
                if not chunk:
                    return "closed without a reply"
                buf += chunk
            return json.loads(buf.split(b"\n", 1)[0])
    except (OSError, ValueError) as e:
        return "%s: %s" % (type(e).__name__, e)


def ruleset_names(path):
    reply = call(path, "rulesets")
    if not isinstance(reply, dict) or "result" not in reply:
        return reply
    return sorted(r["name"] for r in reply["result"]["rulesets"])


def processes_running(marker):
    """Pids of the processes whose environment has MARKER=marker (this test's own)."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open("/proc/%s/environ" % pid, "rb") as f:
                    if (MARKER + "=" + marker).encode() in f.read().split(b"\0"):
                        found.append(int(pid))
            except OSError:
                pass
    return found


def stop_all(marker):
    """Ends every daemon this test started, even one that detached and lost its socket."""
    for pid in processes_running(marker):
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:
            pass
    if not wait_for(lambda: not processes_running(marker)):
        for pid in processes_running(marker):
            os.kill(pid, signal.SIGKILL)


def children(pid):
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open("/proc/%s/stat" % p) as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(p))
            except (OSError, IndexError, ValueError):
                pass
    return out


def proc_status(pid):
    fields = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.split()
    return fields


def make_tree(work, rulesets=("chinese",)):
    """Copies of the plugins and some rulesets, readable by every account (the dropped workers'
    among them): the build tree may be in a directory only root can enter."""
    plugins = os.path.join(work, "plugins")
    rules = os.path.join(work, "rulesets")
    os.mkdir(plugins)
    os.mkdir(rules)
    for name in os.listdir(PLUGINS):
        if name.endswith(".so"):
            shutil.copy(os.path.join(PLUGINS, name), plugins)
    for name in rulesets:
        shutil.copy(os.path.join(RULESETS, name + ".yaml"), rules)
    for d, _, files in os.walk(work):
        os.chmod(d, 0o755)
        for f in files:
            os.chmod(os.path.join(d, f), 0o644)
    return plugins, rules


def config_error_tests(work):
    """A configuration that is not YAML is reported as a ruleset that is not: file, line,
    column, and libyaml's problem with its context."""
    path = os.path.join(work, "bad.yaml")
    with open(path, "w") as f:
        f.write("workers: [1\n")
    out = subprocess.run([SHOUTAND, "-n", "-c", path], capture_output=True, text=True,
                         timeout=20)
    check("a configuration that is not YAML: position, problem and context",
          out.returncode == 1 and "bad.yaml:2:1: YAML error: did not find expected ',' or ']' "
          "while parsing a flow sequence" in out.stderr, out.stderr)


def paths_tests(work):
    """Relative paths hold after detaching (cwd "/") and on SIGHUP: -c from the working
    directory, paths inside the file from the file's own directory."""
    etc = os.path.join(work, "etc")
    os.mkdir(etc)
    config_error_tests(work)
    plugins, _ = make_tree(etc)
    os.mkdir(os.path.join(etc, "rs"))
    shutil.copy(os.path.join(RULESETS, "chinese.yaml"), os.path.join(etc, "rs"))
    with open(os.path.join(etc, "shoutand.yaml"), "w") as f:
        f.write("socket: run/start-test.sock\nplugins_dir: %s\nrulesets_dir: rs\nworkers: 1\n"
                % os.path.relpath(plugins, etc))
    sock = os.path.join(etc, "run", "start-test.sock")
    # From another directory, the paths inside the file are still the file's.
    out = subprocess.run([SHOUTAND, "-n", "-c", "etc/shoutand.yaml"], cwd=work,
                         capture_output=True, text=True, timeout=20)
    check("-n: paths in the file are taken from the file's directory",
          out.returncode == 0 and ("socket %s)" % sock) in out.stdout, out.stdout + out.stderr)
    # The case that passed -n and then failed once detached into "/": run from the file's
    # directory, every path relative.
    out = subprocess.run([SHOUTAND, "-n", "-c", "shoutand.yaml"], cwd=etc,
                         capture_output=True, text=True, timeout=20)
    check("-n with a relative -c and relative paths", out.returncode == 0, out.stderr)
    out = subprocess.run([SHOUTAND, "-c", "shoutand.yaml"], cwd=etc,
                         capture_output=True, text=True, timeout=20)
    check("detached start with a relative -c", out.returncode == 0, out.stderr)
    check("the socket is where the file says, from the file's directory",
          wait_for(lambda: os.path.exists(sock)), os.listdir(etc))
    names = ruleset_names(sock)
    check("the detached daemon's workers load the rulesets of the relative rulesets_dir",
          names == ["chinese"], names)
    status = call(sock, "status")
    pid = status.get("result", {}).get("daemon_pid") if isinstance(status, dict) else None
    check("status names the daemon's pid", isinstance(pid, int), status)
    if not isinstance(pid, int):
        return
    shutil.copy(os.path.join(RULESETS, "japanese.yaml"), os.path.join(etc, "rs"))
    os.kill(pid, signal.SIGHUP)
    check("SIGHUP re-reads the relative -c and its relative rulesets_dir",
          wait_for(lambda: ruleset_names(sock) == ["chinese", "japanese"]), ruleset_names(sock))
    os.kill(pid, signal.SIGTERM)
    check("the detached daemon stops on SIGTERM", wait_for(lambda: not os.path.exists(sock)))


def start(args, cwd=None):
    return subprocess.Popen([SHOUTAND, "-f"] + args, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def run_refused(args):
    """Runs a daemon in the foreground that should refuse to start: (exit status, output);
    status None if it started instead (it is stopped)."""
    proc = start(args)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGTERM)
        return None, "still running after 10 s: " + proc.communicate(timeout=10)[0]
    return proc.returncode, proc.stdout.read()


def socket_tests(work):
    """The socket path is reclaimed only from a socket that nobody answers on."""
    plugins, rulesets = make_tree(work)
    config = os.path.join(work, "shoutand.yaml")
    with open(config, "w") as f:
        f.write("plugins_dir: %s\nrulesets_dir: %s\nworkers: 1\n" % (plugins, rulesets))
    path = os.path.join(work, "f")
    with open(path, "w") as f:
        f.write("data\n")
    status, log = run_refused(["-c", config, "-s", path])
    kept = open(path).read() if os.path.isfile(path) else None
    check("a regular file at the socket path is kept", kept == "data\n", kept)
    check("and the daemon refuses, naming the path and what is there",
          status == 1 and (path + " is a regular file, not a socket") in log, log)
    out = subprocess.run([SHOUTAND, "-c", config, "-s", path], capture_output=True, text=True,
                         timeout=20)
    kept = open(path).read() if os.path.isfile(path) else None
    check("started detached, it refuses before detaching: status 1 and the reason on stderr",
          out.returncode == 1 and (path + " is a regular file, not a socket") in out.stderr and
          kept == "data\n", (out.returncode, out.stderr, kept))
    if os.path.lexists(path):
        os.unlink(path)
    os.mkdir(path)
    status, log = run_refused(["-c", config, "-s", path])
    check("a directory at the socket path is refused and kept",
          status == 1 and (path + " is a directory") in log and os.path.isdir(path), log)
    os.rmdir(path)
    # A socket file that nobody listens on is stale: it is removed and the daemon starts.
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(path)
    stale.close()
    first = start(["-c", config, "-s", path])
    check("a stale socket is removed and served",
          wait_for(lambda: isinstance(call(path, "version"), dict)), call(path, "version"))
    # A live daemon's socket is refused and keeps serving.
    status, log = run_refused(["-c", config, "-s", path])
    check("a live daemon's socket is refused", status == 1 and
          ("already serving " + path) in log, log)
    check("and the live daemon still serves", isinstance(call(path, "version"), dict))
    first.send_signal(signal.SIGTERM)
    log = first.communicate(timeout=10)[0]
    check("the stale socket's removal is logged", "removed a stale socket" in log, log)
    publish_tests(work, config)


def directory_events(fd, timeout):
    """The (mask, name) inotify events on fd within timeout seconds."""
    import select
    import struct
    events = []
    end = time.time() + timeout
    while time.time() < end:
        if not select.select([fd], [], [], max(0.0, end - time.time()))[0]:
            break
        data = os.read(fd, 65536)
        at = 0
        while at < len(data):
            _, mask, _, size = struct.unpack_from("iIII", data, at)
            name = data[at + 16:at + 16 + size].rstrip(b"\0").decode()
            events.append((mask, name))
            at += 16 + size
        if any(name == "p.sock" for _, name in events):
            break
    return events


def publish_tests(work, config):
    """The socket path appears only once the daemon listens on it: a client that sees the file
    (a script waiting for it, a service manager) connects, never meeting a bound socket that
    does not listen yet.  The daemon binds under a staging name and renames it into place."""
    import ctypes
    IN_CREATE, IN_MOVED_TO = 0x100, 0x80
    libc = ctypes.CDLL(None, use_errno=True)
    room = os.path.join(work, "publish")
    os.mkdir(room)
    fd = libc.inotify_init1(os.O_CLOEXEC)
    if fd < 0 or libc.inotify_add_watch(fd, room.encode(), IN_CREATE | IN_MOVED_TO) < 0:
        check("inotify watches the socket's directory", False, ctypes.get_errno())
        return
    path = os.path.join(room, "p.sock")
    daemon = start(["-c", config, "-s", path])
    try:
        events = directory_events(fd, 10)
        arrived = [mask for mask, name in events if name == "p.sock"]
        answered = call(path, "version") if arrived else None
        check("the socket path arrives by a rename, not a bind",
              arrived == [IN_MOVED_TO], events)
        check("a client connecting the moment it appears is served",
              isinstance(answered, dict) and "result" in answered, answered)
        check("no staging name is left beside it", os.listdir(room) == ["p.sock"],
              os.listdir(room))
    finally:
        os.close(fd)
        daemon.send_signal(signal.SIGTERM)
        daemon.communicate(timeout=10)


def filter_tests(work):
    """Under the system call filter (on by default, root or not), a worker decodes records in
    every character set it is sent: iconv's converters for those lib/charset.c maps to are
    loaded before the filter, and any other fails to load (EACCES) instead of killing it."""
    plugins, rulesets = make_tree(work)
    sock = os.path.join(work, "s.sock")
    config = os.path.join(work, "shoutand.yaml")
    with open(config, "w") as f:
        f.write("plugins_dir: %s\nrulesets_dir: %s\nworkers: 1\n" % (plugins, rulesets))
    daemon = start(["-c", config, "-s", sock])
    try:
        check("the daemon starts", wait_for(lambda: isinstance(call(sock, "version"), dict)))
        workers = children(daemon.pid)
        check("its worker is under the filter", len(workers) == 1 and
              proc_status(workers[0])["Seccomp"] == ["2"], workers)
        for charset in ("GB2312", "GBK", "Shift_JIS", "EUC-KR", "Big5", "EUC-JP",
                        "ISO-8859-1", "KOI8-R", "x-no-such"):
            sgf = "(;SZ[9]CA[%s]C[\u00ff\u4e2d];B[aa])" % charset
            reply = call(sock, "score", {"ruleset": "chinese", "dead": "none",
                                         "game": {"sgf": sgf}})
            check("CA[%s] is answered, not by a dead worker" % charset,
                  isinstance(reply, dict) and "result" in reply, reply)
    finally:
        daemon.send_signal(signal.SIGTERM)
        log = daemon.communicate(timeout=10)[0]
    check("no worker died", "killed by signal" not in log, log)


def privileges_tests(work):
    """Started as root with `user`, the workers run as that account, without a way back, and
    under the system call filter; the parent keeps root and serves."""
    account = pwd.getpwnam("nobody")
    plugins, rulesets = make_tree(work, ("chinese", "japanese"))
    sock = os.path.join(work, "s.sock")
    config = os.path.join(work, "shoutand.yaml")
    with open(config, "w") as f:
        f.write("plugins_dir: %s\nrulesets_dir: %s\nworkers: 2\nuser: nobody\n"
                % (plugins, rulesets))
    daemon = start(["-c", config, "-s", sock])
    try:
        check("the daemon starts with user: nobody",
              wait_for(lambda: isinstance(call(sock, "version"), dict)), call(sock, "version"))
        reply = call(sock, "score", {"ruleset": "chinese", "game": GAME, "dead": "none"})
        check("a worker running as nobody scores a game", isinstance(reply, dict) and
              "result" in reply, reply)
        for generation in ("first", "after SIGHUP"):
            workers = children(daemon.pid)
            check("%s: two workers" % generation, len(workers) == 2, workers)
            for pid in workers:
                st = proc_status(pid)
                uid, gid = str(account.pw_uid), str(account.pw_gid)
                check("%s: worker's uids are nobody's" % generation, st["Uid"] == [uid] * 4,
                      st["Uid"])
                check("%s: worker's gids are nobody's" % generation, st["Gid"] == [gid] * 4,
                      st["Gid"])
                check("%s: worker's only group is nobody's" % generation,
                      st["Groups"] == [gid], st["Groups"])
                check("%s: worker has no capabilities" % generation,
                      int(st["CapEff"][0], 16) == 0 and int(st["CapPrm"][0], 16) == 0,
                      st["CapEff"] + st["CapPrm"])
                check("%s: worker has no_new_privs" % generation, st["NoNewPrivs"] == ["1"],
                      st["NoNewPrivs"])
                check("%s: worker is under a seccomp filter" % generation,
                      st["Seccomp"] == ["2"], st["Seccomp"])
            if generation == "first":
                old = set(workers)
                os.kill(daemon.pid, signal.SIGHUP)
                wait_for(lambda: not old & set(children(daemon.pid)) and
                         len(children(daemon.pid)) == 2)
        parent = proc_status(daemon.pid)
        check("the parent keeps root", parent["Uid"] == ["0"] * 4, parent["Uid"])
        reply = call(sock, "score", {"ruleset": "japanese", "game": GAME, "dead": "none"})
        check("the new generation serves", isinstance(reply, dict) and "result" in reply, reply)
    finally:
        daemon.send_signal(signal.SIGTERM)
        log = daemon.communicate(timeout=10)[0]
    check("no worker died", "killed by signal" not in log and "cannot start" not in log, log)
    # The switch that leaves the filter out (for a system whose C library needs a call the
    # filter lacks) leaves it out and nothing else.
    with open(config, "a") as f:
        f.write("worker_seccomp: false\n")
    daemon = start(["-c", config, "-s", sock])
    try:
        wait_for(lambda: isinstance(call(sock, "version"), dict))
        workers = children(daemon.pid)
        st = [proc_status(pid) for pid in workers]
        check("worker_seccomp: false: no filter, still nobody", workers and
              all(s["Seccomp"] == ["0"] and s["Uid"][0] == str(account.pw_uid) for s in st),
              [(s["Seccomp"], s["Uid"]) for s in st])
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.communicate(timeout=10)
    # Accounts that would not confine anything, or do not exist, are errors at their line.
    for value, why in (("root", "is root"), ("no-such-account-here", "no account named")):
        with open(config, "w") as f:
            f.write("workers: 1\nuser: %s\n" % value)
        out = subprocess.run([SHOUTAND, "-n", "-c", config], capture_output=True, text=True,
                             timeout=20)
        check("user: %s is refused at its line" % value, out.returncode == 1 and
              ("shoutand.yaml:2:7: user: " in out.stderr) and why in out.stderr, out.stderr)


def main():
    if PART == "privileges" and os.geteuid() != 0:
        print("skipped: dropping privileges needs root")
        return SKIPPED
    work = tempfile.mkdtemp(prefix="shoutand-start-")
    os.environ[MARKER] = work  # inherited by every daemon started below
    try:
        {"paths": paths_tests, "socket": socket_tests, "filter": filter_tests,
         "privileges": privileges_tests}[PART](work)
    finally:
        stop_all(work)
        shutil.rmtree(work, ignore_errors=True)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
