"""shoutan batch end to end: a folder with a broken file, an empty one, a multi-game file, a zip
and a tar.gz, scored on several workers; the order, the errors, CSV against JSON lines, standard
input's paths and JSON lines, a crashing ruleset and Ctrl-C.

usage: batch_test.py SHOUTAN PLUGINS_DIR RULESETS_DIR TEST_BUILD_DIR
"""
import csv
import io
import json
import os
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile

from harness import Checks, misbehaving, random_game_sgf as sgf, wait_for, work_tree

SHOUTAN, PLUGINS, RULESETS, TEST_BUILD = (os.path.abspath(a) for a in sys.argv[1:5])
check = Checks()


def run(args, stdin=None, cwd=None):
    p = subprocess.run([SHOUTAN, "--plugins-dir", PLUGINS, "--rulesets-dir", RULESETS] + args,
                       input=stdin, capture_output=True, cwd=cwd, timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def names(out):
    return [json.loads(line)["file"] for line in out.splitlines()]


with tempfile.TemporaryDirectory() as tmp:
    games = os.path.join(tmp, "games")
    os.makedirs(os.path.join(games, "sub"))
    files = {
        "a.sgf": sgf(1, extra="PB[Kuroda]PW[Shiroyama]DT[1850-03-01]"),
        "b-broken.sgf": "(;GM[1]SZ[9];B[ee];W[dd",
        "c-empty.sgf": "",
        # Three games; the third plays on an occupied point at its third move.
        "d-multi.sgf": sgf(2) + sgf(3, result="W+R") +
        "(;GM[1]SZ[9]RE[B+1]\n;B[cc]\n;W[gg]\n;B[cc])\n",
        "notes.txt": "not a game",
        ".hidden.sgf": sgf(4),
        "sub/g.sgf": sgf(5),
    }
    for name, text in files.items():
        with open(os.path.join(games, name), "w") as f:
            f.write(text)
    with zipfile.ZipFile(os.path.join(games, "e.zip"), "w") as z:
        z.writestr("g1.sgf", sgf(6))
        z.writestr("more/g2.sgf", sgf(7, result="W+2"))
        z.writestr("readme.txt", "not a game")
    member = sgf(8).encode()
    with tarfile.open(os.path.join(games, "f.tar.gz"), "w:gz") as t:
        info = tarfile.TarInfo("h.sgf")
        info.size = len(member)
        t.addfile(info, io.BytesIO(member))

    rules = ["-r", "chinese,japanese", "--dead", "none"]
    rc1, out1, err1 = run(["batch", "games", "-j", "1"] + rules, cwd=tmp)
    rc3, out3, err3 = run(["batch", "games", "-j", "3"] + rules, cwd=tmp)
    check("batch exits 0 when every record was written, bad ones included", rc1 == 0 and rc3 == 0,
          (rc1, err1, rc3, err3))
    check("the same lines in the same order on one worker and on three", out1 == out3,
          (out1, out3))
    expected = (["games/a.sgf"] * 2 + ["games/b-broken.sgf", "games/c-empty.sgf"] +
                ["games/d-multi.sgf"] * 6 + ["games/e.zip:g1.sgf"] * 2 +
                ["games/e.zip:more/g2.sgf"] * 2 + ["games/f.tar.gz:h.sgf"] * 2 +
                ["games/sub/g.sgf"] * 2)
    check("every game and every bad record accounted for, in the folder's order (dot files and "
          "other files skipped, archives' SGF members read)", names(out1) == expected,
          names(out1))
    rows = [json.loads(line) for line in out1.splitlines()]
    by = {(r["file"], r["tree"], r["ruleset"]): r for r in rows}
    broken = [r for r in rows if r["file"] == "games/b-broken.sgf"][0]
    check("a broken file is a bad_sgf record naming the file, its line and column",
          broken["error_kind"] == "bad_sgf" and broken["error"].startswith(
              "games/b-broken.sgf:1:") and broken["ruleset"] is None, broken)
    empty = [r for r in rows if r["file"] == "games/c-empty.sgf"][0]
    check("an empty file is a bad_sgf record", empty["error_kind"] == "bad_sgf" and
          "no SGF game tree" in empty["error"], empty)
    illegal = by[("games/d-multi.sgf", 2, "japanese")]
    check("a multi-game file gives each of its games; an illegal move names the file and line",
          [r["tree"] for r in rows if r["file"] == "games/d-multi.sgf"] == [0, 0, 1, 1, 2, 2] and
          illegal["error_kind"] == "illegal_move" and
          illegal["error"] == "games/d-multi.sgf:%d: move 3 (B C7): point is occupied" %
          ((sgf(2) + sgf(3)).count("\n") + 4), illegal)
    first = by[("games/a.sgf", 0, "chinese")]
    check("the record's own facts are in each line",
          (first["black_player"], first["white_player"], first["date"], first["recorded"],
           first["width"], first["height"]) == ("Kuroda", "Shiroyama", "1850-03-01", "B+3", 9, 9),
          first)
    for ruleset in ("chinese", "japanese"):
        rc, out, err = run(["score", "games/a.sgf", "-r", ruleset, "--dead", "none", "--json"],
                           cwd=tmp)
        score = json.loads(out)
        mine = by[("games/a.sgf", 0, ruleset)]
        want = "exact" if abs(score["margin"] - 3) < 0.01 else \
            "winner" if score["winner"] == "B" else "no"
        check("batch's %s result is the score command's" % ruleset,
              (mine["winner"], mine["margin"], mine["re"], mine["native"], mine["black_total"],
               mine["white_total"], mine["white_komi"]) ==
              (score["winner"], score["margin"], score["re"], score["native"]["text"],
               score["black"]["total"], score["white"]["total"], score["white"]["komi"]) and
              mine["agrees"] == want, (mine, score))
    resigned = by[("games/d-multi.sgf", 1, "chinese")]
    check("a resignation is compared by its winner alone",
          resigned["agrees"] == ("winner" if resigned["winner"] == "W" else "no"), resigned)
    summary = err1.strip().splitlines()[-1]
    check("the closing line counts records, games, results and each kind of error",
          summary.startswith("shoutan batch: 8 records, 8 games, 14 results (2 rulesets)") and
          summary.endswith("; 4 errors: bad_sgf 2, illegal_move 2"), summary)

    # The CSV carries the same records: its header is the JSON lines' keys, its fields their
    # values.
    rc, out_csv, err = run(["batch", "games", "--format", "csv", "-j", "2"] + rules, cwd=tmp)
    table = list(csv.reader(io.StringIO(out_csv)))
    header, body = table[0], table[1:]
    same = rc == 0 and header == list(rows[0].keys()) and len(body) == len(rows)
    for row, obj in zip(body, rows):
        for key, field in zip(header, row):
            v = obj[key]
            text = "" if v is None else v if isinstance(v, str) else json.dumps(v)
            same = same and text == field
    check("the CSV and the JSON lines carry the same records", same, (header, body[:2]))
    out_file = os.path.join(tmp, "results.csv")
    rc, out, err = run(["batch", "games", "-o", out_file] + rules, cwd=tmp)
    with open(out_file) as f:
        check("-o NAME.csv writes CSV there", rc == 0 and out == "" and f.read() == out_csv,
              (rc, out, err))
    rc, out, err = run(["batch", "games", "-o", os.path.join(tmp, "no", "such", "dir.jsonl")] +
                       rules, cwd=tmp)
    check("an output that cannot be written: exit 1 and why", rc == 1 and "no/such/dir.jsonl" in err,
          (rc, err))
    with open(os.path.join(tmp, "fake.zip"), "w") as f:
        f.write("not an archive")
    rc, out, err = run(["batch", "fake.zip", "nowhere.sgf"] + rules, cwd=tmp)
    bad = [json.loads(line) for line in out.splitlines()]
    check("an archive that cannot be read and a path that does not exist are unreadable records",
          rc == 0 and [(r["file"], r["error_kind"]) for r in bad] ==
          [("fake.zip", "unreadable"), ("nowhere.sgf", "unreadable")] and
          bad[0]["error"].startswith("fake.zip: not an archive that can be read") and
          bad[1]["error"] == "nowhere.sgf: No such file or directory", bad)
    rc, out, err = run(["batch", "games", "-r", "chinese,nonesuch"], cwd=tmp)
    check("an unknown ruleset is a usage error", rc == 2 and "unknown ruleset 'nonesuch'" in err,
          (rc, err))

    # The research summary: after the batch, or from its lines; the same text either way and
    # whatever the format, with its numbers worked out here from the rows.  Chinese counting
    # against the group tax, so that margins differ.
    summary_out = os.path.join(tmp, "summary.jsonl")
    svg = os.path.join(tmp, "summary.svg")
    taxed = ["-r", "chinese,ancient", "--dead", "none"]
    rc, text, err = run(["batch", "games", "-o", summary_out, "--summary", "--svg", svg] + taxed,
                        cwd=tmp)
    rc2, text2, err2 = run(["report", summary_out], cwd=tmp)
    rc3, text3, err3 = run(["batch", "games", "--format", "csv", "--summary"] + taxed, cwd=tmp)
    check("--summary prints the report on standard output when the records go to a file, and "
          "report gives the same from the lines; with CSV records it goes to standard error",
          rc == 0 and rc2 == 0 and rc3 == 0 and text != "" and text == text2 and
          err3.endswith(text), (text, text2, err3[-2000:]))
    with open(summary_out) as f:
        taxed_rows = [json.loads(line) for line in f]
    games = {}
    for row in taxed_rows:
        if row["winner"] is not None:
            games.setdefault((row["file"], row["tree"]), {})[row["ruleset"]] = row
    both = [g for g in games.values() if len(g) == 2]
    flips = sum(g["chinese"]["winner"] != g["ancient"]["winner"] for g in both)
    diffs = [g["ancient"]["margin"] - g["chinese"]["margin"] for g in both]
    mean = sum(diffs) / len(both)
    line = [l for l in text.splitlines() if l.startswith("chinese/ancient ")]
    check("the pair's games, winner changes and margin differences are the rows'",
          len(line) == 3 and line[0].split()[1:4] ==
          [str(len(both)), str(flips), "%.1f%%" % (100.0 * flips / len(both))] and
          line[0].split()[5] == "%+.2f" % mean and line[0].split()[8] == "%+.1f" % min(diffs) and
          line[0].split()[9] == "%+.1f" % max(diffs) and any(d != 0 for d in diffs),
          (line, len(both), flips, diffs))
    exact = sum(r["agrees"] == "exact" for r in taxed_rows if r["ruleset"] == "ancient")
    winner = sum(r["agrees"] in ("exact", "winner") for r in taxed_rows
                 if r["ruleset"] == "ancient")
    line = [l for l in text.splitlines() if l.startswith("ancient ")]
    check("each ruleset's agreement with the record is the rows'",
          len(line) == 1 and line[0].split()[6] == str(exact) and
          line[0].split()[8] == str(winner), (line, exact, winner))
    try:
        import xml.etree.ElementTree as ET
        root = ET.parse(svg).getroot()
        titles = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
        ok = root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("version") == "1.1" and \
            any(t and t.startswith("ancient \u2212 chinese") for t in titles) and \
            "Winner changes by board size" in titles
    except ET.ParseError as e:
        ok, titles = False, str(e)
    check("--svg writes one SVG 1.1 document: a histogram for the pair, the grids", ok, titles)

    # Standard input: a list of paths, and JSON lines.
    rc, out, err = run(["batch", "-"] + rules, stdin=b"games/sub/g.sgf\n\ngames/e.zip\n",
                       cwd=tmp)
    check("- reads a list of paths, one a line",
          rc == 0 and out.splitlines() == [l for l in out1.splitlines()
                                           if '"games/sub/g.sgf"' in l] +
          [l for l in out1.splitlines() if '"games/e.zip:' in l], out)
    lines = [json.dumps({"file": "games/a.sgf", "sgf": files["a.sgf"]}),
             json.dumps({"file": "games/d-multi.sgf", "sgf": files["d-multi.sgf"], "tree": 1}),
             json.dumps({"size": 9, "moves": ["B E5", "W C3"]}),
             "{not json",
             json.dumps({"file": "games/d-multi.sgf", "sgf": files["d-multi.sgf"], "tree": 7})]
    rc, out, err = run(["batch", "--stdin-jsonl"] + rules, stdin=("\n".join(lines) + "\n").encode(),
                       cwd=tmp)
    got = out.splitlines()
    check("--stdin-jsonl: an {\"sgf\"} line gives the lines batch gives for its file",
          rc == 0 and got[:2] == out1.splitlines()[:2], got[:2])
    check("--stdin-jsonl: \"tree\" picks one game",
          got[2:4] == [l for l in out1.splitlines() if '"games/d-multi.sgf","tree":1,' in l],
          got[2:4])
    game_line = json.loads(got[4])
    check("--stdin-jsonl: a JSON game object, named by its line", game_line["file"] == "-:3" and
          game_line["width"] == 9 and game_line["black_stones"] == 1 and game_line["tree"] is None,
          game_line)
    bad = json.loads(got[6])
    check("--stdin-jsonl: a line that is not JSON is an invalid_game record naming its line",
          len(got) == 8 and bad["file"] == "-:4" and bad["error_kind"] == "invalid_game" and
          bad["error"].startswith("-:4:1:"), got[6:])
    missing = json.loads(got[7])
    check("--stdin-jsonl: a game tree the record does not hold is an error record",
          missing["error"] == "games/d-multi.sgf: no game tree 7: the record holds 3", missing)

    # A ruleset whose plugin crashes: each record it touches is an internal error line, and the
    # batch goes on with a new worker.
    work = os.path.join(tmp, "work")
    os.mkdir(work)
    plugins_dir, rulesets_dir = work_tree(work, PLUGINS, TEST_BUILD,
                                          RULESETS, {"crash.yaml": misbehaving("crash"),
                                                     "slow.yaml": misbehaving("sleep",
                                                                              sleep_ms=300)})
    cmd = [SHOUTAN, "--plugins-dir", plugins_dir, "--rulesets-dir", rulesets_dir, "batch"]
    p = subprocess.run(cmd + ["games/a.sgf", "games/sub/g.sgf", "games/e.zip", "-r", "crash",
                              "-j", "2"], capture_output=True, cwd=tmp, timeout=60)
    crashed = [json.loads(line) for line in p.stdout.decode().splitlines()]
    check("a record that crashes its worker is an internal error line; the batch goes on",
          p.returncode == 0 and len(crashed) == 4 and
          # Killed by its signal; under AddressSanitizer, which catches it, an exit status.
          all(r["error_kind"] == "internal" and "the scoring process " in r["error"] and
              "on this record" in r["error"] and
              r["error"].startswith(r["file"] + ":") for r in crashed) and
          [r["file"] for r in crashed] == ["games/a.sgf", "games/sub/g.sgf", "games/e.zip:g1.sgf",
                                           "games/e.zip:more/g2.sgf"],
          (p.returncode, crashed, p.stderr.decode()))

    # The progress bar: drawn on standard error when it is a terminal, and only then.
    import pty
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd + ["games", "-r", "chinese", "--dead", "none", "-o", os.devnull],
                         stderr=slave, cwd=tmp)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    p.wait(timeout=30)
    os.close(master)
    check("on a terminal, a progress bar: records done and in all, games, games a second",
          b"\r[########################] 8/8 records, 8 games, " in seen and b" games/s" in seen,
          seen)
    check("and none when standard error is not a terminal", "\r" not in err1 and "[" not in err1,
          err1)

    # Ctrl-C in the middle: whole lines, in order, and status 130.
    many = os.path.join(tmp, "many")
    os.mkdir(many)
    for i in range(40):
        with open(os.path.join(many, "g%02d.sgf" % i), "w") as f:
            f.write(files["a.sgf"])
    out_path = os.path.join(tmp, "interrupted.jsonl")
    p = subprocess.Popen(cmd + ["many", "-r", "slow", "-j", "2", "-o", out_path],
                         stderr=subprocess.PIPE, cwd=tmp)
    wait_for(lambda: os.path.exists(out_path) and os.path.getsize(out_path) > 0, 10)
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    try:
        rc = p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = None
    err = p.stderr.read().decode()
    with open(out_path, "rb") as f:
        data = f.read()
    written = [json.loads(line)["file"] for line in data.decode().splitlines()]
    check("Ctrl-C stops the batch with status 130, saying so",
          rc == 130 and "interrupted after" in err, (rc, err))
    check("an interrupted batch leaves whole lines, the first records in order",
          data.endswith(b"\n") and 0 < len(written) < 40 and
          written == ["many/g%02d.sgf" % i for i in range(len(written))], written)

sys.exit(check.summary())
