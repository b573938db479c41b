/* Peer for `bindiag summary`: the structural floor of any JSON Lines reader of a file. THREADS
 * threads each read an equal share of PATH with pread(2) in 256 KiB pieces (as bindiag's chunked
 * reader does) and find, 64 bytes at a time, the newlines and the quotes (simdjson's first stage
 * without its escape and string handling). Nothing is parsed, grouped or checked: a summary cannot
 * take less than this, and what bindiag takes beyond it is its parse and aggregation.
 * Built by Benchmarks/run.sh with `cc -O2 -pthread scan_floor.c`; AVX2 when the CPU has it,
 * else SSE2 (x86-64) or plain bytes.
 * Usage: scan_floor PATH THREADS
 * Prints: scan_floor.lines N (newlines: the record count, checked against bindiag's) and
 * scan_floor.quotes N. */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

enum { piece = 256 * 1024 };
static int fd;

struct share {
  off_t from, to;
  uint64_t lines, quotes;
};

/* Counts the newlines and quotes of `blocks` 64-byte blocks from their bit masks; one loop per
 * instruction set, so that no call is made per block. */
#define COUNT_BLOCKS(masks)                                                                      \
  for (size_t b = 0; b < blocks; b++) {                                                          \
    uint64_t nl, q;                                                                              \
    masks(p + 64 * b, &nl, &q);                                                                  \
    *lines += (uint64_t)__builtin_popcountll(nl);                                                \
    *quotes += (uint64_t)__builtin_popcountll(q);                                                \
  }
#if defined(__x86_64__)
__attribute__((target("avx2,popcnt"), always_inline)) static inline void
masks_avx2(const unsigned char *p, uint64_t *nl, uint64_t *q) {
  __m256i a = _mm256_loadu_si256((const void *)p), b = _mm256_loadu_si256((const void *)(p + 32));
  __m256i n = _mm256_set1_epi8('\n'), d = _mm256_set1_epi8('"');
  *nl = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, n))
    | (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, n)) << 32;
  *q = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, d))
    | (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, d)) << 32;
}
__attribute__((target("avx2,popcnt"))) static void
count_avx2(const unsigned char *p, size_t blocks, uint64_t *lines, uint64_t *quotes) {
  COUNT_BLOCKS(masks_avx2)
}
static inline void masks_sse2(const unsigned char *p, uint64_t *nl, uint64_t *q) {
  __m128i n = _mm_set1_epi8('\n'), d = _mm_set1_epi8('"');
  uint64_t x = 0, y = 0;
  for (int i = 0; i < 4; i++) {
    __m128i v = _mm_loadu_si128((const void *)(p + 16 * i));
    x |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, n)) << (16 * i);
    y |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, d)) << (16 * i);
  }
  *nl = x;
  *q = y;
}
static void count_sse2(const unsigned char *p, size_t blocks, uint64_t *lines, uint64_t *quotes) {
  COUNT_BLOCKS(masks_sse2)
}
#endif
static inline void masks_bytes(const unsigned char *p, uint64_t *nl, uint64_t *q) {
  uint64_t x = 0, y = 0;
  for (int i = 0; i < 64; i++) {
    x |= (uint64_t)(p[i] == '\n') << i;
    y |= (uint64_t)(p[i] == '"') << i;
  }
  *nl = x;
  *q = y;
}
static void count_bytes(const unsigned char *p, size_t blocks, uint64_t *lines, uint64_t *quotes) {
  COUNT_BLOCKS(masks_bytes)
}
static void (*count)(const unsigned char *, size_t, uint64_t *, uint64_t *) = count_bytes;

static void *scan(void *argument) {
  struct share *share = argument;
  unsigned char *buffer = aligned_alloc(64, piece + 64);
  uint64_t lines = 0, quotes = 0;
  for (off_t at = share->from; at < share->to;) {
    size_t want = share->to - at < piece ? (size_t)(share->to - at) : piece;
    ssize_t got = pread(fd, buffer, want, at);
    if (got <= 0) break;
    at += got;
    /* The last partial block padded with spaces. */
    size_t blocks = ((size_t)got + 63) / 64;
    for (size_t i = (size_t)got; i < blocks * 64; i++) buffer[i] = ' ';
    count(buffer, blocks, &lines, &quotes);
  }
  free(buffer);
  share->lines = lines;
  share->quotes = quotes;
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: scan_floor PATH THREADS\n");
    return 64;
  }
  int threads = atoi(argv[2]);
  if (threads < 1 || threads > 64) threads = 1;
  fd = open(argv[1], O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    perror(argv[1]);
    return 1;
  }
#if defined(__x86_64__)
  __builtin_cpu_init();
  count = __builtin_cpu_supports("avx2") ? count_avx2 : count_sse2;
#endif
  pthread_t thread[64];
  struct share shares[64];
  off_t step = st.st_size / threads;
  for (int i = 0; i < threads; i++) {
    shares[i].from = step * i;
    shares[i].to = i == threads - 1 ? st.st_size : step * (i + 1);
    pthread_create(&thread[i], NULL, scan, &shares[i]);
  }
  uint64_t lines = 0, quotes = 0;
  for (int i = 0; i < threads; i++) {
    pthread_join(thread[i], NULL);
    lines += shares[i].lines;
    quotes += shares[i].quotes;
  }
  printf("scan_floor.lines %llu\nscan_floor.quotes %llu\n", (unsigned long long)lines,
    (unsigned long long)quotes);
  return 0;
}
