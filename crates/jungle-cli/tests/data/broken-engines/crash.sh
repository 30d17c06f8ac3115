#!/bin/sh
# A deliberately broken engine for the jungle match tests: it handshakes like a real one, then exits (status 3) when asked to move.
while read -r line; do
  case "$line" in
    uci) echo "id name crash"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) exit 3 ;;
    quit) exit 0 ;;
  esac
done
