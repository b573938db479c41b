// See include/CStructuralScan.h. Each variant takes 64 bytes a step (one word of quote bits)
// and the last 1 to 63 bytes through a 64-byte block padded with spaces (neither a quote nor a
// byte that needs care), so no load reads past the line.
#include "CStructuralScan.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

/// The last `count % 64` bytes of a line (1 to 63) in a block padded with spaces.
static inline void bd_padded_tail(const uint8_t *tail, size_t rest, uint8_t block[64]) {
  memset(block, ' ', 64);
  memcpy(block, tail, rest);
}

__attribute__((target("sse2"))) static int bd_structure_sse2(const uint8_t *line, size_t count,
                                                             uint64_t *quotes) {
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20);
  __m128i care = _mm_setzero_si128();
  uint8_t block[64];
  for (size_t offset = 0; offset < count; offset += 64) {
    const uint8_t *bytes = line + offset;
    if (count - offset < 64) {
      bd_padded_tail(bytes, count - offset, block);
      bytes = block;
    }
    uint64_t word = 0;
    for (int lane = 0; lane < 4; lane++) {
      __m128i v = _mm_loadu_si128((const __m128i *)(bytes + 16 * lane));
      // Read as signed, a control character and a non-ASCII byte are both below 0x20.
      care = _mm_or_si128(care, _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmplt_epi8(v, space)));
      word |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) << (16 * lane);
    }
    quotes[offset >> 6] = word;
  }
  return _mm_movemask_epi8(care) == 0;
}

__attribute__((target("avx2"))) static int bd_structure_avx2(const uint8_t *line, size_t count,
                                                             uint64_t *quotes) {
  const __m256i quote = _mm256_set1_epi8('"');
  const __m256i backslash = _mm256_set1_epi8('\\');
  const __m256i space = _mm256_set1_epi8(0x20);
  __m256i care = _mm256_setzero_si256();
  uint8_t block[64];
  for (size_t offset = 0; offset < count; offset += 64) {
    const uint8_t *bytes = line + offset;
    if (count - offset < 64) {
      bd_padded_tail(bytes, count - offset, block);
      bytes = block;
    }
    __m256i low = _mm256_loadu_si256((const __m256i *)bytes);
    __m256i high = _mm256_loadu_si256((const __m256i *)(bytes + 32));
    care = _mm256_or_si256(care, _mm256_or_si256(_mm256_cmpeq_epi8(low, backslash),
                                                 _mm256_cmpgt_epi8(space, low)));
    care = _mm256_or_si256(care, _mm256_or_si256(_mm256_cmpeq_epi8(high, backslash),
                                                 _mm256_cmpgt_epi8(space, high)));
    quotes[offset >> 6] =
        (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, quote)) |
        (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, quote)) << 32;
  }
  return _mm256_testz_si256(care, care);
}

__attribute__((target("avx512f,avx512bw"))) static int
bd_structure_avx512(const uint8_t *line, size_t count, uint64_t *quotes) {
  const __m512i quote = _mm512_set1_epi8('"');
  const __m512i backslash = _mm512_set1_epi8('\\');
  const __m512i space = _mm512_set1_epi8(0x20);
  __mmask64 care = 0;
  for (size_t offset = 0; offset < count; offset += 64) {
    size_t rest = count - offset;
    // The last block's bytes past the line are spaces, and never loaded.
    __m512i v = rest >= 64 ? _mm512_loadu_si512(line + offset)
                           : _mm512_mask_loadu_epi8(space, ((__mmask64)1 << rest) - 1,
                                                    line + offset);
    care |= _mm512_cmpeq_epi8_mask(v, backslash) | _mm512_cmplt_epi8_mask(v, space);
    quotes[offset >> 6] = _mm512_cmpeq_epi8_mask(v, quote);
  }
  return care == 0;
}

/// The end of `bd_line_structure` in a block whose newline bits are `newlines` (not 0): the
/// quote bits and care bits before the first newline kept, the line's length set.
static inline int bd_line_end(size_t offset, uint64_t newlines, uint64_t quote_bits,
                              uint64_t care_bits, int plain, size_t limit, uint64_t *quotes,
                              size_t *length) {
  unsigned at = (unsigned)__builtin_ctzll(newlines);
  if (offset + at > limit) return -1;
  uint64_t before = at == 0 ? 0 : ~(uint64_t)0 >> (64 - at);
  quotes[offset >> 6] = quote_bits & before;
  *length = offset + at;
  return plain && (care_bits & before) == 0;
}

