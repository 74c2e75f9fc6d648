#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/origins-truth.sh: where iobufviz says a step's cached pages came from (page_origins:
# asked for by the call, read ahead by it, asked for by an earlier WILLNEED, already cached)
# is what the kernel's own trace says: ftrace's filemap:mm_filemap_add_to_page_cache events
# in the worker, between the entry and the exit of each call; and the pages each step asked
# for are those of the offsets the kernel's own calls used (lseek()'s result, moved by each
# read()). Lessons 13.5 and 13-5 (tail), with each probe.
testname=origins-truth
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (ftrace)"
need python3
grep -qw tracefs /proc/filesystems || skip "no tracefs in this kernel"
mounted=
inst=
# The ftrace instance and a tracefs mount of our own go on every way out.
cleanup() {
	if [ -n "$inst" ] && [ -d "$inst" ]; then
		echo 0 >"$inst/tracing_on" 2>/dev/null
		for e in "$inst"/events/*/*/enable; do echo 0 >"$e" 2>/dev/null; done
		rmdir "$inst" 2>/dev/null
	fi
	[ -n "$mounted" ] && umount "$mounted" 2>/dev/null
}

# tracefs where it is mounted, else a mount of our own; an instance of our own in it (its own
# buffer and events: other tracers are left alone).
tr=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
if [ -z "$tr" ]; then
	mkdir "$tmp/tracefs" && mount -t tracefs nodev "$tmp/tracefs" 2>/dev/null ||
		skip "cannot mount tracefs"
	mounted=$tmp/tracefs
	tr=$mounted
fi
inst=$tr/instances/iobufviz-origins-$$
mkdir "$inst" 2>/dev/null || { inst=; skip "no ftrace instances"; }
ev=$inst/events
[ -d "$ev/filemap/mm_filemap_add_to_page_cache" ] ||
	skip "no filemap:mm_filemap_add_to_page_cache event"
[ -d "$ev/syscalls/sys_enter_pread64" ] || skip "no syscall events (CONFIG_FTRACE_SYSCALLS)"
for e in filemap/mm_filemap_add_to_page_cache syscalls/sys_enter_pread64 \
	syscalls/sys_exit_pread64 syscalls/sys_enter_fadvise64 syscalls/sys_exit_fadvise64 \
	syscalls/sys_enter_read syscalls/sys_exit_read syscalls/sys_enter_lseek \
	syscalls/sys_exit_lseek; do
	echo 'comm == "iobufviz"' >"$ev/$e/filter" && echo 1 >"$ev/$e/enable" ||
		skip "cannot enable $e"
done
echo 16384 >"$inst/buffer_size_kb" 2>/dev/null
# Only the run's processes: its pid, set before it starts, and the children it forks.
echo 1 >"$inst/options/event-fork" 2>/dev/null || skip "no event-fork option"

ran=0
for lesson in 13.5-fadvise 13-5-tail; do
for probe in cachestat mincore kpageflags; do
	: >"$inst/trace"
	: >"$inst/set_event_pid"
	echo 1 >"$inst/tracing_on"
	sh -c 'echo $$ >"$1/set_event_pid" && shift && exec "$@"' sh "$inst" \
		"$bin" --headless --format=json --probe=$probe --dir "$tmp" \
		"$src/scenarios/$lesson.yaml" >"$tmp/$probe.json" 2>"$tmp/$probe.err"
	rc=$?
	echo 0 >"$inst/tracing_on"
	cp "$inst/trace" "$tmp/$probe.trace"
	if [ $rc -eq 3 ]; then
		skip_part "--probe=$probe" "$(head -n 1 "$tmp/$probe.err")"
		continue
	fi
	[ $rc -eq 0 ] || { echo "FAIL: $lesson with --probe=$probe: exit $rc"; cat "$tmp/$probe.err"; exit 1; }
	ran=$((ran + 1))
	python3 - "$tmp/$probe.json" "$tmp/$probe.trace" "$lesson $probe" <<'PY' || exit 1
import collections, json, re, sys

doc = json.load(open(sys.argv[1]))
probe = sys.argv[3]
psz = 4096
call_re = re.compile(r"^\s*\S+-(\d+)\s.*?: sys_(pread64|fadvise64|read|lseek)\((.*)\)$")
exit_re = re.compile(r"^\s*\S+-(\d+)\s.*?: sys_(pread64|fadvise64|read|lseek) -> (\S+)$")
add_re = re.compile(r"^\s*\S+-(\d+)\s.*?: mm_filemap_add_to_page_cache: dev \S+ ino (\w+) "
                    r"pfn=\S+ ofs=(\d+) order=(\d+)")
