/* SPDX-License-Identifier: MIT */
/* oplist.h: the one list of ops and of expectation keys, and what an entry holds. */
#ifndef IOBUFVIZ_SCENARIO_OPS_H
#define IOBUFVIZ_SCENARIO_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Every op is one X(...) line below: its enum tail, its YAML name, whether it acts through
 * the FILE* or the fd, where it runs, what its YAML value is, what it is (SCN_OPF_* flags:
 * what on: and as: may name, whether it reads, writes, closes, ends the program...), where its
 * bytes go (SCN_LAYER_*: the program pane colours its call so), the C function its statement
 * calls when that is not its name, the function that runs it in the worker (engine/ops.c), the
 * loader's extra check (load/step.c, NULL if the argument list says it all), the one that
 * writes it as C (export/emit*.c: the line a student would write and the statements of a whole
 * program), then its arguments.
 * The enum, the op table (scenario/optable.c: the data columns), each layer's table of its
 * own function column (SCN_OP_RUN and the like, below), the shape check, libcyaml's schema
 * of a step (load/raw.c) and the required-argument check are all made from it; no code
 * lists ops by name.
 * A build may add ops with SCN_OP_LIST_EXTRA (tests/test-op.h does, to prove that an op
 * is one entry).
 */
#define SCN_OP_LIST(X) \
	X(OPEN, "open", FD, WORKER, ARGS, SCN_OPF_NEW_FD | SCN_OPF_CALL, NONE, NULL, ops_open, \
	  load_step_file, emit_open, OPT(FLAGS) OPT(FILE)) \
	X(FOPEN, "fopen", STDIO, WORKER, ARGS, SCN_OPF_NEW_FP | SCN_OPF_MANY | SCN_OPF_CALL, STDIO, \
	  NULL, ops_fopen, load_step_file, emit_fopen, REQ(MODE) OPT(FILE)) \
	X(FDOPEN, "fdopen", STDIO, WORKER, ARGS, SCN_OPF_FD | SCN_OPF_NEW_FP | SCN_OPF_WRAPS | \
	  SCN_OPF_MANY | SCN_OPF_CALL, STDIO, NULL, ops_fdopen, NULL, emit_fdopen, REQ(MODE)) \
	X(FILENO, "fileno", STDIO, WORKER, ARGS, SCN_OPF_FP | SCN_OPF_WRAPS | SCN_OPF_MANY | \
	  SCN_OPF_CALL, STDIO, NULL, ops_fileno, NULL, emit_fileno) \
	X(SETVBUF, "setvbuf", STDIO, WORKER, ARGS, SCN_OPF_FP | SCN_OPF_MANY | SCN_OPF_CALL, STDIO, \
	  NULL, ops_setvbuf, NULL, emit_setvbuf, REQ(BUFMODE) OPT(SIZE) OPT(BUFFER)) \
	X(SETBUF, "setbuf", STDIO, WORKER, ARGS, SCN_OPF_FP | SCN_OPF_MANY | SCN_OPF_CALL, STDIO, \
	  NULL, ops_setbuf, NULL, emit_setbuf, REQ(SETBUF_BUFFER)) \
	X(SETBUFFER, "setbuffer", STDIO, WORKER, ARGS, SCN_OPF_FP | SCN_OPF_MANY | SCN_OPF_CALL, \
	  STDIO, NULL, ops_setbuffer, NULL, emit_setbuffer, OPT(SIZE) OPT(BUFFER)) \
	X(FWRITE, "fwrite", STDIO, WORKER, ARGS, SCN_OPF_FP | SCN_OPF_WRITES | SCN_OPF_MANY | \
	  SCN_OPF_CALL, STDIO, NULL, ops_fwrite, NULL, emit_fwrite, REQ(BYTES)) \
	X(FPUTS, "fputs", STDIO, WORKER, ARGS, SCN_OPF_FP | SCN_OPF_WRITES | SCN_OPF_MANY | \
	  SCN_OPF_CALL, STDIO, NULL, ops_fputs, NULL, emit_fputs, REQ(TEXT)) \
	X(PRINTF, "printf", STDIO, WORKER, ARGS, SCN_OPF_FP | SCN_OPF_WRITES | SCN_OPF_MANY | \
	  SCN_OPF_CALL, STDIO, "fprintf", ops_printf, NULL, emit_printf, REQ(TEXT)) \
	X(FREAD, "fread", STDIO, WORKER, ARGS, SCN_OPF_FP | SCN_OPF_READS | SCN_OPF_MANY | \
	  SCN_OPF_CALL, STDIO, NULL, ops_fread, NULL, emit_fread, REQ(BYTES)) \
	X(FGETS, "fgets", STDIO, WORKER, ARGS, SCN_OPF_FP | SCN_OPF_READS | SCN_OPF_MANY | \
	  SCN_OPF_CALL, STDIO, NULL, ops_fgets, NULL, emit_fgets, REQ(BYTES)) \
	X(FFLUSH, "fflush", STDIO, WORKER, ARGS, SCN_OPF_FP | SCN_OPF_MANY | SCN_OPF_CALL, STDIO, \
	  NULL, ops_fflush, NULL, emit_fflush) \
	X(FSEEK, "fseek", STDIO, WORKER, ARGS, SCN_OPF_FP | SCN_OPF_MANY | SCN_OPF_CALL, STDIO, \
	  NULL, ops_fseek, NULL, emit_fseek, REQ(SEEK_OFFSET) OPT(WHENCE)) \
	X(FCLOSE, "fclose", STDIO, WORKER, ARGS, SCN_OPF_FP | SCN_OPF_CLOSES | SCN_OPF_MANY | \
	  SCN_OPF_CALL, STDIO, NULL, ops_fclose, NULL, emit_fclose) \
	X(WRITE, "write", FD, WORKER, ARGS, SCN_OPF_FD | SCN_OPF_WRITES | SCN_OPF_CALL, DIRTY, NULL, \
	  ops_write, load_step_text, emit_write, ONE(BYTES) ONE(TEXT) OPT(ALIGN)) \
	X(READ, "read", FD, WORKER, ARGS, SCN_OPF_FD | SCN_OPF_READS | SCN_OPF_CALL, CLEAN, NULL, \
	  ops_read, NULL, emit_read, REQ(BYTES) OPT(ALIGN)) \
	X(PREAD, "pread", FD, WORKER, ARGS, SCN_OPF_FD | SCN_OPF_READS | SCN_OPF_CALL, CLEAN, NULL, \
	  ops_pread, NULL, emit_pread, REQ(BYTES) OPT(OFFSET) OPT(ALIGN)) \
	X(PWRITE, "pwrite", FD, WORKER, ARGS, SCN_OPF_FD | SCN_OPF_WRITES | SCN_OPF_CALL, DIRTY, \
	  NULL, ops_pwrite, load_step_text, emit_pwrite, \
	  ONE(BYTES) ONE(TEXT) OPT(OFFSET) OPT(ALIGN)) \
	X(LSEEK, "lseek", FD, WORKER, ARGS, SCN_OPF_FD | SCN_OPF_CALL, NONE, NULL, ops_lseek, NULL, \
	  emit_lseek, REQ(SEEK_OFFSET) OPT(WHENCE)) \
	X(FSYNC, "fsync", FD, WORKER, ARGS, SCN_OPF_FD | SCN_OPF_CALL, DISK, NULL, ops_fsync, NULL, \
	  emit_fsync) \
	X(FDATASYNC, "fdatasync", FD, WORKER, ARGS, SCN_OPF_FD | SCN_OPF_CALL, DISK, NULL, \
	  ops_fdatasync, NULL, emit_fdatasync) \
	X(SYNC_FILE_RANGE, "sync_file_range", FD, WORKER, ARGS, SCN_OPF_FD | SCN_OPF_CALL, DISK, \
	  NULL, ops_sync_file_range, NULL, emit_sync_file_range, OPT(OFFSET) OPT(LEN) OPT(SFR_FLAGS)) \
	X(SYNC, "sync", FD, WORKER, ARGS, SCN_OPF_CALL, DISK, NULL, ops_sync, NULL, emit_sync) \
	X(FADVISE, "posix_fadvise", FD, WORKER, ARGS, SCN_OPF_FD | SCN_OPF_CALL, CLEAN, NULL, \
	  ops_fadvise, NULL, emit_fadvise, REQ(ADVICE) OPT(OFFSET) OPT(LEN)) \
	X(FALLOCATE, "fallocate", FD, WORKER, ARGS, SCN_OPF_FD | SCN_OPF_CALL, DIRTY, NULL, \
	  ops_fallocate, load_step_fallocate, emit_fallocate, OPT(OFFSET) REQ(LEN)) \
	X(FTRUNCATE, "ftruncate", FD, WORKER, ARGS, SCN_OPF_FD | SCN_OPF_CALL, DIRTY, NULL, \
	  ops_ftruncate, NULL, emit_ftruncate, OPT(LEN)) \
	X(CLOSE, "close", FD, WORKER, ARGS, SCN_OPF_FD | SCN_OPF_CLOSES | SCN_OPF_CALL, NONE, NULL, \
	  ops_close, NULL, emit_close) \
	X(FCNTL, "fcntl", FD, WORKER, ARGS, SCN_OPF_FD | SCN_OPF_CALL, NONE, NULL, ops_fcntl, \
	  load_step_fcntl, emit_fcntl, REQ(FCNTL_CMD) OPT(FLAGS)) \
	X(FORK, "fork", STDIO, WORKER, ARGS, SCN_OPF_PROCESS | SCN_OPF_MANY | SCN_OPF_CALL, NONE, \
	  NULL, ops_fork, NULL, emit_fork, REQ(CHILD)) \
	X(EXIT, "exit", STDIO, WORKER, ARGS, SCN_OPF_PROCESS | SCN_OPF_ENDS | SCN_OPF_MANY | \
	  SCN_OPF_CALL, NONE, NULL, ops_exit, NULL, emit_exit) \
	X(UEXIT, "_exit", STDIO, WORKER, ARGS, SCN_OPF_PROCESS | SCN_OPF_ENDS | SCN_OPF_MANY | \
	  SCN_OPF_CALL, NONE, NULL, ops_uexit, NULL, emit_uexit) \
	X(WAIT, "wait", NONE, RUNNER_WAIT, ARGS, 0, WRITEBACK, "wait_clean", ops_nothing, \
	  load_step_wait, emit_wait, OPT(SECONDS) OPT(UNTIL) OPT(TIMEOUT)) \
	X(PTY, "pty", NONE, RUNNER_PTY, ARGS, 0, NONE, NULL, NULL, NULL, emit_pty, \
	  ONE(PRINTF) ONE(WRITE) OPT(BETWEEN)) \
	X(TAIL, "tail", FD, WORKER, ARGS, SCN_OPF_READS | SCN_OPF_MANY, NONE, NULL, ops_tail, NULL, \
	  emit_tail, REQ(LINES) OPT(BLOCK)) \
	X(SWEEP, "sweep", NONE, RUNNER_SWEEP, SWEEP, 0, NONE, NULL, NULL, NULL, emit_sweep) \
	X(NOTE, "note", NONE, WORKER, TEXT, 0, NONE, NULL, ops_nothing, NULL, emit_note) \
	X(RUN, "run", NONE, RUNNER_RUN, ARGS, 0, NONE, NULL, NULL, NULL, emit_run, \
	  REQ(PROGRAM) OPT(ARGS) OPT(STDIN) OPT(TIMEOUT)) \
	X(RENAME, "rename", NONE, WORKER, ARGS, SCN_OPF_CALL, NONE, NULL, ops_rename, \
	  load_step_file, emit_rename, OPT(FILE) REQ(TO)) \
	X(CRASH, "crash", NONE, RUNNER_CRASH, ARGS, 0, NONE, NULL, NULL, load_step_file, \
	  emit_crash, OPT(FILE)) \
	SCN_OP_LIST_EXTRA(X)

