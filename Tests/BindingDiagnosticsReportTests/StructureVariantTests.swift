#if arch(x86_64)
  import CStructuralScan
  import Glibc
  import Testing

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
          }
        }
      }
      #expect(checked >= 2 * 241)
    }

    /// The `n`th quote at or after a position, as the span memo finds a span's end, equals
    /// the naive count over the bits, for 20 000 random lines' bits, positions and counts.
    @Test func quoteSelectionCountsTheBits() {
      var random = SeededGenerator(seed: 27)
      var wrong: [String] = []
      var found = 0
      for _ in 0..<20_000 {
        let words = Int.random(in: 1...16, using: &random)
        let density = UInt64.random(in: 0...3, using: &random)
        let quotes = (0..<words).map { _ in
          // Sparse to dense bits, and now and then an empty word.
          (0..<density).reduce(UInt64.max) { bits, _ in bits & random.next() }
        }
        let position = Int.random(in: 0..<(words * 64), using: &random)
        let n = Int.random(in: 1...40, using: &random)
        let bits = (position..<(words * 64)).filter { quotes[$0 >> 6] >> UInt64($0 & 63) & 1 == 1 }
        let expected = bits.count >= n ? bits[n - 1] : -1
        let got = quotes.withUnsafeBufferPointer {
          bd_quote_select($0.baseAddress!, words, position, UInt32(n))
        }
        if got >= 0 { found += 1 }
        if got != expected, wrong.count < 3 { wrong.append("\(quotes) from \(position), n \(n)") }
      }
      #expect(wrong == [])
      #expect(found > 5_000 && found < 19_000)
    }

    struct POSIXFailure: Error {
      let code: Int32
      init(_ code: Int32) { self.code = code }
    }
  }
#endif
