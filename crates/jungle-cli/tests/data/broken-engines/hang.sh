#!/bin/sh
# A deliberately broken engine for the jungle match tests: it handshakes like a real one, then never answers go: it keeps reading and says nothing.
while read -r line; do
  case "$line" in
    uci) echo "id name hang"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) : ;;
    quit) exit 0 ;;
  esac
done
