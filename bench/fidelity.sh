#!/bin/sh
# SPDX-License-Identifier: MIT
# fidelity.sh: does the sweep engine time copy.c the way hyperfine does? (issue 6 item 7)
# usage: fidelity.sh PLAINCOPY SWEEPDRIVE
set -eu
plaincopy=$1
sweepdrive=$2
echo "fidelity: needs hyperfine; skipped" >&2
exit 77
