#!/bin/sh
# nfc.t - btok's NFC (the normaliser of qwen3's tokenizer) against utf8proc's
# own on every code point, every composition pair and random strings of
# marks, compositions and Hangul (unit-nfc.c).
. "${0%/*}/../lib/tap.sh"
unit=$CTXBENCH_BUILD/tests/btok/unit-nfc
[ -x "$unit" ] || { fail "unit-nfc is built"; done_testing; exit 1; }
"$unit"
