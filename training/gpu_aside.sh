#!/usr/bin/env bash
# Set large files a training call does not read aside from what a device call sends, and put them back:
# the encoder's model.onnx (44 MB) and the three largest benchmark files (3 MB; the tracked tree grew to 54 MB,
# and with .gpu/data.npz, 13 MB, the two no longer fit the 64 MiB limit without them).
#   bash training/gpu_aside.sh on    # untracked in the index and ignored (.git/info/exclude); the files stay
#   bash training/gpu_aside.sh off   # tracked again, as committed
set -euo pipefail
cd "$(dirname "$0")/.."
FILES=(guardrail/models/encoder/model.onnx benchmarks/results/default_scores.json
       benchmarks/data/gga_items_qwen05b.jsonl benchmarks/data/kb/facts.jsonl)
EX=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$EX")" && touch "$EX"
for F in "${FILES[@]}"; do
  case "${1:-}" in
    on)  git rm --cached -q "$F"; grep -qx "/$F" "$EX" || echo "/$F" >> "$EX" ;;
    off) git reset -q -- "$F"; sed -i "\#^/$F\$#d" "$EX" ;;
    *)   echo "usage: $0 on|off" >&2; exit 2 ;;
  esac
done
git status --short -- "${FILES[@]}"
