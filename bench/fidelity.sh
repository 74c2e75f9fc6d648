#!/bin/sh
# SPDX-License-Identifier: MIT
# fidelity.sh: does the sweep engine time copy.c as hyperfine times the same program?
#
# usage: fidelity.sh PLAINCOPY SWEEPDRIVE
# For BUF 64, 4096 and 65536: hyperfine times bench/plaincopy (a plain copy.c, one process
# per run) and the sweep engine (bench/sweepdrive -> bench_run) times the same copy of a file
# of the same size, warm cache, alternating tool by tool for ROUNDS rounds. Prints the median
# of each and their ratio; the target is |ratio - 1| <= 5 %. Exit 77 (skip) without hyperfine.
# Rounds are paired (hyperfine then the engine, back to back), so the verdict uses the median
# of the per-round ratios: drift from other load on the machine hits both sides of a pair.
# Environment: ROUNDS (11), RUNS per tool and round (1: pairs as close in time as can be), TMPDIR.
set -eu
plaincopy=$1
sweepdrive=$2
rounds=${ROUNDS:-11}
runs=${RUNS:-1}
command -v hyperfine >/dev/null 2>&1 || { echo "fidelity: hyperfine not installed; skipped" >&2; exit 77; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/iobufviz-fidelity.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM HUP

# Each BUF gets a file big enough that its copy, not process start-up, dominates.
size_for() {
	case $1 in
	64) echo 16777216 ;;         # 16 MiB: 512 Ki read()+write() pairs
	*) echo 268435456 ;;         # 256 MiB
	esac
}

printf '%-7s %-9s %-5s %-14s %-14s %s\n' BUF size round "hyperfine" "sweep engine" ratio
summary=""
for buf in 64 4096 65536; do
	size=$(size_for "$buf")
	in="$dir/in-$buf"
	# Written in 64 KiB writes like the engine's own input: on ext4 the write size sets the
	# page-cache folio size, and a file written through a pipe in small pieces is read back
	# about 15 % slower at BUF 65536 (measured); the inputs must be alike to compare timers.
	dd if=/dev/urandom of="$in" bs=65536 count=$((size / 65536)) iflag=fullblock status=none
	sync "$in"   # its writeback must not run during the first round
	h_all="" e_all="" q_all="" hm_all="" em_all=""
	r=1
	while [ "$r" -le "$rounds" ]; do
		# hyperfine: whole processes, warm cache, output removed before each run (not timed).
		hyperfine -N --style none --warmup 1 --runs "$runs" \
			--prepare "rm -f $dir/out" --export-csv "$dir/h.csv" \
			"$plaincopy $in $dir/out $buf" >/dev/null 2>&1
		h=$(awk -F, 'NR == 2 { print $4 }' "$dir/h.csv")
		hmin=$(awk -F, 'NR == 2 { print $7 }' "$dir/h.csv")
		rm -f "$dir/out"
		# The sweep engine: forked children timing the same copy, warm cache, no scaling.
		out=$("$sweepdrive" -q -p copy -s "$size" -b "$buf" -r "$runs" -w 1 -c warm -B 100000 \
			-f median -d "$dir")
		e=$(echo "$out" | awk '{ print $2 }')
		emin=$(echo "$out" | awk '{ print $3 }')
		ratio=$(awk -v e="$e" -v h="$h" 'BEGIN { printf "%.3f", e / h }')
		printf '%-7s %-9s %-5s %-14s %-14s %s\n' "$buf" "$size" "$r" "$h" "$e" "$ratio"
		h_all="$h_all $h"
		e_all="$e_all $e"
		q_all="$q_all $ratio"
		hm_all="$hm_all $hmin"
		em_all="$em_all $emin"
		r=$((r + 1))
	done
	line=$(echo "$h_all" "|" "$e_all" "|" "$q_all" "|" "$hm_all" "|" "$em_all" | awk '
		function med(a, n,   i, j, t) {
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		function min(a, n,   i, m) { m = a[1]; for (i = 2; i <= n; i++) if (a[i] < m) m = a[i]; return m }
		{ side = 0; nh = 0; ne = 0; nq = 0; nhm = 0; nem = 0
		  for (i = 1; i <= NF; i++) {
			if ($i == "|") { side++; continue }
			if (side == 0) h[++nh] = $i; else if (side == 1) e[++ne] = $i
			else if (side == 2) q[++nq] = $i; else if (side == 3) hm[++nhm] = $i; else em[++nem] = $i
		  }
		  mh = med(h, nh); me = med(e, ne); mq = med(q, nq); rmin = min(em, nem) / min(hm, nhm)
		  printf "%.6f %.6f %.3f %.3f %.3f %s", mh, me, me / mh, mq, rmin, (mq >= 0.95 && mq <= 1.05) ? "within-5%" : "OUTSIDE-5%"
		}')
	summary="$summary$buf $line
"
done
echo
echo "medians over rounds (seconds); engine/hyperfine: ratio of those medians, median of the"
echo "paired per-round ratios (the verdict), and ratio of the fastest runs (least disturbed by load):"
printf '%-7s %-12s %-12s %-8s %-8s %-8s %s\n' BUF hyperfine "engine" "ratio" "paired" "min" verdict
printf '%s' "$summary" | while read -r buf h e ratio paired rmin verdict; do
	printf '%-7s %-12s %-12s %-8s %-8s %-8s %s\n' "$buf" "$h" "$e" "$ratio" "$paired" "$rmin" "$verdict"
done
