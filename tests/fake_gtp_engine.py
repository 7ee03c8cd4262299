#!/usr/bin/env python3
"""A scripted GTP engine for the referee-gtp tests: it answers genmove from a script, and can hang, exit or talk nonsense on cue."""
import argparse
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="Fake")
    ap.add_argument("--script", default="", help="genmove answers in order, comma-separated; then pass")
    ap.add_argument("--hang-at", type=int, default=0, help="the Nth genmove never answers")
    ap.add_argument("--exit-at", type=int, default=0, help="the Nth genmove exits with status 3")
    ap.add_argument("--garble-at", type=int, default=0, help="the Nth genmove answers without '='")
    ap.add_argument("--no-undo", action="store_true", help="refuse undo")
    ap.add_argument("--log", help="append every command received to this file")
    ap.add_argument("--handicap-answer", default="", help="the answer to fixed_handicap")
    a = ap.parse_args()
    script = [m for m in a.script.split(",") if m]
    genmoves = 0
    commands = ["protocol_version", "name", "version", "list_commands", "boardsize",
                "clear_board", "komi", "play", "genmove", "final_status_list", "quit",
                "time_settings", "time_left", "fixed_handicap", "set_free_handicap"]
    if not a.no_undo:
        commands.append("undo")
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if a.log:
            with open(a.log, "a") as f:
                f.write(line)
        cmd = words[0]
        answer = ""
        if cmd == "name":
            answer = a.name
        elif cmd == "version":
            answer = "1"
        elif cmd == "protocol_version":
            answer = "2"
        elif cmd == "list_commands":
            answer = "\n".join(commands)
        elif cmd == "genmove":
            genmoves += 1
            if genmoves == a.hang_at:
                time.sleep(3600)
            if genmoves == a.exit_at:
                sys.exit(3)
            if genmoves == a.garble_at:
                sys.stdout.write("I think D4 is nice\n\n")
                sys.stdout.flush()
                continue
            answer = script[genmoves - 1] if genmoves <= len(script) else "pass"
        elif cmd == "undo" and a.no_undo:
            sys.stdout.write("? cannot undo\n\n")
            sys.stdout.flush()
            continue
        elif cmd == "final_status_list":
            answer = ""
        elif cmd == "fixed_handicap":
            answer = a.handicap_answer
        elif cmd == "quit":
            sys.stdout.write("=\n\n")
            sys.stdout.flush()
            return
        elif cmd not in commands:
            sys.stdout.write("? unknown command\n\n")
            sys.stdout.flush()
            continue
        sys.stdout.write("= %s\n\n" % answer)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
