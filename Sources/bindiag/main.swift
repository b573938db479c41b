#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// bindiag: read misuse reports back and summarise them. Parsing and exit codes live here;
// reading, aggregation and rendering live in BindingDiagnosticsReport.
exit(Bindiag.run(Array(CommandLine.arguments.dropFirst())))
