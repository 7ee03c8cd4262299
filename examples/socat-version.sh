#!/bin/sh
# The shell one-liner: ask a running shoutand for its version with socat.
# Usage: socat-version.sh SOCKET
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"version"}' | socat -t 5 - UNIX-CONNECT:"$1"
