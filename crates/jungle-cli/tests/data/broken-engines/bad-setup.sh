#!/bin/sh
# A deliberately broken hidden engine for the jungle match tests: it handshakes like a real one, then answers
# every setup request with a setup that has two Lions.
while read -r line; do
  case "$line" in
    uci) echo "id name bad-setup"; echo "uciok" ;;
    isready) echo "readyok" ;;
    "hidden setup"*) echo "setup LLCDEWPR" ;;
    quit) exit 0 ;;
  esac
done