#ifndef SCN_OP_LIST_EXTRA
#define SCN_OP_LIST_EXTRA(X)
#endif

/*
 * Every expectation key is one X(...) line: its enum tail, its YAML name, its value type,
 * the ops it applies to (ANY, or the SCN_OP_* tails it is restricted to), the getter that
 * reads it from a step result (lesson/expect.c) and the question a quiz asks about it (NULL: the
 * quiz does not ask it; a step's own ask: replaces it). The quiz asks in this order.
 */
#define SCN_KEY_LIST(X) \
	X(CALLS_WRITE, "calls.write", NUMBER, ANY, expect_get_calls_write, \
	  "How many write() calls will this step make?") \
	X(CALLS_READ, "calls.read", NUMBER, ANY, expect_get_calls_read, \
	  "How many read() calls will this step make?") \
	X(CALLS_TOTAL, "calls.total", NUMBER, ANY, expect_get_calls_total, \
	  "How many system calls on the file will this step make?") \
	X(STDIO_PENDING, "stdio.pending", NUMBER, ANY, expect_get_stdio_pending, \
	  "How many bytes will be pending in the stdio buffer after it?") \
	X(STDIO_SIZE, "stdio.size", NUMBER, ANY, expect_get_stdio_size, \
	  "How big (in bytes) will the stdio buffer be after it?") \
	X(STDIO_MODE, "stdio.mode", BUFMODE, ANY, expect_get_stdio_mode, NULL) \
	X(BYTES_WRITTEN, "bytes.written", NUMBER, ANY, expect_get_bytes_written, \
	  "How many bytes will its write() calls transfer?") \
	X(BYTES_READ, "bytes.read", NUMBER, ANY, expect_get_bytes_read, \
	  "How many bytes will its read() calls transfer?") \
	X(CACHE_DIRTY_PAGES, "cache.dirty_pages", NUMBER, ANY, expect_get_cache_dirty_pages, \
	  "How many of the file's pages will be dirty after it?") \
	X(CACHE_PAGES, "cache.pages", NUMBER, ANY, expect_get_cache_pages, \
	  "How many of the file's pages will be in the page cache after it?") \
	X(CACHE_WRITEBACK_PAGES, "cache.writeback_pages", NUMBER, ANY, \
	  expect_get_cache_writeback_pages, "How many pages will be under writeback after it?") \
	X(CACHE_CLEANED_PAGES, "cache.cleaned_pages", NUMBER, ANY, \
	  expect_get_cache_cleaned_pages, NULL) \
	X(CACHE_DIRTY_BEFORE, "cache.dirty_before", NUMBER, ANY, \
	  expect_get_cache_dirty_before, NULL) \
	X(DISK_ALLOCATED_BYTES, "disk.allocated_bytes", NUMBER, ANY, \
	  expect_get_disk_allocated_bytes, "How many bytes will have blocks on disk after it?") \
	X(DISK_DELALLOC_BYTES, "disk.delalloc_bytes", NUMBER, ANY, \
	  expect_get_disk_delalloc_bytes, \
	  "How many bytes will wait for delayed allocation after it?") \
	X(DISK_UNWRITTEN_BYTES, "disk.unwritten_bytes", NUMBER, ANY, \
	  expect_get_disk_unwritten_bytes, NULL) \
	X(DISK_INLINE_BYTES, "disk.inline_bytes", NUMBER, ANY, expect_get_disk_inline_bytes, \
	  NULL) \
	X(RESULT_ERRNO, "result.errno", ERRNO, ANY, expect_get_result_errno, NULL) \
	X(RESULT_VALUE, "result.value", SIGNED, ANY, expect_get_result_value, NULL) \
	X(OUTPUT, "output", TEXT, ONLY(PTY, TAIL, RUN), expect_get_output, NULL) \
	X(OUTPUT_FILE, "output.file", TEXT, ONLY(PTY), expect_get_output_file, NULL) \
	X(EXIT_STATUS, "exit.status", SIGNED, ONLY(RUN), expect_get_exit_status, NULL) \
	X(RESULT_FLAGS, "result.flags", TEXT, ONLY(FCNTL), expect_get_result_flags, NULL) \
	X(FILE_SIZE, "file.size", NUMBER, ANY, expect_get_file_size, \
	  "How big (in bytes) will the file be after it?") \
	X(FILE_CONTENT, "file.content", TEXT, ANY, expect_get_file_content, NULL) \
	X(FILE_PREFIX, "file.prefix", PREFIX, ANY, expect_get_file_content, NULL) \
	X(DEVICE_WRITES, "device.writes", NUMBER, ANY, expect_get_device_writes, \
	  "How many write requests will reach the device during this step?") \
	X(DEVICE_WRITE_BYTES, "device.write_bytes", NUMBER, ANY, expect_get_device_write_bytes, \
	  NULL) \
	X(DEVICE_FLUSHES, "device.flushes", NUMBER, ANY, expect_get_device_flushes, \
	  "How many cache flushes will the device be asked for during this step?") \
	X(CRASH_PROCESS_EXISTS, "crash.process.exists", YESNO, ONLY(CRASH), \
	  expect_get_crash_process_exists, NULL) \
	X(CRASH_PROCESS_SIZE, "crash.process.size", NUMBER, ONLY(CRASH), \
	  expect_get_crash_process_size, \
	  "If the process is killed now, how many bytes will the file hold?") \
	X(CRASH_PROCESS_CONTENT, "crash.process.content", TEXT, ONLY(CRASH), \
	  expect_get_crash_process_content, NULL) \
	X(CRASH_PROCESS_PREFIX, "crash.process.prefix", PREFIX, ONLY(CRASH), \
	  expect_get_crash_process_content, NULL) \
	X(CRASH_POWER_EXISTS, "crash.power.exists", YESNO, ONLY(CRASH), \
	  expect_get_crash_power_exists, NULL) \
	X(CRASH_POWER_SIZE, "crash.power.size", NUMBER, ONLY(CRASH), expect_get_crash_power_size, \
	  "If the power is cut now, how many bytes will the file hold once the kernel has "\
	  "recovered it?") \
	X(CRASH_POWER_CONTENT, "crash.power.content", TEXT, ONLY(CRASH), \
	  expect_get_crash_power_content, NULL) \
	X(CRASH_POWER_PREFIX, "crash.power.prefix", PREFIX, ONLY(CRASH), \
	  expect_get_crash_power_content, NULL) \
	X(CRASH_POWER_STRAYS, "crash.power.strays", NUMBER, ONLY(CRASH), \
	  expect_get_crash_power_strays, NULL)

