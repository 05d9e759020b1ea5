#!/usr/bin/env bash
# Set the encoder's model.onnx (44 MB) aside from what a device call sends, and put it back.
#   bash training/gpu_aside.sh on    # untracked in the index and ignored (.git/info/exclude); the file stays
#   bash training/gpu_aside.sh off   # tracked again, as committed
# With it aside the tree that travels is about 48 MiB, so .gpu/data.npz (13 MB) fits the 64 MiB limit.
set -euo pipefail
cd "$(dirname "$0")/.."
F=guardrail/models/encoder/model.onnx
case "${1:-}" in
  on)  git rm --cached -q "$F"; grep -qx "/$F" .git/info/exclude || echo "/$F" >> .git/info/exclude ;;
  off) git reset -q -- "$F"; sed -i "\#^/$F\$#d" .git/info/exclude ;;
  *)   echo "usage: $0 on|off" >&2; exit 2 ;;
esac
git status --short -- "$F"
