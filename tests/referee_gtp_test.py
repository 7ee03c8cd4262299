"""shoutan referee-gtp end to end: GNU Go against itself at level 1 on 9x9 under chinese and
japanese (the SGF written replays with no illegal move, and its result is what shoutan score
gives of it), and scripted engines (tests/fake_gtp_engine.py) that play an illegal move, hang,
exit, or answer nonsense, each handled as the ruleset says while the match goes on.

usage: referee_gtp_test.py SHOUTAN PLUGINS_DIR RULESETS_DIR
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from harness import Checks

SHOUTAN, PLUGINS, RULESETS = (os.path.abspath(a) for a in sys.argv[1:4])
FAKE = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                     "fake_gtp_engine.py")]
GNUGO = shutil.which("gnugo") or ("/usr/games/gnugo" if os.path.exists("/usr/games/gnugo")
                                  else None)
check = Checks()


def shoutan(args, cwd):
    p = subprocess.run([SHOUTAN, "--plugins-dir", PLUGINS, "--rulesets-dir", RULESETS] + args,
                       capture_output=True, text=True, cwd=cwd, timeout=300)
    return p.returncode, p.stdout, p.stderr


def match(options, black, white, cwd):
    """Runs a match with --json; its report, or None (the failure checked)."""
    code, out, err = shoutan(["referee-gtp", "--json", "--compact"] + options + ["--"] + black +
                             ["--"] + white, cwd)
    if code != 0:
        check("referee-gtp %s runs" % " ".join(options), False, err)
        return None
    return json.loads(out)


def score_of(ruleset, game, cwd):
    """shoutan score of a written game with the dead stones the referee counted."""
    dead = ",".join(game.get("dead", [])) or "none"
    code, out, err = shoutan(["score", "-r", ruleset, "--dead", dead, "--json", "--compact",
                              game["sgf"]], cwd)
    return json.loads(out) if code == 0 else {"error": err}


def sgf_text(cwd, game):
    with open(os.path.join(cwd, game["sgf"])) as f:
        return f.read()


with tempfile.TemporaryDirectory() as tmp:
    # ---- GNU Go against itself ----
    if GNUGO is None:
        print("skip GNU Go matches: gnugo is not installed")
    else:
        # A fixed seed: GNU Go otherwise seeds from the clock, and a game it resigns (it may,
        # at level 1) is not the counted game these checks are about.
        engine = [GNUGO, "--mode", "gtp", "--level", "1", "--seed", "1"]
        for ruleset in ("chinese", "japanese"):
            r = match(["-r", ruleset, "--size", "9", "--games", "2", "--alternate", "--sgf",
                       "gg-" + ruleset], engine, engine, tmp)
            if r is None:
                continue
            check("%s: two games reported" % ruleset, len(r["games"]) == 2, r)
            check("%s: the engines changed colours" % ruleset,
                  [g["black_engine"] for g in r["games"]] == [1, 2])
            for g in r["games"]:
                text = sgf_text(tmp, g)
                check("%s game %d: the SGF carries RE, RU and both players" % (ruleset, g["game"]),
                      "RE[%s]" % g["re"] in text and "RU[%s]" % ruleset in text and
                      "PB[GNU Go" in text and "PW[GNU Go" in text, text[:300])
                code, out, err = shoutan(["replay", "-r", ruleset, "--json", "--compact",
                                          g["sgf"]], tmp)
                replay = json.loads(out) if code == 0 else {}
                check("%s game %d: the SGF replays with no illegal move" % (ruleset, g["game"]),
                      code == 0 and all(m.get("verdict") == "ok"
                                        for m in replay.get("moves", [])), err or out[:300])
                check("%s game %d: ended by two passes and counted" % (ruleset, g["game"]),
                      g["how"] == "counting" and text.rstrip().endswith(")"), g)
                s = score_of(ruleset, g, tmp)
                check("%s game %d: the result is shoutan score's of the SGF (%s)" %
                      (ruleset, g["game"], g["re"]), s.get("re") == g["re"], s)
            wins = sum(e["wins"] for e in r["engines"])
            check("%s: the table counts every decided game" % ruleset,
                  wins == sum(1 for g in r["games"] if g["re"][0] in "BW"), r["engines"])
            check("%s: wins split by colour add up" % ruleset,
                  all(e["black_wins"] + e["white_wins"] == e["wins"] and
                      e["black_games"] + e["white_games"] == e["games"] for e in r["engines"]))

        # A clock that runs out of main time: the record keeps it, and the referee method
        # reads the record's clock back to the same outcome.
        r = match(["-r", "japanese", "--size", "9", "--clock",
                   "type=byo-yomi,main=300ms,periods=3,period=2s", "--sgf", "gg-clock"],
                  engine, engine, tmp)
        if r is not None:
            g = r["games"][0]
            text = sgf_text(tmp, g)
            check("a timed game records TM, OT and the time left after each move",
                  "TM[0.300]" in text and "OT[3x2.000 byo-yomi]" in text and "BL[" in text and
                  "WL[" in text, text[:400])
            check("the record says when overtime began",
                  "Clock: main time is over: byo-yomi, 3 periods." in text, text)
            code, out, err = shoutan(["referee", "-r", "japanese", "--dead",
                                      ",".join(g.get("dead", [])) or "none", "--json",
                                      "--compact", g["sgf"]], tmp)
            ruled = json.loads(out) if code == 0 else {}
            check("shoutan referee rules the written game, clock included, to the same result",
                  ruled.get("outcome", {}).get("re") == g["re"] and
                  any("clock" in e for e in ruled.get("events", [])), err or out[:300])

    # ---- an illegal move: suicide at A1, void under chinese, a loss under japanese ----
    black = FAKE + ["--name", "FB", "--script", "A2,B1"]
    white = FAKE + ["--name", "FW", "--script", "E5,A1"]
    r = match(["-r", "chinese", "--size", "9", "--sgf", "sui-zh"], black, white, tmp)
    if r is not None:
        g = r["games"][0]
        text = sgf_text(tmp, g)
        check("chinese: a suicide is void and the game goes on to a count",
              g["how"] == "counting" and "White played A1: void" in text, text)
        check("chinese: the void move is written as a pass", ";W[]C[White played A1" in text, text)
        s = score_of("chinese", g, tmp)
        check("chinese: shoutan score of the record agrees", s.get("re") == g["re"], s)
    log = os.path.join(tmp, "undo.log")
    r = match(["-r", "chinese", "--size", "9", "--sgf", "sui-undo"], black,
              FAKE + ["--name", "FW", "--script", "E5,A1", "--no-undo", "--log", log], tmp)
    if r is not None:
        with open(log) as f:
            commands = f.read().split("\n")
        check("an engine that cannot undo gets the game again from clear_board",
              commands.count("clear_board") == 2 and "play white E5" in commands and
              r["games"][0]["how"] == "counting", commands)
    r = match(["-r", "japanese", "--size", "9", "--sgf", "sui-ja"], black, white, tmp)
    if r is not None:
        g = r["games"][0]
        check("japanese: a suicide loses the game", g["re"] == "B+F" and "suicide" in g["reason"],
              g)
        s = score_of("japanese", g, tmp)
        check("japanese: shoutan score of the record agrees", s.get("re") == "B+F", s)

    # ---- resignation ends the game ----
    r = match(["-r", "chinese", "--size", "9", "--sgf", "resign"],
              FAKE + ["--script", "C3,resign"], FAKE + ["--script", "D4"], tmp)
    if r is not None:
        g = r["games"][0]
        check("an engine that resigns loses by resignation",
              g["re"] == "W+R" and g["how"] == "resignation" and
              "Black resigns." in sgf_text(tmp, g), g)

    # ---- a long cycle: a triple ko (three kos, each side taking in turn) ----
    # Setup moves build the kos at the top left, bottom left and bottom right; then Black
    # takes C8, White C2, Black H2, White retakes B8, Black B2, White G2: the start again.
    setup_b = "B9,A8,B7,C3,B2,D2,C1,G3,F2,G1,E5"
    setup_w = "C9,B8,D8,C7,B3,A2,B1,H3,G2,J2,H1"
    r = match(["-r", "japanese", "--size", "9", "--sgf", "cycle"],
              FAKE + ["--script", setup_b + ",C8,H2,B2" * 3],
              FAKE + ["--script", setup_w + ",C2,B8,G2" * 3], tmp)
    if r is not None:
        g = r["games"][0]
        check("a triple ko ends in no result under the Japanese rules (a state a third time)",
              g["re"] == "Void" and g["how"] == "no_result" and g["moves"] == 34 and
              "repeats an earlier position" in g["reason"], g)
        code, out, err = shoutan(["replay", "-r", "japanese", "--json", "--compact", g["sgf"]],
                                 tmp)
        check("the record replays to the same end",
              code == 0 and json.loads(out)["end"]["state"] == "no_result", err or out[:300])

    # ---- an engine that hangs: killed, it loses, and the match goes on ----
    r = match(["-r", "chinese", "--size", "9", "--games", "2", "--timeout", "1", "--sgf",
               "hang"], FAKE + ["--script", "C3,D4"], FAKE + ["--hang-at", "1"], tmp)
    if r is not None:
        check("a hanging engine loses each game, and the match plays both",
              [g["re"] for g in r["games"]] == ["B+F", "B+F"] and
              all("did not answer genmove within 1.0 s" in g["reason"] for g in r["games"]),
              r["games"])
    r = match(["-r", "chinese", "--size", "9", "--clock", "type=absolute,main=1s", "--sgf",
               "flag"], FAKE + ["--script", "C3,D4"], FAKE + ["--script", "E5", "--hang-at", "2"],
              tmp)
    if r is not None:
        g = r["games"][0]
        check("with a clock, a hanging engine's flag falls", g["re"] == "B+T" and
              g["how"] == "time", g)
        check("the record keeps the clock", "TM[1.000]" in sgf_text(tmp, g) and
              "WL[" in sgf_text(tmp, g))

    # ---- an engine that exits, and one that answers nonsense ----
    r = match(["-r", "chinese", "--size", "9", "--games", "2", "--sgf", "exit"],
              FAKE + ["--exit-at", "2", "--script", "C3"], FAKE, tmp)
    if r is not None:
        check("an engine that exits loses, restarted for the next game",
              [g["re"] for g in r["games"]] == ["W+F", "W+F"] and
              all("exited with status 3" in g["reason"] for g in r["games"]), r["games"])
    for what, args, words in (("speaks no GTP", ["--garble-at", "1"], "not GTP"),
                              ("names no point", ["--script", "Z99"], "'Z99'"),
                              ("plays an occupied point", ["--script", "C3,C3"], "occupied")):
        r = match(["-r", "chinese", "--size", "9", "--sgf", "bad"], FAKE + args,
                  FAKE + ["--script", "D4"], tmp)
        if r is not None:
            g = r["games"][0]
            check("an engine that %s loses the game" % what,
                  g["re"] == "W+F" and words in g["reason"], g)

    # ---- words that are not UTF-8-clean, a bad handicap, Ctrl-C ----
    r = match(["-r", "chinese", "--size", "9", "--sgf", "utf8"], FAKE + ["--script", "囲碁"],
              FAKE + ["--name", "Engine\tWith Tab"], tmp)
    if r is not None:
        g = r["games"][0]
        check("an engine's odd words reach the report whole (the game is not lost from it)",
              len(r["games"]) == 1 and "'囲碁'" in g["reason"] and
              r["engines"][1]["name"].startswith("Engine?With Tab"), r)
    r = match(["-r", "chinese", "--size", "9", "--handicap", "2", "--sgf", "hc"],
              FAKE + ["--handicap-answer", "C3 C3"], FAKE, tmp)
    if r is not None:
        g = r["games"][0]
        text = sgf_text(tmp, g)
        check("a handicap answer naming a point twice is Black's fault, and no handicap is "
              "recorded", g["re"] == "W+F" and "distinct points" in g["reason"] and
              "HA[" not in text and "AB[" not in text, (g, text[:200]))
    code, out, err = shoutan(["referee-gtp", "-r", "chinese", "--size", "8", "--handicap", "5"] +
                             ["--"] + FAKE + ["--"] + FAKE, tmp)
    check("a handicap GTP cannot place on the board is a usage error",
          code == 2 and "at most 4 stones" in err, err)
    marker = "ctrl-c-marker-%d" % os.getpid()
    p = subprocess.Popen([SHOUTAN, "--plugins-dir", PLUGINS, "--rulesets-dir", RULESETS,
                          "referee-gtp", "-r", "chinese", "--size", "9", "--sgf", "int", "--"] +
                         FAKE + ["--name", marker, "--hang-at", "1"] + ["--"] + FAKE,
                         cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    p.wait(timeout=30)
    time.sleep(0.3)
    left = []
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if marker.encode() in f.read():
                    left.append(pid)
        except OSError:
            pass
    check("Ctrl-C stops the referee and kills its engines", p.returncode != 0 and not left,
          (p.returncode, left))

    # ---- refusals ----
    code, out, err = shoutan(["referee-gtp", "-r", "chinese", "--", "no-such-engine-here", "--"] +
                             FAKE, tmp)
    check("an engine that cannot be run is an error naming it",
          code == 1 and "cannot run 'no-such-engine-here'" in err, err)
    code, out, err = shoutan(["referee-gtp", "-r", "chinese", "--"] + FAKE, tmp)
    check("one engine is a usage error", code == 2 and "give both engines" in err, err)

sys.exit(check.summary())