/* Every op a step can perform: made from SCN_OP_LIST. */
enum scn_op {
#define SCN_OP_ENUM(e, ...) SCN_OP_##e,
	SCN_OP_LIST(SCN_OP_ENUM)
#undef SCN_OP_ENUM
	SCN_OP__COUNT
};

/* Expectation keys: made from SCN_KEY_LIST. */
enum scn_key {
#define SCN_KEY_ENUM(e, ...) SCN_KEY_##e,
	SCN_KEY_LIST(SCN_KEY_ENUM)
#undef SCN_KEY_ENUM
	SCN_KEY__COUNT
};

/* Arguments an op may take; each has one YAML key and one meaning (load/schema.c). */
enum scn_arg {
	SCN_ARG_NONE, /* ends an op's argument list */
	SCN_ARG_BYTES, SCN_ARG_OFFSET, SCN_ARG_LEN, SCN_ARG_WHENCE, SCN_ARG_TEXT, SCN_ARG_MODE,
	SCN_ARG_SIZE, SCN_ARG_BUFFER, SCN_ARG_FLAGS, SCN_ARG_ADVICE, SCN_ARG_ALIGN,
	SCN_ARG_SECONDS, SCN_ARG_UNTIL, SCN_ARG_TIMEOUT, SCN_ARG_LINES, SCN_ARG_BLOCK,
	SCN_ARG_PRINTF, SCN_ARG_WRITE, SCN_ARG_BETWEEN, SCN_ARG_PROGRAM, SCN_ARG_ARGS, SCN_ARG_STDIN,
	SCN_ARG_FILE, SCN_ARG_TO,
	/* The same keys with another meaning: each op's list says which it takes. */
	SCN_ARG_BUFMODE,        /* mode: setvbuf's none, line, full (MODE: a stdio mode) */
	SCN_ARG_SETBUF_BUFFER,  /* buffer: setbuf's own, library or none */
	SCN_ARG_SFR_FLAGS,      /* flags: sync_file_range's (FLAGS: open's) */
	SCN_ARG_SEEK_OFFSET,    /* offset: may be negative (a relative move) */
	SCN_ARG_FCNTL_CMD,      /* cmd: fcntl's F_GETFL or F_SETFL */
	SCN_ARG_CHILD,          /* child: what the child of fork does: exit or _exit */
	SCN_ARG__COUNT
};

