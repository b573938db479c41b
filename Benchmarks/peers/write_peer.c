/* Peer for the JSON Lines file sink: write(2) of one preformatted contract line, COUNT times in
 * all, from THREADS threads, to PATH opened O_WRONLY|O_APPEND|O_CREAT (as the sink opens it).
 * This is the floor the sink's caller cost is compared with: no encoding, no queue, one
 * syscall per record. Built by Benchmarks/run.sh with `cc -O2 -pthread write_peer.c`.
 * Usage: write_peer PATH COUNT THREADS
 * Prints: write_peer.ns_per_write NS ns/record (wall, per thread), write_peer.cpu_per_write NS
 * ns/record (the thread's CPU time: what a loaded machine does not inflate) and
 * write_peer.records_per_s R (all threads). */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char line[] =
  "{\"v\":1,\"ts\":\"2026-11-30T12:55:45.053817Z\",\"level\":\"error\",\"kind\":\"mapped-bool-set-true\","
  "\"message_id\":\"2b9f53b872d7905613eeb68e53797657\",\"msg\":\"A Binding<Bool> mapped from an optional "
  "was set to true; the write had no effect.\",\"file\":\"BindingBenchmarks/main.swift\",\"line\":131,"
  "\"function\":\"runJSONLines(path:count:maxBytes:keep:)\",\"value_type\":\"Swift.Optional<Swift.String>\","
  "\"value_present\":true,\"value\":\"<private>\",\"process\":\"BindingBenchmarks\",\"pid\":9247,"
  "\"host\":\"vm\",\"run\":\"e8bb37e61374e3bc\",\"seq\":1,\"suppressed\":0}\n";

static int fd;
static long per_thread;

static double clock_seconds(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static double now(void) { return clock_seconds(CLOCK_MONOTONIC); }


static void *writer(void *arg) {
  double *seconds = arg;
  size_t length = sizeof line - 1;
  double start = now();
  double cpu = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
  for (long i = 0; i < per_thread; i++) {
    if (write(fd, line, length) != (ssize_t)length) { perror("write"); exit(1); }
  }
  seconds[64] = clock_seconds(CLOCK_THREAD_CPUTIME_ID) - cpu; /* this thread's slot + 64 */
  *seconds = now() - start;
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: write_peer PATH COUNT THREADS\n"); return 64; }
  long count = atol(argv[2]);
  int threads = atoi(argv[3]);
  if (count <= 0 || threads <= 0 || threads > 64) { fprintf(stderr, "bad arguments\n"); return 64; }
  fd = open(argv[1], O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0640);
  if (fd < 0) { perror("open"); return 1; }
  per_thread = count / threads;
  pthread_t ids[64];
  double seconds[128];
  double start = now();
  for (int t = 0; t < threads; t++) pthread_create(&ids[t], NULL, writer, &seconds[t]);
  double slowest = 0, cpu = 0;
  for (int t = 0; t < threads; t++) {
    pthread_join(ids[t], NULL);
    if (seconds[t] > slowest) slowest = seconds[t];
    if (seconds[64 + t] > cpu) cpu = seconds[64 + t];
  }
  double elapsed = now() - start;
  printf("write_peer.ns_per_write %f ns/record\n", slowest * 1e9 / per_thread);
  printf("write_peer.cpu_per_write %f ns/record\n", cpu * 1e9 / per_thread);
  printf("write_peer.records_per_s %f records/s\n", per_thread * threads / elapsed);
  close(fd);
  return 0;
}
