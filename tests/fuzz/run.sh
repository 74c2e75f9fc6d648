#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/fuzz/run.sh BUILDDIR SRCDIR SECONDS: build the fuzz targets with clang (libFuzzer's
# coverage, AddressSanitizer, UBSan) in BUILDDIR/fuzz, seed each corpus with the bundled
# scenarios, the test fixtures and tests/export-payloads.sh's scenarios, and run each target
# for SECONDS. Exit 0: no crash, leak or undefined behaviour found, no promise of a target
# broken; 1: one was (the input is kept in BUILDDIR/fuzz/crash-*); 77: clang cannot build a
# fuzzer here (make fuzz says why). fuzz-export compiles 1 program in FUZZ_EXPORT_SAMPLE
# (default 100) with cc. FUZZ_REPLAY=1 (make fuzz-export-compile) runs no fuzzer: fuzz-export
# once over its corpus and the seeds, every program compiled with gcc and with clang.
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
seconds=${3:-60}
targets=${FUZZ_TARGETS:-fuzz-load}
cc=${FUZZ_CC:-clang}
replay=${FUZZ_REPLAY:-}
[ -z "$replay" ] || targets=fuzz-export
dir=$build/fuzz
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
mkdir -p "$dir"

# A fuzzer can be linked here (clang with libFuzzer: Debian's clang and libclang-rt-14-dev).
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d == 0 && n; }' >"$dir/probe.c"
if ! "$cc" -fsanitize=fuzzer,address,undefined -o "$dir/probe" "$dir/probe.c" >"$dir/probe.log" 2>&1; then
	echo "SKIP: fuzz: $cc cannot link a libFuzzer target (tools/install-deps installs clang and libclang-rt-14-dev): $(head -n 1 "$dir/probe.log")"
	exit 77
fi

# The library, instrumented for coverage (fuzzer-no-link) and the sanitizers, out of tree.
if [ ! -f "$dir/lib/Makefile" ]; then
	mkdir -p "$dir/lib"
	(cd "$dir/lib" && "$src/configure" CC="$cc" CFLAGS="$flags -fsanitize=fuzzer-no-link" \
		>"$dir/configure.log" 2>&1) || { echo "FAIL: fuzz: configure (see $dir/configure.log)"; exit 1; }
fi
make -C "$dir/lib" -j"$(nproc)" src/libiobufviz.a >"$dir/make.log" 2>&1 ||
	{ tail -n 20 "$dir/make.log"; echo "FAIL: fuzz: building the library"; exit 1; }
libs="$(pkg-config --libs libcyaml yaml-0.1 ncursesw) -lm"

# Seeds: every scenario in the tree (bundled lessons, test fixtures good and bad); a
# dictionary of the keys they use.
seeds=$dir/seeds
rm -rf "$seeds"
mkdir -p "$seeds"
i=0
for f in "$src"/scenarios/*.yaml "$src"/tests/*.yaml "$src"/tests/fixtures/*/*.yaml; do
	[ -f "$f" ] || continue
	cp "$f" "$seeds/$i.yaml"
	i=$((i + 1))
done
rm -rf "$dir/payloads"
sh "$src/tests/export-payloads.sh" --seeds "$dir/payloads" >/dev/null ||
	echo "fuzz: no payload seeds (tests/export-payloads.sh --seeds $dir/payloads failed)"
for f in "$dir"/payloads/*.yaml; do
	[ -f "$f" ] || continue
	cp "$f" "$seeds/$i.yaml"
	i=$((i + 1))
done
cat "$seeds"/*.yaml | grep -o '[A-Za-z_.][A-Za-z0-9_.]*:' | sort -u |
	sed 's/.*/"&"/' >"$dir/scenario.dict"

status=0
for t in $targets; do
	# The target's own checks without libFuzzer's coverage: it steers by the library's.
	"$cc" $flags -c -I"$dir/lib" -I"$src/src" -o "$dir/$t.o" "$src/tests/fuzz/$t.c" &&
	"$cc" $flags -fsanitize=fuzzer -o "$dir/$t" "$dir/$t.o" "$dir/lib/src/libiobufviz.a" $libs ||
		{ echo "FAIL: fuzz: building $t"; exit 1; }
	mkdir -p "$dir/corpus-$t"
	if [ -n "$replay" ]; then
		ccs=
		for c in gcc clang; do
			command -v "$c" >/dev/null && ccs="$ccs $c"
		done
		echo "fuzz: $t once over its corpus, every program compiled by$ccs"
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 FUZZ_EXPORT_SAMPLE=1 FUZZ_EXPORT_CC="$ccs" \
		    "$dir/$t" -runs=0 -timeout=60 -max_len=131072 -artifact_prefix="$dir/crash-$t-" \
		    "$dir/corpus-$t" "$seeds" >"$dir/$t-compile.log" 2>&1 ||
			{ tail -n 60 "$dir/$t-compile.log"; echo "FAIL: fuzz: $t: a program broke a promise"; exit 1; }
		grep -E '^#[0-9]+.*(INITED|DONE)|programs checked' "$dir/$t-compile.log" | tail -n 2
		echo "ok: fuzz: $t: every program compiles"
		continue
	fi
	echo "fuzz: $t for $seconds s ($i seeds; corpus $dir/corpus-$t)"
	# -timeout: one input may take 10 s; -rss_limit_mb: the loader's 1 MiB files and
	# libyaml's trees stay far below it; -max_len: the largest payload scenario (95 KB) is
	# not cut; the corpus grows across runs.
	if ! ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	     FUZZ_EXPORT_SAMPLE=${FUZZ_EXPORT_SAMPLE:-100} \
	     "$dir/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	        -max_len=131072 -dict="$dir/scenario.dict" -artifact_prefix="$dir/crash-$t-" \
	        -print_final_stats=1 "$dir/corpus-$t" "$seeds" >"$dir/$t.log" 2>&1; then
		tail -n 60 "$dir/$t.log"
		echo "FAIL: fuzz: $t found a crash, a leak or undefined behaviour (input: $(ls "$dir"/crash-"$t"-* 2>/dev/null | head -n 1))"
		status=1
		continue
	fi
	grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE|programs checked' "$dir/$t.log" | tail -n 3
	echo "ok: fuzz: $t: nothing found in $seconds s"
done
exit $status