/*
 * Each argument's YAML key, what it takes (SCALAR: a single value; LIST: a list of single
 * values) and an example of its value (as YAML: tests build a step of every op from them), by
 * its enum tail: the shape check's table (scn_arg_fields) and libcyaml's schema of every op's
 * argument mapping (load/raw.c) are both made from these.
 */
#define SCN_ARGDEF_BYTES "bytes", SCALAR, "100"
#define SCN_ARGDEF_OFFSET "offset", SCALAR, "0"
#define SCN_ARGDEF_LEN "len", SCALAR, "4096"
#define SCN_ARGDEF_WHENCE "whence", SCALAR, "SET"
#define SCN_ARGDEF_TEXT "text", SCALAR, "\"hi\\n\""
#define SCN_ARGDEF_MODE "mode", SCALAR, "\"r+\""
#define SCN_ARGDEF_SIZE "size", SCALAR, "4096"
#define SCN_ARGDEF_BUFFER "buffer", SCALAR, "library"
#define SCN_ARGDEF_FLAGS "flags", LIST, "[O_RDWR]"
#define SCN_ARGDEF_ADVICE "advice", SCALAR, "DONTNEED"
#define SCN_ARGDEF_ALIGN "align", SCALAR, "0"
#define SCN_ARGDEF_SECONDS "seconds", SCALAR, "0"
#define SCN_ARGDEF_UNTIL "until", SCALAR, "clean"
#define SCN_ARGDEF_TIMEOUT "timeout", SCALAR, "1"
#define SCN_ARGDEF_LINES "lines", SCALAR, "3"
#define SCN_ARGDEF_BLOCK "block", SCALAR, "4096"
#define SCN_ARGDEF_PRINTF "printf", SCALAR, "\"p\\n\""
#define SCN_ARGDEF_WRITE "write", SCALAR, "\"w\\n\""
#define SCN_ARGDEF_BETWEEN "between", SCALAR, "fflush"
#define SCN_ARGDEF_PROGRAM "program", SCALAR, "true"
#define SCN_ARGDEF_ARGS "args", LIST, "[\"{file}\"]"
#define SCN_ARGDEF_STDIN "stdin", SCALAR, "in.txt"
#define SCN_ARGDEF_FILE "file", SCALAR, "data"
#define SCN_ARGDEF_TO "to", SCALAR, "data.old"
#define SCN_ARGDEF_BUFMODE "mode", SCALAR, "full"
#define SCN_ARGDEF_SETBUF_BUFFER "buffer", SCALAR, "none"
#define SCN_ARGDEF_SFR_FLAGS "flags", LIST, "[WRITE]"
#define SCN_ARGDEF_SEEK_OFFSET "offset", SCALAR, "0"
#define SCN_ARGDEF_FCNTL_CMD "cmd", SCALAR, "F_GETFL"
#define SCN_ARGDEF_CHILD "child", SCALAR, "exit"