__attribute__((target("sse2"))) static int bd_line_sse2(const uint8_t *start, size_t available,
                                                        size_t limit, uint64_t *quotes,
                                                        size_t *length) {
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20);
  const __m128i newline = _mm_set1_epi8('\n');
  int plain = 1;
  uint8_t block[64];
  for (size_t offset = 0; offset < available && offset <= limit; offset += 64) {
    const uint8_t *bytes = start + offset;
    if (available - offset < 64) {
      bd_padded_tail(bytes, available - offset, block);
      bytes = block;
    }
    uint64_t quote_bits = 0, care_bits = 0, newlines = 0;
    for (int lane = 0; lane < 4; lane++) {
      __m128i v = _mm_loadu_si128((const __m128i *)(bytes + 16 * lane));
      __m128i care = _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmplt_epi8(v, space));
      quote_bits |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) << (16 * lane);
      care_bits |= (uint64_t)(uint16_t)_mm_movemask_epi8(care) << (16 * lane);
      newlines |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, newline)) << (16 * lane);
    }
    if (newlines) {
      return bd_line_end(offset, newlines, quote_bits, care_bits, plain, limit, quotes, length);
    }
    quotes[offset >> 6] = quote_bits;
    plain &= care_bits == 0;
  }
  return -1;
}

__attribute__((target("avx2"))) static int bd_line_avx2(const uint8_t *start, size_t available,
                                                        size_t limit, uint64_t *quotes,
                                                        size_t *length) {
  const __m256i quote = _mm256_set1_epi8('"');
  const __m256i backslash = _mm256_set1_epi8('\\');
  const __m256i space = _mm256_set1_epi8(0x20);
  const __m256i newline = _mm256_set1_epi8('\n');
  // Blocks before the newline's: their care lanes, as a vector (bits only for the last block).
  __m256i care = _mm256_setzero_si256();
  uint8_t block[64];
  for (size_t offset = 0; offset < available && offset <= limit; offset += 64) {
    const uint8_t *bytes = start + offset;
    if (available - offset < 64) {
      bd_padded_tail(bytes, available - offset, block);
      bytes = block;
    }
    __m256i low = _mm256_loadu_si256((const __m256i *)bytes);
    __m256i high = _mm256_loadu_si256((const __m256i *)(bytes + 32));
    uint64_t quote_bits = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, quote)) |
                          (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, quote))
                              << 32;
    __m256i care_low = _mm256_or_si256(_mm256_cmpeq_epi8(low, backslash), _mm256_cmpgt_epi8(space, low));
    __m256i care_high =
        _mm256_or_si256(_mm256_cmpeq_epi8(high, backslash), _mm256_cmpgt_epi8(space, high));
    __m256i newline_low = _mm256_cmpeq_epi8(low, newline);
    __m256i newline_high = _mm256_cmpeq_epi8(high, newline);
    if (!_mm256_testz_si256(_mm256_or_si256(newline_low, newline_high),
                            _mm256_or_si256(newline_low, newline_high))) {
      uint64_t newlines = (uint64_t)(uint32_t)_mm256_movemask_epi8(newline_low) |
                          (uint64_t)(uint32_t)_mm256_movemask_epi8(newline_high) << 32;
      uint64_t care_bits = (uint64_t)(uint32_t)_mm256_movemask_epi8(care_low) |
                           (uint64_t)(uint32_t)_mm256_movemask_epi8(care_high) << 32;
      return bd_line_end(offset, newlines, quote_bits, care_bits, _mm256_testz_si256(care, care),
                         limit, quotes, length);
    }
    quotes[offset >> 6] = quote_bits;
    care = _mm256_or_si256(care, _mm256_or_si256(care_low, care_high));
  }
  return -1;
}

