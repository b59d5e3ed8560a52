// fsync_delay.c: an LD_PRELOAD library that makes fsync() and fdatasync() on chosen files
// slower by a fixed number of microseconds. tests/bench/hotrow_mariadb.sh loads it into mariadbd
// to ask "what if the redo log's flush took 1 ms (or 10 ms) longer?" on a machine whose kernel
// has no device-mapper (so no dm-delay target) to slow the device itself.
//
//   cc -O2 -shared -fPIC -o fsync_delay.so tests/bench/fsync_delay.c -ldl
//   LD_PRELOAD=$PWD/fsync_delay.so STRATA_FSYNC_DELAY_US=1000 mariadbd ...
//
// Environment, read once when the library is loaded:
//   STRATA_FSYNC_DELAY_US      microseconds added to each matching call (0 or unset: none)
//   STRATA_FSYNC_DELAY_MATCH   the file's path must end with this (default "/ib_logfile0")
//   STRATA_FSYNC_DELAY_REPORT  at exit, append "pid=P delayed=N slept_us=S" to this file
//
// The pause comes before the real call, like a request that waits in a slow device's queue;
// the real fsync still runs, so durability is unchanged. Only the calls' latency is changed:
// the bytes go to the disk as fast as before, and O_DSYNC writes are not slowed (mariadbd's
// default, innodb_flush_method=O_DIRECT, makes each redo flush a pwrite then an fdatasync).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

typedef int (*SyncFn)(int);

static SyncFn real_fsync, real_fdatasync;
static long delay_us;
static const char* match = "/ib_logfile0";
static const char* report;
static atomic_long delayed_calls;
static atomic_long slept_ns;

static SyncFn Next(const char* name) {
  SyncFn f = (SyncFn)dlsym(RTLD_NEXT, name);
  if (f == NULL) abort();  // no libc below us: nothing sensible to do
  return f;
}

__attribute__((constructor)) static void Init(void) {
  real_fsync = Next("fsync");
  real_fdatasync = Next("fdatasync");
  const char* v = getenv("STRATA_FSYNC_DELAY_US");
  if (v != NULL) delay_us = strtol(v, NULL, 10);
  if (delay_us < 0) delay_us = 0;
  v = getenv("STRATA_FSYNC_DELAY_MATCH");
  if (v != NULL && *v != '\0') match = v;
  report = getenv("STRATA_FSYNC_DELAY_REPORT");
}

__attribute__((destructor)) static void Report(void) {
  long n = atomic_load(&delayed_calls);
  if (report == NULL || *report == '\0' || n == 0) return;
  FILE* f = fopen(report, "a");
  if (f == NULL) return;
  fprintf(f, "pid=%ld delayed=%ld slept_us=%ld\n", (long)getpid(), n,
          atomic_load(&slept_ns) / 1000);
  fclose(f);
}

static long NowNs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

// One readlink per call: a couple of microseconds, small against a flush.
static int Matches(int fd) {
  char link[64], path[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n <= 0) return 0;
  path[n] = '\0';
  size_t m = strlen(match);
  return (size_t)n >= m && memcmp(path + n - m, match, m) == 0;
}

static void MaybeDelay(int fd) {
  if (delay_us == 0 || !Matches(fd)) return;
  int saved = errno;
  // The default 50 us of timer slack, per thread, would lengthen every pause.
  static _Thread_local int slack_set;
  if (!slack_set) {
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    slack_set = 1;
  }
  long start = NowNs();
  struct timespec d = {delay_us / 1000000, (delay_us % 1000000) * 1000};
  while (clock_nanosleep(CLOCK_MONOTONIC, 0, &d, &d) == EINTR) {
  }
  atomic_fetch_add(&slept_ns, NowNs() - start);
  atomic_fetch_add(&delayed_calls, 1);
  errno = saved;
}

// Both are resolved by Init, before main; a call from another library's constructor that
// runs earlier resolves its own.
int fsync(int fd) {
  if (real_fsync == NULL) real_fsync = Next("fsync");
  MaybeDelay(fd);
  return real_fsync(fd);
}

int fdatasync(int fd) {
  if (real_fdatasync == NULL) real_fdatasync = Next("fdatasync");
  MaybeDelay(fd);
  return real_fdatasync(fd);
}