/* How an op takes an argument. */
enum scn_need {
	SCN_NEED_OPT,   /* may be left out */
	SCN_NEED_REQ,   /* must be given */
	SCN_NEED_ONE,   /* at least one of the op's ONE arguments must be given */
};

/* One argument of an op. */
struct scn_arg_use {
	enum scn_arg arg;
	enum scn_need need;
};

/* Whether an op acts through the FILE* or the fd. */
enum scn_io { SCN_IO_NONE, SCN_IO_FD, SCN_IO_STDIO };

/* Where an op runs: the worker (engine/ops.c), or a part of the runner that engine/runner.c dispatches on. */
enum scn_runs { SCN_RUNS_WORKER, SCN_RUNS_RUNNER_WAIT, SCN_RUNS_RUNNER_PTY,
	SCN_RUNS_RUNNER_SWEEP, SCN_RUNS_RUNNER_RUN, SCN_RUNS_RUNNER_CRASH, SCN_RUNS__COUNT };

/* What an op's YAML value is. */
enum scn_form {
	SCN_FORM_ARGS,  /* a mapping of arguments (or nothing: "fsync:" or "fsync: {}") */
	SCN_FORM_TEXT,  /* a single value (note) */
	SCN_FORM_SWEEP, /* a sweep mapping (load/sweep.c) */
};

