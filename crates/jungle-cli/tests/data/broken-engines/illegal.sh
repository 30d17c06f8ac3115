#!/bin/sh
# A deliberately broken engine for the jungle match tests: it handshakes like a real one, then answers every go with the impossible move a1a9.
while read -r line; do
  case "$line" in
    uci) echo "id name illegal"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) echo "bestmove a1a9" ;;
    quit) exit 0 ;;
  esac
done
