// swift-tools-version:6.2
import PackageDescription

let package = Package(
  name: "BindingDiagnostics",
  // No higher than this: a diagnostics library must not raise an app's deployment target.
  platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "BindingDiagnostics", targets: ["BindingDiagnostics"]),
    .library(name: "BindingDiagnosticsTesting", targets: ["BindingDiagnosticsTesting"]),
    .library(name: "BindingDiagnosticsXCTest", targets: ["BindingDiagnosticsXCTest"]),
    .executable(name: "bindiag", targets: ["bindiag"]),
  ],
  targets: [
    .target(
      name: "BindingDiagnostics",
      swiftSettings: [
        // The system-call seam's fault hook (`SystemCallFaults`), as swift-system's mocking:
        // compiled into debug and test builds only, so a release build reads no task-local per
        // system call and holds no fault-injection symbol (`Tests/release-symbols.sh`).
        .define("BINDING_FAULT_INJECTION", .when(configuration: .debug))
      ]
    ),
    .target(name: "BindingDiagnosticsTesting", dependencies: ["BindingDiagnostics"]),
    .target(
      name: "BindingDiagnosticsXCTest",
      dependencies: ["BindingDiagnostics", "BindingDiagnosticsTesting"]
    ),
    .target(
      name: "BindingDiagnosticsReport", dependencies: ["BindingDiagnostics", "CStructuralScan"]),
    // The summary path's first stage in AVX2 or AVX-512 vectors, chosen at run time (Swift has
    // no per-function target features); only the report reader links it.
    .target(name: "CStructuralScan"),
    .executableTarget(
      name: "bindiag",
      dependencies: ["BindingDiagnostics", "BindingDiagnosticsReport"]
    ),
    .executableTarget(
      name: "BindingBenchmarks",
      dependencies: ["BindingDiagnostics"],
      path: "Benchmarks/BindingBenchmarks"
    ),
    .executableTarget(
      name: "misuse-helper",
      dependencies: ["BindingDiagnostics"],
      path: "Tests/Helpers/misuse-helper"
    ),
    .target(name: "TestSupport", path: "Tests/Support"),
    .testTarget(
      name: "BindingDiagnosticsTests",
      dependencies: [
        "BindingDiagnostics", "BindingDiagnosticsTesting", "TestSupport", "misuse-helper",
      ]
    ),
    .testTarget(
      name: "BindingDiagnosticsReportTests",
      dependencies: [
        "BindingDiagnosticsReport", "BindingDiagnostics", "BindingDiagnosticsTesting", "TestSupport",
        "CStructuralScan",
      ]
    ),
    .testTarget(
      name: "BindingDiagnosticsTestingTests",
      dependencies: ["BindingDiagnostics", "BindingDiagnosticsTesting", "TestSupport"]
    ),
    // Tests that fail on purpose, run only as a child process by BindingDiagnosticsTestingTests
    // (skipped unless BINDING_DIAGNOSTICS_TESTING_FIXTURES=1).
    .testTarget(
      name: "BindingDiagnosticsTestingFixtures",
      dependencies: ["BindingDiagnostics", "BindingDiagnosticsTesting", "BindingDiagnosticsXCTest"]
    ),
    .testTarget(
      name: "bindiagTests",
      dependencies: [
        "bindiag", "BindingDiagnostics", "BindingDiagnosticsTesting", "TestSupport",
        "misuse-helper",
      ],
      exclude: ["Fixtures", "Snapshots"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// Strict settings for every target, as swift-log does. Warnings are errors here, so `swift run`
// and `swift test` build with the same flags and share one build; SwiftPM ignores this setting
// when the package is a dependency, so it never breaks an app's build.
for target in package.targets where target.name != "CStructuralScan" {
  var settings = target.swiftSettings ?? []
  settings.append(contentsOf: [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .treatAllWarnings(as: .error),
  ])
  target.swiftSettings = settings
}