/*
 * What an op is: the flags of its entry (as strace's TD, TF, ... say what a system call is).
 * Code asks these, never a list of ops.
 */
enum scn_op_flag {
	SCN_OPF_FD = 1u << 0,      /* acts on an fd: on: names one */
	SCN_OPF_FP = 1u << 1,      /* acts on a FILE*: on: names one */
	SCN_OPF_NEW_FD = 1u << 2,  /* opens the file: a new fd (as: names it) */
	SCN_OPF_NEW_FP = 1u << 3,  /* makes a new FILE* (as: names it) */
	SCN_OPF_WRAPS = 1u << 4,   /* gives the other half of an fd/FILE* pair (fdopen, fileno) */
	SCN_OPF_CLOSES = 1u << 5,  /* closes what it acts on */
	SCN_OPF_READS = 1u << 6,   /* reads the file's bytes into the program (rbuf) */
	SCN_OPF_WRITES = 1u << 7,  /* writes the program's bytes (wbuf, or a text) to the file */
	SCN_OPF_PROCESS = 1u << 8, /* acts on the whole program, every FILE* at once */
	SCN_OPF_ENDS = 1u << 9,    /* ends the program: the scenario's last step */
	SCN_OPF_MANY = 1u << 10,   /* its system calls are a library's or a loop's, as many as it
	                              needs: without ptrace only /proc/PID/io counts them */
	SCN_OPF_CALL = 1u << 11,   /* it is the C call of its name (a traced program's call of
	                              that name is this op) */
};

