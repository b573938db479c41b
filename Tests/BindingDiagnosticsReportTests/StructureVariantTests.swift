#if arch(x86_64)
  import CStructuralScan
  import Testing

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Darwin)
    import Darwin
  #endif

  @testable import BindingDiagnosticsReport

  /// The summary path's first stage on x86-64 is `CStructuralScan`'s, in the widest vectors the
  /// CPU has. Every variant this CPU runs must give the quote bits and the verdict of the
  /// portable Swift pass (`ContractStructuralScanner.structure`), and read no byte past the line.
  @Suite struct StructureVariantTests {
    static let variants: [(String, bd_structure_variant)] = [
      ("SSE2", BD_STRUCTURE_SSE2), ("AVX2", BD_STRUCTURE_AVX2), ("AVX-512", BD_STRUCTURE_AVX512),
    ]

    /// 30 000 lines of 16 to 1 024 bytes, at every alignment, of quotes, letters and (in some)
    /// one byte that needs care: a backslash, a control character or a non-ASCII byte, at any
    /// position, the last one included.
    @Test func everyVariantGivesThePortablePassesBitsAndVerdict() {
      var random = SeededGenerator(seed: 64)
      var ran: Set<String> = []
      var disagreements: [String] = []
      var plainLines = 0
      let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024 + 64, alignment: 64)
      defer { storage.deallocate() }
      for index in 0..<30_000 {
        let count = Int.random(in: 16...ContractStructuralScanner.maxBytes, using: &random)
        let start = index % 64
        let line = UnsafeMutableBufferPointer(
          start: (storage.baseAddress! + start).assumingMemoryBound(to: UInt8.self), count: count)
        for at in 0..<count {
          line[at] = Int.random(in: 0..<6, using: &random) == 0 ? 0x22 : 0x61
        }
        if index % 2 == 0 {
          let care: [UInt8] = [0x5c, 0x00, 0x0a, 0x1f, 0x7f, 0x80, 0xc3, 0xff]
          let at = index % 10 == 0 ? count - 1 : Int.random(in: 0..<count, using: &random)
          line[at] = care.randomElement(using: &random)!
        }
        var expected = [UInt64](repeating: 0, count: 16)
        let verdict = expected.withUnsafeMutableBufferPointer {
          ContractStructuralScanner.structure(UnsafeBufferPointer(line), quotes: $0)
        }
        if verdict { plainLines += 1 }
        let words = (count + 63) / 64
        for (name, variant) in Self.variants {
          var quotes = [UInt64](repeating: 0xdead, count: 16)
          let result = quotes.withUnsafeMutableBufferPointer {
            bd_structure_in(variant, line.baseAddress!, count, $0.baseAddress!)
          }
          guard result >= 0 else { continue }
          ran.insert(name)
          if (result == 1) != verdict || quotes[..<words] != expected[..<words]
            || quotes[words...].contains(where: { $0 != 0xdead })
          {
            if disagreements.count < 3 { disagreements.append("\(name): \(count) bytes at \(start)") }
          }
        }
      }
      #expect(disagreements == [])
      // SSE2 runs on every x86-64 CPU; the chosen variant must be one that ran.
      #expect(ran.contains("SSE2"))
      #expect(ran.contains(Self.variants[Int(bd_structure_chosen().rawValue)].0))
      #expect(plainLines > 10_000 && plainLines < 20_000)
    }

    /// Lines that end where a page the process cannot read starts, and that start where one
    /// ends, of every length up to four blocks: a load past either end would crash the test.
    @Test func noVariantReadsOutsideTheLine() throws {
      let page = Int(sysconf(Int32(_SC_PAGESIZE)))
      guard
        let map = mmap(nil, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
        map != MAP_FAILED
      else { throw POSIXFailure(errno) }
      defer { munmap(map, 3 * page) }
      let middle = map.advanced(by: page).assumingMemoryBound(to: UInt8.self)
      middle.update(repeating: 0x22, count: page)
      #expect(mprotect(map, page, PROT_NONE) == 0)
      #expect(mprotect(map.advanced(by: 2 * page), page, PROT_NONE) == 0)
      var checked = 0
      for count in 16...256 {
        for start in [middle, middle + page - count] {
          for (_, variant) in Self.variants {
            var quotes = [UInt64](repeating: 0, count: 16)
            let result = quotes.withUnsafeMutableBufferPointer {
              bd_structure_in(variant, start, count, $0.baseAddress!)
            }
            guard result >= 0 else { continue }
            checked += 1
            #expect(result == 1)
            #expect(quotes[(count - 1) / 64] != 0)
            // No newline: the one-pass scan reads every byte given, and none more.
            var length = 0
            let line = quotes.withUnsafeMutableBufferPointer {
              bd_line_structure_in(variant, start, count, 1024, $0.baseAddress!, &length)
            }
            #expect(line == -1)
          }
        }
      }
      #expect(checked >= 2 * 241)
    }

    /// A line found and scanned in one pass (`bd_line_structure`) is the bytes up to the first
    /// newline, with the portable pass's quote bits and verdict for them, when that newline is
    /// among the bytes given and within the limit; else none. 30 000 buffers of lines of every
    /// length around the limit, at every alignment, the newline sometimes past the bytes given.
    @Test func everyVariantFindsAndScansALineAsMemchrAndThePortablePass() {
      var random = SeededGenerator(seed: 10)
      var ran: Set<String> = []
      var wrong: [String] = []
      var found = 0
      let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 1300 + 64, alignment: 64)
      defer { storage.deallocate() }
      for index in 0..<30_000 {
        let available = Int.random(in: 1...1300, using: &random)
        let start = (storage.baseAddress! + index % 64).assumingMemoryBound(to: UInt8.self)
        for at in 0..<available {
          start[at] = Int.random(in: 0..<6, using: &random) == 0 ? 0x22 : 0x61
        }
        // Mostly one newline, anywhere; now and then none, or a second.
        for _ in 0..<Int.random(in: 0...2, using: &random) {
          start[Int.random(in: 0..<available, using: &random)] = 0x0a
        }
        if index % 3 == 0 {
          let care: [UInt8] = [0x5c, 0x00, 0x1f, 0x80, 0xff]
          start[Int.random(in: 0..<available, using: &random)] = care.randomElement(using: &random)!
        }
        let limit = index % 4 == 0 ? Int.random(in: 0...1100, using: &random) : 1024
        let newline = (0..<available).first { start[$0] == 0x0a }
        var expected: (length: Int, plain: Bool, quotes: [UInt64])?
        if let newline, newline <= limit {
          var quotes = [UInt64](repeating: 0, count: 24)
          var plain = true
          if newline >= 16 {
            plain = quotes.withUnsafeMutableBufferPointer {
              ContractStructuralScanner.structure(
                UnsafeBufferPointer(start: start, count: newline), quotes: $0)
            }
          } else {
            // The portable pass takes 16 bytes or more: the short line's bits and verdict here.
            for at in 0..<newline {
              if start[at] == 0x22 { quotes[0] |= 1 << UInt64(at) }
              if start[at] == 0x5c || start[at] < 0x20 || start[at] >= 0x80 { plain = false }
            }
          }
          expected = (newline, plain, Array(quotes[..<((newline + 63) / 64)]))
          found += 1
        }
        for (name, variant) in Self.variants {
          var quotes = [UInt64](repeating: 0, count: 24)
          var length = -1
          let result = quotes.withUnsafeMutableBufferPointer {
            bd_line_structure_in(variant, start, available, limit, $0.baseAddress!, &length)
          }
          guard result != -2 else { continue }
          ran.insert(name)
          let same: Bool
          if let expected {
            same =
              result == (expected.plain ? 1 : 0) && length == expected.length
              && Array(quotes[..<expected.quotes.count]) == expected.quotes
              && quotes[(limit / 64 + 1)...].allSatisfy { $0 == 0 }
          } else {
            same = result == -1
          }
          if !same, wrong.count < 3 {
            wrong.append("\(name): \(available) bytes at \(index % 64), limit \(limit)")
          }
        }
      }
      #expect(wrong == [])
      #expect(ran.contains("SSE2"))
      #expect(found > 15_000 && found < 28_000)
    }

    /// The variants of `bd_quote_select`, by name.
    static let selections: [(String, bd_select_variant)] = [
      ("generic", BD_SELECT_GENERIC), ("popcnt", BD_SELECT_POPCNT), ("PDEP", BD_SELECT_PDEP),
    ]

    /// Whether this CPU runs the variant of `bd_quote_select`.
    static func selects(_ variant: bd_select_variant) -> Bool {
      var word: UInt64 = 1
      return bd_quote_select_in(variant, &word, 1, 0, 1) != -2
    }

    /// One question to `bd_quote_select` and the naive count's answer.
    struct Selection: Sendable {
      let quotes: [UInt64]
      let position: Int
      let n: Int
      let expected: Int
    }

    /// 20 000 random lines' bits, positions and counts, answered by counting the bits one by one.
    static let selectionCases: [Selection] = {
      var random = SeededGenerator(seed: 27)
      return (0..<20_000).map { _ in
        let words = Int.random(in: 1...16, using: &random)
        let density = UInt64.random(in: 0...3, using: &random)
        let quotes = (0..<words).map { _ in
          // Sparse to dense bits, and now and then an empty word.
          (0..<density).reduce(UInt64.max) { bits, _ in bits & random.next() }
        }
        let position = Int.random(in: 0..<(words * 64), using: &random)
        let n = Int.random(in: 1...40, using: &random)
        let bits = (position..<(words * 64)).filter { quotes[$0 >> 6] >> UInt64($0 & 63) & 1 == 1 }
        return Selection(
          quotes: quotes, position: position, n: n, expected: bits.count >= n ? bits[n - 1] : -1)
      }
    }()

    /// Checks `select` (a variant of `bd_quote_select`, given the quotes, words, position and
    /// `n`) against the naive count: no wrong answer, a plausible share found, and no 0th quote.
    static func checkSelection(
      _ select: (UnsafePointer<UInt64>, Int, Int, UInt32) -> Int,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      var wrong: [String] = []
      var found = 0
      for question in selectionCases {
        let got = question.quotes.withUnsafeBufferPointer {
          select($0.baseAddress!, question.quotes.count, question.position, UInt32(question.n))
        }
        if got >= 0 { found += 1 }
        if got != question.expected, wrong.count < 3 {
          wrong.append("\(question.quotes) from \(question.position), n \(question.n)")
        }
      }
      #expect(wrong == [], sourceLocation: sourceLocation)
      #expect(found > 5_000 && found < 19_000, sourceLocation: sourceLocation)
      // No 0th quote, even where every bit is one.
      let all = [UInt64](repeating: .max, count: 2)
      #expect(
        all.withUnsafeBufferPointer { select($0.baseAddress!, 2, 0, 0) } == -1,
        sourceLocation: sourceLocation)
    }

    /// The `n`th quote at or after a position, as the span memo finds a span's end, equals
    /// the naive count over the bits: the variant this CPU runs, which must be one it can.
    @Test func quoteSelectionCountsTheBits() {
      Self.checkSelection { bd_quote_select($0, $1, $2, $3) }
      #expect(Self.selects(bd_quote_select_chosen()))
    }

    /// Without `popcnt` and PDEP, as on x86-64's baseline: every x86-64 CPU runs it.
    @Test func genericQuoteSelectionCountsTheBits() {
      #expect(Self.selects(BD_SELECT_GENERIC))
      Self.checkSelection { bd_quote_select_in(BD_SELECT_GENERIC, $0, $1, $2, $3) }
    }

    /// With `popcnt`, the bit within its word found by clearing the ones below it.
    @Test(.enabled(if: selects(BD_SELECT_POPCNT), "this CPU has no popcnt"))
    func popcntQuoteSelectionCountsTheBits() {
      Self.checkSelection { bd_quote_select_in(BD_SELECT_POPCNT, $0, $1, $2, $3) }
    }

    /// With `popcnt` and BMI2's PDEP (which this CPU runs even where it is too slow to choose).
    @Test(.enabled(if: selects(BD_SELECT_PDEP), "this CPU has no BMI2 (PDEP)"))
    func pdepQuoteSelectionCountsTheBits() {
      Self.checkSelection { bd_quote_select_in(BD_SELECT_PDEP, $0, $1, $2, $3) }
    }

    struct POSIXFailure: Error {
      let code: Int32
      init(_ code: Int32) { self.code = code }
    }
  }
#endif
