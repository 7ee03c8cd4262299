"""Pictures of judgements (issue 15): score --svg and compare --svg on games this test writes, from
2x2 to 25x25 and rectangular, checked as SVG 1.1 (against the DTD where Debian's w3c-sgml-lib
has it), against the score object mark by mark, and rendered to PNG with rsvg-convert (where it
is installed), which must not be blank and must have the picture's size.

usage: picture_test.py SHOUTAN
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from harness import Checks, png_pixels, random_game_sgf

SHOUTAN = os.path.abspath(sys.argv[1])
SVG = "{http://www.w3.org/2000/svg}"
DTD = "/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-SVG11-20110816/svg11.dtd"
check = Checks()


def run(*args):
    p = subprocess.run([SHOUTAN] + list(args), capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def classes(root, name):
    """The elements of the picture whose class list holds name."""
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


with tempfile.TemporaryDirectory() as tmp:
    games = {
        "9x9": random_game_sgf(3, size=9, length=60),
        "19x19": random_game_sgf(4, size=19, length=200),
        "2x2": "(;GM[1]FF[4]SZ[2];B[aa];W[bb])",
        "25x25": random_game_sgf(5, size=25, length=120),
        "7x5": "(;GM[1]FF[4]SZ[7:5];B[cc];W[ec];B[cb];W[eb];B[cd];W[ed])",
    }
    for name, text in games.items():
        path = os.path.join(tmp, name + ".sgf")
        with open(path, "w") as f:
            f.write(text)
        svg = os.path.join(tmp, name + ".svg")
        rc, out, err = run("score", path, "-r", "chinese", "--svg", svg)
        rc2, out2, err2 = run("score", path, "-r", "chinese", "--json")
        rc3, out3, err3 = run("replay", path, "-r", "chinese", "--json")
        if rc != 0 or rc2 != 0 or rc3 != 0 or not os.path.exists(svg):
            check("score --svg draws the %s board" % name, False, (rc, err, rc2, err2, err3))
            continue
        score, position = json.loads(out2), json.loads(out3)["position"]
        root = ET.parse(svg).getroot()
        stones = sum(row.count("X") + row.count("O") for row in position)
        owned_empty = sum(1 for y, row in enumerate(score["ownership"]) for x, o in enumerate(row)
                          if o != "." and position[y][x] == "." and not any(
                              m["move"] == "%s%d" % ("ABCDEFGHJKLMNOPQRSTUVWXYZ"[x], len(position) - y)
                              for m in score.get("settle", [])))
        drawn_stones = len(classes(root, "b")) + len(classes(root, "w")) - \
            len(classes(root, "settle"))
        text = "".join(e.text or "" for e in root.iter(SVG + "text"))
        check("%s: one circle for each stone, a faded one for each dead stone, a numbered one "
              "for each settle move, a ring on the last stone played" % name,
              root.tag == SVG + "svg" and root.get("version") == "1.1" and
              drawn_stones == stones and len(classes(root, "dead")) == len(score["dead"]) and
              len(classes(root, "settle")) == len(score.get("settle", [])) and
              len(classes(root, "last")) == 1,
              (drawn_stones, stones, len(classes(root, "dead")), score["dead"]))
        check("%s: a territory square for each empty point the count gives an owner, the "
              "result in points and in the ruleset's notation" % name,
              len(classes(root, "tb")) + len(classes(root, "tw")) >= owned_empty and
              score["re"] in text and score["native"]["text"] in text and
              score["text"] in text, (len(classes(root, "tb")), owned_empty, text[-200:]))
        if os.path.exists(DTD) and shutil.which("xmllint"):
            v = subprocess.run(["xmllint", "--noout", "--dtdvalid", DTD, svg],
                               capture_output=True)
            check("%s: valid SVG 1.1 by the DTD (xmllint)" % name, v.returncode == 0,
                  v.stderr.decode()[:500])
        if shutil.which("rsvg-convert"):
            png = os.path.join(tmp, name + ".png")
            subprocess.run(["rsvg-convert", svg, "-o", png], check=True, timeout=60)
            width, height, colours = png_pixels(png)
            check("%s: rendered to PNG at the picture's size, not blank" % name,
                  (width, height) == (int(root.get("width")), int(root.get("height"))) and
                  len(colours) > 4, (width, height, root.get("width"), root.get("height"),
                                     len(colours)))

    # A seki without eyes (tests/data/board/seki-no-eyes.case): its stones marked with a
    # triangle, its two shared liberties ringed as seki points.
    rows = ["OX.OX.X..", "OX.OXXXXX", "OXOOX....", "OOXXX....", ".OX......", "OOX......",
            ".OX......", ".OX......", ".OX......"]
    setup = {"black": [], "white": []}
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c != ".":
                setup["black" if c == "X" else "white"].append(
                    "ABCDEFGHJ"[x] + str(9 - y))
    seki_game = os.path.join(tmp, "seki.json")
    with open(seki_game, "w") as f:
        json.dump({"size": 9, "setup": setup, "moves": ["B pass", "W pass"]}, f)
    svg = os.path.join(tmp, "seki.svg")
    rc, out, err = run("score", seki_game, "-r", "japanese", "--dead", "none", "--svg", svg)
    rc2, out2, err2 = run("score", seki_game, "-r", "japanese", "--dead", "none", "--json")
    score = json.loads(out2)
    root = ET.parse(svg).getroot()
    check("seki: a triangle on each stone in seki, a ring on each seki point",
          rc == 0 and len(score["seki"]) > 0 and
          len(classes(root, "seki")) == len(score["seki"]) and
          len(classes(root, "sekipt")) == 2, (len(classes(root, "seki")), score["seki"],
                                              len(classes(root, "sekipt"))))
    # The judge's doubts: a mark on each point it owns with less than 70% confidence.
    svg = os.path.join(tmp, "19x19.svg")
    rc, out, err = run("score", os.path.join(tmp, "19x19.sgf"), "-r", "chinese", "--json")
    doubts = sum(c < "7" for row in json.loads(out)["ownership_confidence"] for c in row)
    root = ET.parse(svg).getroot()
    check("a mark on every point the judge is unsure of", doubts > 0 and
          len(classes(root, "unsure")) == doubts, (doubts, len(classes(root, "unsure"))))

    if not os.path.exists(DTD):
        print("note: no SVG 1.1 DTD (Debian's w3c-sgml-lib): checked as XML only")
    if not shutil.which("rsvg-convert"):
        print("note: no rsvg-convert (Debian's librsvg2-bin): not rendered")

    # compare --svg: a board per ruleset, the rulesets whose winner differs framed.
    path = os.path.join(tmp, "9x9.sgf")
    svg = os.path.join(tmp, "compare.svg")
    rc, out, err = run("compare", path, "-r", "chinese,japanese,ancient,tromp-taylor", "--svg",
                       svg)
    rc2, out2, err2 = run("compare", path, "-r", "chinese,japanese,ancient,tromp-taylor",
                          "--json")
    results = json.loads(out2)["results"]
    root = ET.parse(svg).getroot()
    heads = [e.text for e in classes(root, "head")]
    first = results[0]["winner"]
    differs = [r["ruleset"] for r in results if r["winner"] != first]
    check("compare --svg: one board for each ruleset, headed by its name, the boards whose "
          "winner differs from the first ruleset's framed and saying so",
          rc == 0 and [h.split(" ")[0] for h in heads] == [r["ruleset"] for r in results] and
          len(classes(root, "differs")) == len(differs) and
          all((h.endswith("the winner differs")) == (h.split(" ")[0] in differs) for h in heads) and
          len(classes(root, "wood")) == len(results), (heads, differs))
    rc, out, err = run("compare", path, "--svg", svg)
    root = ET.parse(svg).getroot()
    rc2, out2, err2 = run("rulesets", "--json")
    check("compare --svg without -r draws every ruleset", rc == 0 and
          len(classes(root, "wood")) == len(json.loads(out2)["rulesets"]),
          (rc, err))
    rc, out, err = run("score", path, os.path.join(tmp, "2x2.sgf"), "--svg", svg)
    check("score --svg with two files is a usage error", rc == 2 and "--svg" in err, (rc, err))
    rc, out, err = run("score", path, "--svg", os.path.join(tmp, "no", "such", "dir.svg"))
    check("score --svg to a place that cannot be written: exit 1 and why",
          rc == 1 and "no/such/dir.svg" in err, (rc, err))

sys.exit(check.summary())