/* Where an op's bytes go, or what it asks of them: the pane its call is coloured like. */
enum scn_layer {
	SCN_LAYER_NONE,       /* nowhere in particular */
	SCN_LAYER_STDIO,      /* the stdio buffer */
	SCN_LAYER_DIRTY,      /* the page cache, dirty */
	SCN_LAYER_CLEAN,      /* the page cache, clean (read, read ahead, dropped) */
	SCN_LAYER_DISK,       /* the disk: the call waits for it */
	SCN_LAYER_WRITEBACK,  /* the kernel's own writeback */
};

/* Value type of an expectation key. */
enum scn_ktype { SCN_KT_NUMBER, SCN_KT_SIGNED, SCN_KT_BUFMODE, SCN_KT_ERRNO, SCN_KT_TEXT,
	SCN_KT_PREFIX /* text the observed text starts with */, SCN_KT_YESNO /* yes or no */ };

/* One op: what it is (see SCN_OP_LIST); its functions are columns of the same row that
 * each layer makes its own table of (SCN_OP_RUN and the like, below). */
struct scn_op_entry {
	const char *name;                 /* as written in YAML */
	enum scn_io io;
	enum scn_runs runs;
	enum scn_form form;
	unsigned flags;                   /* SCN_OPF_* bits: what it is */
	enum scn_layer layer;             /* where its bytes go */
	const char *cname;                /* the C function its statement calls; NULL: its name */
	const struct scn_arg_use *args;   /* ends with SCN_ARG_NONE */
};

/* One expectation key: what it is (see SCN_KEY_LIST); its getter is lesson/expect.c's. */
struct scn_key_entry {
	const char *name;                 /* as written in YAML */
	enum scn_ktype type;
	const enum scn_op *only;          /* NULL: any op; else the ops, ending with SCN_OP__COUNT */
	const char *question;             /* the quiz question; NULL: not asked */
};

/*
 * The function columns of SCN_OP_LIST and SCN_KEY_LIST, each as a designated initializer:
 * a layer makes the table of its own column from the one list, e.g.
 *     static ops_fn *const worker_ops[SCN_OP__COUNT] = { SCN_OP_LIST(SCN_OP_RUN) };
 * so that an op stays one row, and yet no table binds every layer: a layer never links
 * to a table that links back to it (tests/layers.sh).
 */
#define SCN_OP_RUN(e, n, io, runs, form, flags, layer, cname, run, check, emit, ...) \
	[SCN_OP_##e] = run,
#define SCN_OP_CHECK(e, n, io, runs, form, flags, layer, cname, run, check, emit, ...) \
	[SCN_OP_##e] = check,
#define SCN_OP_EMIT(e, n, io, runs, form, flags, layer, cname, run, check, emit, ...) \
	[SCN_OP_##e] = emit,
#define SCN_KEY_GET(e, n, type, only, get, question) [SCN_KEY_##e] = get,

/* The op table, indexed by enum scn_op (scenario/optable.c). */
extern const struct scn_op_entry scn_op_table[SCN_OP__COUNT];

/* The key table, indexed by enum scn_key. */
extern const struct scn_key_entry scn_key_table[SCN_KEY__COUNT];

#endif