__attribute__((target("avx512f,avx512bw"))) static int
bd_line_avx512(const uint8_t *start, size_t available, size_t limit, uint64_t *quotes,
               size_t *length) {
  const __m512i quote = _mm512_set1_epi8('"');
  const __m512i backslash = _mm512_set1_epi8('\\');
  const __m512i space = _mm512_set1_epi8(0x20);
  const __m512i newline = _mm512_set1_epi8('\n');
  int plain = 1;
  for (size_t offset = 0; offset < available && offset <= limit; offset += 64) {
    size_t rest = available - offset;
    __m512i v = rest >= 64 ? _mm512_loadu_si512(start + offset)
                           : _mm512_mask_loadu_epi8(space, ((__mmask64)1 << rest) - 1,
                                                    start + offset);
    uint64_t quote_bits = _mm512_cmpeq_epi8_mask(v, quote);
    uint64_t care_bits = _mm512_cmpeq_epi8_mask(v, backslash) | _mm512_cmplt_epi8_mask(v, space);
    uint64_t newlines = _mm512_cmpeq_epi8_mask(v, newline);
    if (newlines) {
      return bd_line_end(offset, newlines, quote_bits, care_bits, plain, limit, quotes, length);
    }
    quotes[offset >> 6] = quote_bits;
    plain &= care_bits == 0;
  }
  return -1;
}

/// The `n`th set bit (`n` >= 1) of `bits`, which has `n` or more: the lowest `n - 1` cleared
/// one at a time.
static inline __attribute__((always_inline)) unsigned bd_nth_bit_clearing(uint64_t bits,
                                                                         unsigned n) {
  while (--n > 0) bits &= bits - 1;
  return (unsigned)__builtin_ctzll(bits);
}

/// `bd_nth_bit_clearing` in one instruction: PDEP deposits the single bit `n - 1` of its source
/// at the `n`th set bit of `bits`.
__attribute__((target("bmi2"))) static inline __attribute__((always_inline)) unsigned
bd_nth_bit_pdep(uint64_t bits, unsigned n) {
  return (unsigned)__builtin_ctzll(_pdep_u64((uint64_t)1 << (n - 1), bits));
}

/// `bd_quote_select`'s loop, compiled for a CPU with `popcnt` (and BMI2's PDEP) or without;
/// `nth` finds the bit within the word that holds it.
#define BD_QUOTE_SELECT(name, features, nth)                                                   \
  __attribute__((target(features))) static ptrdiff_t name(const uint64_t *quotes, size_t words,   \
                                                        size_t position, unsigned n) {         \
    size_t word = position >> 6;                                                               \
    if (n == 0 || word >= words) return -1;                                                    \
    uint64_t bits = quotes[word] & (~(uint64_t)0 << (position & 63));                          \
    for (;;) {                                                                                 \
      unsigned here = (unsigned)__builtin_popcountll(bits);                                    \
      if (here >= n) break;                                                                    \
      n -= here;                                                                               \
      if (++word >= words) return -1;                                                          \
      bits = quotes[word];                                                                     \
    }                                                                                          \
    return (ptrdiff_t)(word << 6 | (size_t)nth(bits, n));                                      \
  }
BD_QUOTE_SELECT(bd_quote_select_generic, "sse2", bd_nth_bit_clearing)
BD_QUOTE_SELECT(bd_quote_select_popcnt, "popcnt", bd_nth_bit_clearing)
BD_QUOTE_SELECT(bd_quote_select_pdep, "bmi2,popcnt", bd_nth_bit_pdep)

typedef ptrdiff_t (*bd_quote_select_function)(const uint64_t *, size_t, size_t, unsigned);
static bd_quote_select_function bd_select = bd_quote_select_generic;
static bd_select_variant bd_select_chosen = BD_SELECT_GENERIC;

static int bd_select_runs(bd_select_variant variant) {
  switch (variant) {
  case BD_SELECT_GENERIC: return 1;
  case BD_SELECT_POPCNT: return __builtin_cpu_supports("popcnt");
  case BD_SELECT_PDEP: return __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
  }
  return 0;
}

/// AMD's families 15h (Excavator) and 17h (Zen, Zen+, Zen 2: `znver1`, `znver2`) run PDEP in
/// microcode, tens to hundreds of cycles by the bits set: slower there than the loop it
/// replaces. The families as well as the models, since a model the runtime's table does not
/// place (or a CPU a hypervisor shows without the features it tells them apart by) has neither
/// `znver` name, but its family all the same.
static int bd_pdep_is_slow(void) {
  return __builtin_cpu_is("amdfam15h") || __builtin_cpu_is("amdfam17h") ||
         __builtin_cpu_is("znver1") || __builtin_cpu_is("znver2");
}

