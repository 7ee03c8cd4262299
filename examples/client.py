#!/usr/bin/env python3
"""A Shoutan client using only Python's standard library: score an SGF file through shoutand.

Usage: client.py SOCKET GAME.sgf [RULESET]
"""
import json
import socket
import sys


def call(path, method, params, request_id=1):
    """Sends one JSON-RPC request on its own line and reads the one-line reply."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(path)
        request = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        s.sendall(json.dumps(request).encode("utf-8") + b"\n")
        reply = b""
        while not reply.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                raise ConnectionError("shoutand closed the connection")
            reply += chunk
    return json.loads(reply)


def main():
    path, game_file = sys.argv[1], sys.argv[2]
    with open(game_file, encoding="utf-8", errors="replace") as f:
        sgf = f.read()
    params = {"game": {"sgf": sgf}, "dead": "auto"}
    if len(sys.argv) > 3:
        params["ruleset"] = sys.argv[3]
    reply = call(path, "score", params)
    if "error" in reply:
        print("error %d: %s" % (reply["error"]["code"], reply["error"]["message"]),
              file=sys.stderr)
        return 1
    score = reply["result"]
    print("%s: %s (%s), %s" % (score["ruleset"], score["text"], score["re"],
                               score["native"]["text"]))
    for note in score["notes"]:
        print("note: " + note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
