#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/env-probe.sh: a transcript's environment names the probes its steps used, and the
# device under the scratch file, also for a lesson that makes its own file (13-3: before its
# first step there is no file to probe; the environment once said "cache_source": "none",
# and the page "page-cache probe none", beside panes that counted pages). With each probe
# this machine has: the environment's cache_source, fiemap and device equal the steps' own.
testname=env-probe
. "$(dirname "$0")/lib.sh"
need python3
probes="auto mincore"
[ -r /proc/kpageflags ] && probes="$probes kpageflags"
for probe in $probes; do
	"$bin" --headless --format=json --probe="$probe" --dir "$tmp" 13-3 >"$tmp/$probe.json" ||
		bad "13-3 --probe=$probe: exit $?"
	python3 - "$tmp/$probe.json" "$probe" <<'PY' || bad "13-3 --probe=$probe: environment"
import json, sys
d = json.load(open(sys.argv[1]))
env, probe = d["environment"], sys.argv[2]
used = {s["state"]["cache"]["source"] for s in d["steps"] if s["state"]["cache"]["source"] != "none"}
disk = {s["state"]["disk"]["source"] for s in d["steps"] if s["state"]["disk"]["source"] != "none"}
ok = True
def no(msg):
    global ok
    print("  %s: %s" % (probe, msg))
    ok = False
if len(used) != 1:
    no("the steps used cache sources %r" % sorted(used))
elif env["cache_source"] != used.pop():
    no("environment cache_source %r, the steps' %r" % (env["cache_source"], sorted(used)))
if probe != "auto" and env["cache_source"] != probe:
    no("asked for %s, environment says %r" % (probe, env["cache_source"]))
if env["cachestat"] != (env["cache_source"] == "cachestat"):
    no("cachestat %r beside cache_source %r" % (env["cachestat"], env["cache_source"]))
if env["fiemap"] != ("fiemap" in disk):
    no("fiemap %r, the steps' disk sources %r" % (env["fiemap"], sorted(disk)))
sys.exit(0 if ok else 1)
PY
done
# The device: the one stat(1) names for the scratch directory's filesystem, where the kernel
# names one (/sys/dev/block/MAJ:MIN); the first step, before the file, knows it already.
dev=$(stat -c '%Hd:%Ld' "$tmp")
if [ -e "/sys/dev/block/$dev" ]; then
	name=$(basename "$(readlink -f "/sys/dev/block/$dev")")
	python3 - "$tmp/auto.json" "/dev/$name" <<'PY' || bad "13-3: the environment's device"
import json, sys
d = json.load(open(sys.argv[1]))
if d["environment"]["device"] != sys.argv[2]:
    print("  device %r, stat(1) names %s" % (d["environment"]["device"], sys.argv[2]))
    sys.exit(1)
PY
else
	skip_part device "the scratch directory's device $dev is not a block device here"
fi
finish