# Per process, its calls in order: (call, args, [(ino, first page, pages) added inside]).
calls = collections.defaultdict(list)
open_call = {}
for line in open(sys.argv[2]):
    m = call_re.match(line)
    if m:
        args = dict(kv.split(": ") for kv in m.group(3).split(", "))
        open_call[m.group(1)] = (m.group(2), {k: int(v, 16) for k, v in args.items()}, [])
        continue
    m = add_re.match(line)
    if m and m.group(1) in open_call:
        open_call[m.group(1)][2].append((m.group(2), int(m.group(3)) // psz, 1 << int(m.group(4))))
        continue
    m = exit_re.match(line)
    if m and m.group(1) in open_call:
        c = open_call.pop(m.group(1))
        c[1]["ret"] = int(m.group(3), 16)
        calls[m.group(1)].append(c)

# The lesson's reads, seeks and WILLNEEDs on its file, in order, as the transcript has them.
mine = []
for s in doc["steps"]:
    for e in s["events"]:
        if e["call"] in ("pread64", "fadvise64", "read", "lseek"):
            mine.append((s, e))
fds = {e["fd"] for _, e in mine}
# The worker: the process whose calls on the lesson's fd end with the lesson's, argument for
# argument (a read() has no offset argument).
def key(call, args):
    return (call, None if call == "read" else args.get("pos", args.get("offset")))
want = [(e["call"], None if e["call"] == "read" else e["offset"]) for _, e in mine]
worker = None
for pid, cs in calls.items():
    cs = [c for c in cs if c[1].get("fd") in fds]
    got = [key(c, a) for c, a, _ in cs]
    if len(got) >= len(want) and got[-len(want):] == want:
        worker = cs[-len(want):]
if worker is None:
    sys.exit("FAIL: %s: no traced process made the lesson's %d calls" % (probe, len(want)))
inos = collections.Counter(a[0] for _, _, adds in worker for a in adds)
ino = inos.most_common(1)[0][0] if inos else None
added = {}                      # step index -> pages the kernel added during its call
asked = {}                      # step index -> pages its calls asked for, by the kernel's
pos = None                      # the fd's offset, as the kernel's calls set and moved it
for (s, e), (call, a, adds) in zip(mine, worker):
    added.setdefault(s["index"], set()).update(
        p for i, first, n in adds if i == ino for p in range(first, first + n))
    ret = a["ret"] if a["ret"] < 1 << 63 else a["ret"] - (1 << 64)
    at = n = None
    if call == "lseek" and ret >= 0:
        pos = ret
    elif call == "read" and ret > 0:
        at, n = pos, ret
        pos = pos + ret if pos is not None else None
    elif call == "pread64" and ret > 0:
        at, n = a["pos"], ret
    elif call == "fadvise64" and ret == 0 and a["advice"] == 3:    # POSIX_FADV_WILLNEED
        size = s["state"]["cache"]["file_size"]
        at, n = a["offset"], a["len"] or max(size - a["offset"], 0)
    if n:
        if at is None:
            sys.exit("FAIL: %s: a read() at an offset no lseek() told" % probe)
        asked.setdefault(s["index"], []).append((at, at + n))

bad = 0
checked = 0
for s in doc["steps"]:
    o = s["page_origins"]
    if o is None:
        continue
    k = s["index"]
    a = added.get(k, set())
    lo, hi = o["asked_first"] // psz, (o["asked_end"] + psz - 1) // psz
    inside = {p for p in a if lo <= p < hi}
    what = "step %d (%s): iobufviz %s; ftrace: %d added (%d inside the asked bytes)" % (
        k, s["op"], {x: o[x] for x in ("asked", "read_ahead", "asked_earlier", "already_cached")},
        len(a), len(inside))
    ok = range_ok = True
    # The pages asked for, from the offsets the kernel's own calls used (lseek()'s result,
    # moved by each read()), not from iobufviz's: the same pages.
    if k in asked:
        lo2 = min(f for f, _ in asked[k]) // psz
        hi2 = (max(e for _, e in asked[k]) + psz - 1) // psz
        range_ok = (lo2, hi2) == (lo, hi)
        what += "; asked pages %d-%d, by ftrace %d-%d" % (lo, hi, lo2, hi2)
    if not o["seen_when_complete"]:
        # The probe counts a page when it is added: each count is the trace's.
        ok = o["asked"] == len(inside) and o["read_ahead"] == len(a - inside) and \
            o["asked_earlier"] == 0
    else:
        # Pages seen once their read has completed: a page new here was added by this call
        # or an earlier one.
        upto = set().union(*(v for kk, v in added.items() if kk <= k))
        ok = o["asked"] + o["read_ahead"] + o["asked_earlier"] <= len(upto)
    if o["asked_earlier"] > 0:
        j = o["asked_earlier_step"]
        ok = ok and len(added.get(j, ())) >= o["asked_earlier"] and len(a) == 0
        what += "; asked at step %d: ftrace %d added by its call" % (j, len(added.get(j, ())))
    for j in o["cached_by_steps"]:
        if j > 0:
            ok = ok and len(added.get(j, ())) > 0
    ok = ok and range_ok
    print("%s %s: %s" % ("ok  " if ok else "FAIL", probe, what))
    bad |= not ok
    checked += 1
# 13.5 step 13: the read added nothing; its pages are step 12's WILLNEED's.
s13 = next((s for s in doc["steps"] if s["index"] == 13 and doc["scenario"]["title"].startswith("13.5")),
           None)
o13 = s13["page_origins"] if s13 else None
if o13 and (added.get(13) or o13["asked"] or o13["read_ahead"] or
            (o13["already_cached"] and o13["cached_by_steps"] != [12]) or
            (o13["asked_earlier"] and o13["asked_earlier_step"] != 12)):
    print("FAIL %s: step 13: ftrace added %d pages; iobufviz says %s" % (
        probe, len(added.get(13, ())), o13["text"]))
    bad = 1
print("%s: %d steps checked against ftrace" % (probe, checked))
sys.exit(1 if bad or checked < 5 else 0)
PY
done
done
[ $ran -gt 0 ] || skip "no probe could run 13.5 here"
finish
