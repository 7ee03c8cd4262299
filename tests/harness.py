"""What the Python tests share: counting checks, a work tree of plugins and rulesets, random games
(as moves or as SGF records), waiting for a condition with a time limit, and reading a PNG's
pixels (daemon_test.py, hostile_test.py, daemon_start_test.py, batch_test.py,
batch_dask_test.py, picture_test.py, lab_test.py).
"""
import os
import random
import shutil
import struct
import time
import zlib

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


class Checks:
    """Counts checks and prints one line each; summary() is the closing line meson's log and CI
    read, "N passed, M failed"."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def __call__(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print("ok   " + name)
        else:
            self.failed += 1
            print("FAIL " + name + (": " + str(detail) if detail else ""))

    def summary(self):
        print("%d passed, %d failed" % (self.passed, self.failed))
        return 1 if self.failed else 0


def work_tree(work, plugins, test_plugins, rulesets, extra_rulesets=None):
    """plugins/ and rulesets/ under work: links to the built plugins and the test's misbehaving
    one, copies of the shipped rulesets (a test may change them and send SIGHUP), and
    extra_rulesets, {file name: YAML text}. Returns the two directories."""
    plugins_dir = os.path.join(work, "plugins")
    rulesets_dir = os.path.join(work, "rulesets")
    os.mkdir(plugins_dir)
    os.mkdir(rulesets_dir)
    for name in os.listdir(plugins):
        if name.endswith(".so"):
            os.symlink(os.path.join(plugins, name), os.path.join(plugins_dir, name))
    os.symlink(os.path.join(test_plugins, "misbehaving.so"),
               os.path.join(plugins_dir, "misbehaving.so"))
    for name in os.listdir(rulesets):
        if name.endswith(".yaml"):
            shutil.copy(os.path.join(rulesets, name), rulesets_dir)
    for name, text in (extra_rulesets or {}).items():
        with open(os.path.join(rulesets_dir, name), "w") as f:
            f.write(text)
    return plugins_dir, rulesets_dir


def misbehaving(action, **parameters):
    """The YAML of a ruleset of the test plugin that misbehaves in one way (crash, sleep, ...)."""
    lines = ["plugin: misbehaving", "parameters:", "  action: " + action]
    lines += ["  %s: %s" % kv for kv in parameters.items()]
    return "\n".join(lines) + "\n"


def wait_for(predicate, seconds=5.0):
    """True as soon as predicate() is; its last answer once the time is up."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def random_game(size=19, length=250, seed=11):
    """A legal game between two random players (captures, no suicide, simple ko) who never fill
    their own eyes, then two passes: on 19x19 it leaves many unsettled chains, so that
    dead: "auto" has work to do (~100 ms)."""
    rng = random.Random(seed)
    board = {}

    def neighbours(p):
        x, y = p
        for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= q[0] < size and 0 <= q[1] < size:
                yield q

    def chain(p):
        colour, seen, todo, libs = board[p], {p}, [p], set()
        while todo:
            for q in neighbours(todo.pop()):
                c = board.get(q)
                if c is None:
                    libs.add(q)
                elif c == colour and q not in seen:
                    seen.add(q)
                    todo.append(q)
        return seen, libs

    moves, colour, ko = [], "B", None
    for _ in range(length):
        other = "W" if colour == "B" else "B"
        empties = [(x, y) for x in range(size) for y in range(size) if (x, y) not in board]
        rng.shuffle(empties)
        played = None
        for p in empties:
            if p == ko or all(board.get(q) == colour for q in neighbours(p)):
                continue
            board[p] = colour
            taken = set()
            for q in neighbours(p):
                if board.get(q) == other:
                    stones, libs = chain(q)
                    if not libs:
                        taken |= stones
            for q in taken:
                del board[q]
            stones, libs = chain(p)
            if not libs:  # suicide: take it back and try another point
                del board[p]
                for q in taken:
                    board[q] = other
                continue
            ko = next(iter(taken)) if len(taken) == 1 and len(stones) == 1 and len(libs) == 1 \
                else None
            played = p
            break
        if played is None:
            ko = None
        moves.append(colour + " " + ("pass" if played is None else
                                     COLUMNS[played[0]] + str(played[1] + 1)))
        colour = other
    moves += [colour + " pass", ("W" if colour == "B" else "B") + " pass"]
    return {"size": size, "moves": moves}


def random_game_sgf(seed, size=9, length=40, result="B+3", extra=""):
    """random_game as an SGF record, with its RE and any other root properties (extra)."""
    game = random_game(size=size, length=length, seed=seed)
    nodes = []
    for m in game["moves"]:
        colour, vertex = m.split()
        if vertex == "pass":
            nodes.append(";%s[]" % colour)
        else:
            x = COLUMNS.index(vertex[0])
            y = size - int(vertex[1:])
            nodes.append(";%s[%s%s]" % (colour, chr(97 + x), chr(97 + y)))
    return "(;GM[1]FF[4]SZ[%d]KM[6.5]RE[%s]%s\n%s)\n" % (size, result, extra, "\n".join(nodes))


def png_pixels(path):
    """Width, height and the distinct pixels (some of them) of a PNG rsvg-convert wrote (8-bit
    RGB or RGBA, filters undone row by row)."""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat, width, height, bpp = 8, b"", 0, 0, 4
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), (depth, colour)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * bpp
    prev, seen = bytearray(stride), set()
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for i in range(0, stride, bpp * 7):
            seen.add(bytes(line[i:i + bpp]))
        prev = line
    return width, height, seen
