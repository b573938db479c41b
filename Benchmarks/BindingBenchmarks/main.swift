// Benchmarks for BindingDiagnostics (release build). Each mode prints `name value unit` lines;
// Benchmarks/run.sh runs them beside their peers and prints the ratios.
//
//   BindingBenchmarks mapping                correct path of a mapping vs a hand-written Binding
//   BindingBenchmarks misuse                 one misuse into a null sink and the stderr sink
//   BindingBenchmarks element                correct path of an element binding vs one by index
//   BindingBenchmarks element-calls W N      N of W (element-read, element-write, index-read,
//                                            index-write; locked-… over a LockedValue), for
//                                            callgrind
//   BindingBenchmarks element-reread N       N element bindings re-read after removeFirst(), s
//   BindingBenchmarks misuse-calls N         N misuses into a null sink only (for callgrind)
//   BindingBenchmarks writes                 the write checks (issue 30) beside their peers
//   BindingBenchmarks write-calls W N        N of W (see exerciseWrites), for callgrind
//   BindingBenchmarks jsonl PATH N           misuses into the JSON Lines file sink
//   BindingBenchmarks jsonl-threads PATH N T N misuses from T threads into one JSON Lines sink
//   BindingBenchmarks jsonl-rate PATH R S T  R misuses a second for S seconds from T threads,
//                                            default options (queue size): are any dropped?
//   BindingBenchmarks journald N             misuses into the journald sink
//   BindingBenchmarks generate N SEED        N contract records with realistic sites, to stdout
//   BindingBenchmarks export HOST N SEED     N journal entries of one host in journal export
//                                            format (for systemd-journal-remote), to stdout
//   BindingBenchmarks export-mixed HOST N UNRELATED SEED
//                                            the same N entries among UNRELATED ordinary log
//                                            entries of other services, export format, to stdout
//
// This file is the command dispatch only: MappingBenchmarks.swift (correct path, misuse path),
// ElementBenchmark.swift, SinkBenchmarks.swift (JSON Lines file, journald), Generator.swift,
// HostExport.swift and UnrelatedExport.swift (test data), Measure.swift (clocks and timing).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = CommandLine.arguments
switch arguments.count > 1 ? arguments[1] : "" {
case "mapping": runMapping()
case "misuse": runMisuse()
case "element": runElement()
case "element-reread" where arguments.count == 3: runElementReread(count: Int(arguments[2])!)
case "element-calls" where arguments.count == 4:
  runElementCalls(which: arguments[2], count: Int(arguments[3])!)
case "misuse-calls" where arguments.count == 3: runMisuseCalls(count: Int(arguments[2])!)
case "writes": runWrites()
case "write-calls" where arguments.count == 4:
  exerciseWrites(arguments[2], count: Int(arguments[3])!)
case "jsonl" where arguments.count == 4: runJSONLines(path: arguments[2], count: Int(arguments[3])!)
case "jsonl-threads" where arguments.count == 5:
  runJSONLinesThreads(path: arguments[2], count: Int(arguments[3])!, threads: Int(arguments[4])!)
case "jsonl-rate" where arguments.count == 6:
  runJSONLinesRate(
    path: arguments[2], rate: Int(arguments[3])!, seconds: Int(arguments[4])!,
    threads: Int(arguments[5])!)
case "jsonl-rotate" where arguments.count == 6:
  runJSONLines(
    path: arguments[2], count: Int(arguments[3])!, maxBytes: Int(arguments[4])!,
    keep: Int(arguments[5])!)
case "journald" where arguments.count == 3: runJournald(count: Int(arguments[2])!)
case "generate" where arguments.count == 4:
  runGenerate(count: Int(arguments[2])!, seed: UInt64(arguments[3])!)
case "export" where arguments.count == 5:
  runGenerateExport(host: arguments[2], count: Int(arguments[3])!, seed: UInt64(arguments[4])!)
case "export-mixed" where arguments.count == 6:
  runGenerateMixedExport(
    host: arguments[2], count: Int(arguments[3])!, unrelated: Int(arguments[4])!,
    seed: UInt64(arguments[5])!)
default:
  print(
    "usage: BindingBenchmarks mapping | misuse | element | element-calls W N | misuse-calls N"
      + " | writes | write-calls W N | jsonl PATH N"
      + " | jsonl-threads PATH N T | jsonl-rate PATH R S T | journald N | generate N SEED"
      + " | export HOST N SEED | export-mixed HOST N UNRELATED SEED")
  exit(64)
}
