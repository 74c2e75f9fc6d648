/* SPDX-License-Identifier: MIT */
/* crash/power.h: a power cut: the lab's device as it was at one instant, recovered by the kernel. */
#ifndef IOBUFVIZ_CRASH_POWER_H
#define IOBUFVIZ_CRASH_POWER_H

#include "crash/crash.h"
#include "crash/lab.h"

/*
 * Cut the lab's power now, without touching it: copy its image at an instant its loop device
 * was quiet (no request in flight, none completed during the copy, by the device's own
 * counters; retried until one is), mount the copy on a second loop device (the kernel replays
 * the journal or recovers the log: its own crash recovery), and read NAME there as a process
 * would after the reboot. out gets the file, the kernel's lines about the copy's device
 * during the mount, and the copies tried; out->observed false with why if it could not be
 * done. The copy and its device are gone when this returns. 0, or -1 (out->why says why).
 */
int crash_power_cut(struct crash_lab *lab, const char *name, struct crash_half *out);

#endif
