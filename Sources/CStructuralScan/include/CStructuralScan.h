// The summary path's first stage over one contract line, in the widest vectors the CPU has
// (chosen once, when the library loads): the line's quotes as bits, and whether any byte needs
// care. BindingDiagnosticsReport's `ContractStructuralScanner` calls it; on other CPUs than
// x86-64 it uses its own portable vectors and this header declares nothing.
#ifndef CSTRUCTURALSCAN_H
#define CSTRUCTURALSCAN_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)

/// The vector width of a variant of `bd_structure`.
typedef enum {
  /// 16-byte SSE2 vectors: every x86-64 CPU.
  BD_STRUCTURE_SSE2 = 0,
  /// 32-byte AVX2 vectors.
  BD_STRUCTURE_AVX2 = 1,
  /// 64-byte AVX-512BW vectors and mask registers.
  BD_STRUCTURE_AVX512 = 2,
} bd_structure_variant;

/// Sets bit `i` of `quotes[w]` when byte `64 w + i` of `line` is a quote (`"`), writing
/// `(count + 63) / 64` words; returns 1 when no byte of the line is a backslash, a control
/// character (below 0x20) or a non-ASCII byte (0x80 and above), else 0. Reads no byte outside
/// `line[0 ..< count]`. The variant is the widest this CPU runs.
int bd_structure(const uint8_t *line, size_t count, uint64_t *quotes);

/// The line starting at `start`, found and scanned in one pass: when a newline is among the
/// first `available` bytes, and at most `limit` bytes in, sets `*length` to the line's length
/// (without the newline), writes its quote bits as `bd_structure` does (no bit past the line;
/// up to `limit / 64 + 1` words) and returns `bd_structure`'s verdict for the line; else
/// returns -1. Reads no byte outside `start[0 ..< available]`.
int bd_line_structure(const uint8_t *start, size_t available, size_t limit, uint64_t *quotes,
                      size_t *length);

/// `bd_line_structure` in the given variant; -2 (having written nothing) when this CPU cannot
/// run it.
int bd_line_structure_in(bd_structure_variant variant, const uint8_t *start, size_t available,
                         size_t limit, uint64_t *quotes, size_t *length);

/// `bd_structure` in the given variant; -1 (having written nothing) when this CPU cannot run
/// it. For tests, which compare the variants.
int bd_structure_in(bd_structure_variant variant, const uint8_t *line, size_t count,
                    uint64_t *quotes);

/// The variant `bd_structure` runs on this CPU.
bd_structure_variant bd_structure_chosen(void);

/// How `bd_quote_select` counts the bits: its variants.
typedef enum {
  /// x86-64's baseline: the bits counted without `popcnt`.
  BD_SELECT_GENERIC = 0,
  /// The CPU's `popcnt`; the bit within the word found by clearing the bits below it.
  BD_SELECT_POPCNT = 1,
  /// `popcnt`, and the bit within the word found with BMI2's PDEP.
  BD_SELECT_PDEP = 2,
} bd_select_variant;

/// The position of the `n`th quote (`n` >= 1) at or after `position` in the quote bits `quotes`
/// of a line of `words` words (as `bd_structure` writes them), or -1 when the line has fewer
/// (or `n` is 0).
/// With the CPU's `popcnt` where it has one (x86-64's baseline has not, and Swift compiles for
/// it), and its PDEP where that is fast (not on AMD before Zen 3, which runs it in microcode).
ptrdiff_t bd_quote_select(const uint64_t *quotes, size_t words, size_t position, unsigned n);

/// `bd_quote_select` in the given variant; -2 when this CPU cannot run it. For tests, which
/// compare the variants.
ptrdiff_t bd_quote_select_in(bd_select_variant variant, const uint64_t *quotes, size_t words,
                             size_t position, unsigned n);

/// The variant `bd_quote_select` runs on this CPU.
bd_select_variant bd_quote_select_chosen(void);

#endif
#endif
