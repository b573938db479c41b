/* Peer for the journald sink: the same fields sent with raw sd_journal_sendv from C.
 * Built by Benchmarks/run.sh with `cc -O2 sendv_peer.c -ldl` (libsystemd is dlopen'ed like the
 * sink does, so no -dev package is needed). Usage: sendv_peer COUNT RUN */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

typedef int (*sendv_fn)(const struct iovec *, int);

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: sendv_peer COUNT RUN\n"); return 64; }
  long count = atol(argv[1]);
  void *lib = dlopen("libsystemd.so.0", RTLD_NOW);
  if (!lib) { fprintf(stderr, "%s\n", dlerror()); return 1; }
  sendv_fn sendv = (sendv_fn)dlsym(lib, "sd_journal_sendv");
  char run[64], seq[64], ts[64];
  snprintf(run, sizeof run, "BINDING_RUN=%s", argv[2]);
  struct timespec start, end, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (long i = 1; i <= count; i++) {
    clock_gettime(CLOCK_REALTIME, &now);
    struct tm tm;
    gmtime_r(&now.tv_sec, &tm);
    int n = strftime(ts, sizeof ts, "BINDING_TS=%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(ts + n, sizeof ts - n, ".%06ldZ", now.tv_nsec / 1000);
    snprintf(seq, sizeof seq, "BINDING_SEQ=%ld", i);
    const char *fields[] = {
      "BINDING_SCHEMA=1", ts, "BINDING_LEVEL=error", "PRIORITY=3",
      "BINDING_KIND=mapped-bool-set-true", "MESSAGE_ID=2b9f53b872d7905613eeb68e53797657",
      "MESSAGE=A Binding<Bool> mapped from an optional was set to true; the write had no effect.",
      "CODE_FILE=BindingBenchmarks/main.swift", "CODE_LINE=120", "CODE_FUNC=runJournald(count:)",
      "BINDING_VALUE_TYPE=Swift.Optional<Swift.String>", "BINDING_VALUE_PRESENT=1",
      "BINDING_VALUE=<private>", "BINDING_LABEL=bench", "SYSLOG_IDENTIFIER=sendv_peer", run, seq,
      "BINDING_SUPPRESSED=0",
    };
    struct iovec iov[18];
    for (int f = 0; f < 18; f++) { iov[f].iov_base = (void *)fields[f]; iov[f].iov_len = strlen(fields[f]); }
    if (sendv(iov, 18) < 0) { fprintf(stderr, "sd_journal_sendv failed\n"); return 1; }
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  double seconds = (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
  printf("sendv_peer %f entries/s\n", count / seconds);
  return 0;
}