typedef int (*bd_structure_function)(const uint8_t *, size_t, uint64_t *);
typedef int (*bd_line_function)(const uint8_t *, size_t, size_t, uint64_t *, size_t *);

static bd_structure_variant bd_chosen = BD_STRUCTURE_SSE2;
static bd_structure_function bd_function = bd_structure_sse2;
static bd_line_function bd_line = bd_line_sse2;

static int bd_runs(bd_structure_variant variant) {
  switch (variant) {
  case BD_STRUCTURE_SSE2: return 1;
  case BD_STRUCTURE_AVX2: return __builtin_cpu_supports("avx2");
  case BD_STRUCTURE_AVX512:
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
  }
  return 0;
}

/// Chosen before `main`, so every call reads a pointer written once, before any thread.
__attribute__((constructor)) static void bd_choose(void) {
  __builtin_cpu_init();
  if (bd_select_runs(BD_SELECT_PDEP) && !bd_pdep_is_slow()) {
    bd_select_chosen = BD_SELECT_PDEP;
    bd_select = bd_quote_select_pdep;
  } else if (bd_select_runs(BD_SELECT_POPCNT)) {
    bd_select_chosen = BD_SELECT_POPCNT;
    bd_select = bd_quote_select_popcnt;
  }
  if (bd_runs(BD_STRUCTURE_AVX512)) {
    bd_chosen = BD_STRUCTURE_AVX512;
    bd_function = bd_structure_avx512;
    bd_line = bd_line_avx512;
  } else if (bd_runs(BD_STRUCTURE_AVX2)) {
    bd_chosen = BD_STRUCTURE_AVX2;
    bd_function = bd_structure_avx2;
    bd_line = bd_line_avx2;
  }
}

int bd_structure(const uint8_t *line, size_t count, uint64_t *quotes) {
  return bd_function(line, count, quotes);
}

int bd_structure_in(bd_structure_variant variant, const uint8_t *line, size_t count,
                    uint64_t *quotes) {
  if (!bd_runs(variant)) return -1;
  switch (variant) {
  case BD_STRUCTURE_SSE2: return bd_structure_sse2(line, count, quotes);
  case BD_STRUCTURE_AVX2: return bd_structure_avx2(line, count, quotes);
  case BD_STRUCTURE_AVX512: return bd_structure_avx512(line, count, quotes);
  }
  return -1;
}

bd_structure_variant bd_structure_chosen(void) { return bd_chosen; }

int bd_line_structure(const uint8_t *start, size_t available, size_t limit, uint64_t *quotes,
                      size_t *length) {
  return bd_line(start, available, limit, quotes, length);
}

int bd_line_structure_in(bd_structure_variant variant, const uint8_t *start, size_t available,
                         size_t limit, uint64_t *quotes, size_t *length) {
  if (!bd_runs(variant)) return -2;
  switch (variant) {
  case BD_STRUCTURE_SSE2: return bd_line_sse2(start, available, limit, quotes, length);
  case BD_STRUCTURE_AVX2: return bd_line_avx2(start, available, limit, quotes, length);
  case BD_STRUCTURE_AVX512: return bd_line_avx512(start, available, limit, quotes, length);
  }
  return -2;
}

ptrdiff_t bd_quote_select(const uint64_t *quotes, size_t words, size_t position, unsigned n) {
  return bd_select(quotes, words, position, n);
}

ptrdiff_t bd_quote_select_in(bd_select_variant variant, const uint64_t *quotes, size_t words,
                             size_t position, unsigned n) {
  if (!bd_select_runs(variant)) return -2;
  switch (variant) {
  case BD_SELECT_GENERIC: return bd_quote_select_generic(quotes, words, position, n);
  case BD_SELECT_POPCNT: return bd_quote_select_popcnt(quotes, words, position, n);
  case BD_SELECT_PDEP: return bd_quote_select_pdep(quotes, words, position, n);
  }
  return -2;
}

bd_select_variant bd_quote_select_chosen(void) { return bd_select_chosen; }

#endif
