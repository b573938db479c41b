#!/usr/bin/env bash
# The Apple-platform paths, compiled here on Linux against interface stubs of SwiftUI, os and
# XCTest (SwiftUI.swiftinterface, os.swiftinterface, XCTest.swiftinterface: declarations only,
# modelled on the current SDK), so `canImport(SwiftUI)` and `canImport(os)` are true and the stub
# XCTest shadows the toolchain's corelibs XCTest; an empty ObjectiveC.swiftinterface makes
# `canImport(ObjectiveC)` true, the condition of the code written for Xcode's XCTest (the Linux
# build below compiles its corelibs twin). Compile-only: nothing links or runs. What
# this proves and what only a Mac can is in the DocC article "Apple platforms"
# (Sources/BindingDiagnostics/BindingDiagnostics.docc/ApplePlatforms.md).
#
#   Tests/AppleStubs/build.sh [OUT_DIR]        (.ci/run starts it beside `swift test`)
#
# 1. Every target of the package, in dependency order, in Swift 6 mode (the package's), with the
#    package's upcoming features and -warnings-as-errors. Only in Swift 6 mode: the manifest
#    names no other (`swiftLanguageModes: [.v6]`), so SwiftPM builds the libraries in Swift 6
#    mode for every app, a Swift 5 app included.
# 2. Consumer/NotesView.swift, app code as a SwiftUI developer writes it, in Swift 5 and 6 modes,
#    each against the Swift 6 modules of 1 (as a Swift 5 app's build uses them): against the
#    stubs, and unchanged against the Linux Binding (with Consumer/LinuxViews.swift).
# 3. The DocC catalog, from both builds' symbol graphs, with `docc convert --warnings-as-errors`.
# The compilations of 1 and 2 run two at a time, each as soon as its dependencies are built (a
# generated makefile, `make -j2`). The Linux Binding is SwiftPM's own debug build (`swift build`,
# the flags of 1 in Swift 6 mode; a no-op after `swift test`, whose lock it waits for), its
# symbol graph read from the built module by swift-symbolgraph-extract: compiling the libraries a
# second time for Linux proved nothing the package's build does not.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=Tests/AppleStubs
if [ $# -ge 1 ]; then
  out=$1
else
  out=$(mktemp -d "${TMPDIR:-/tmp}/apple-stubs.XXXXXX")
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
export out
# Exported for the makefile's recipes (bash, see below): word-split where used.
export common="-package-name bindingdiagnostics -enable-testing -warnings-as-errors
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility
  -enable-upcoming-feature InternalImportsByDefault"

# The targets, their sources and dependencies, as SwiftPM sees them; with a scratch path of its
# own, as `swift test` may hold the lock of .build meanwhile.
swift package --scratch-path "$out/scratch" describe --type json >"$out/package.json"
# A C target (module_type ClangTarget) is no rule of its own: every compile finds its module map
# through -I its include directory ($clang_includes).
jq -r '.targets[] | [.name, .c99name,
  (if .module_type == "ClangTarget" then "clang" else .type end), .path,
  ((.target_dependencies // []) | join(" ")),
  ([.sources[] | select(endswith(".swift"))] | join(" "))] | join("|")' "$out/package.json" \
  >"$out/targets.txt"

# compile DIR MODE MODULE EXTRA_FLAGS SOURCES...: emit the module (full type check, including the
# SIL diagnostics: region isolation, definite initialisation) into DIR.
compile() {
  local dir=$1 mode=$2 module=$3 extra=$4
  shift 4
  mkdir -p "$dir"
  # shellcheck disable=SC2086
  swiftc -emit-module -wmo -swift-version "$mode" -module-name "$module" $common $extra \
    -module-cache-path "$out/module-cache" \
    -I "$dir" -emit-module-path "$dir/$module.swiftmodule" "$@" \
    || { echo "apple-stubs: $module failed to compile (Swift $mode, $dir)" >&2; return 1; }
}

# rules DIR MODE EXTRA_FLAGS KINDS: a make rule per target whose type is in KINDS, on the
# modules of its dependencies (a dependency of another type is a missing file: make fails).
clang_includes=$(awk -F'|' '$3 == "clang" {printf "-I %s/include ", $4}' "$out/targets.txt")

rules() {
  local dir=$1 mode=$2 extra=$3 kinds=$4
  while IFS='|' read -r name module type path deps sources; do
    case " $kinds " in *" $type "*) ;; *) continue ;; esac
    local symbols="" needs=""
    if [ "$name" = BindingDiagnostics ]; then
      # As the manifest's debug configuration, which the test targets are built against:
      # the system-call seam's fault hook is compiled in.
      symbols="-D BINDING_FAULT_INJECTION"
      symbols="$symbols -emit-symbol-graph -emit-symbol-graph-dir $dir/symbols -emit-extension-block-symbols"
    fi
    # Every C target's module map, for its dependents and theirs (a module that imports one
    # needs it again wherever that module is imported).
    symbols="$symbols $clang_includes"
    for dep in $deps; do
      local row
      row=$(awk -F'|' -v n="$dep" '$1 == n' "$out/targets.txt")
      [ "$(cut -d'|' -f3 <<<"$row")" = clang ] && continue
      needs="$needs $dir/$(cut -d'|' -f2 <<<"$row").swiftmodule"
    done
    printf '%s:%s\n\t@mkdir -p %s/symbols && compile %s %s %s "%s" %s\n' \
      "$dir/$module.swiftmodule" "$needs" "$dir" "$dir" "$mode" "$module" "$extra $symbols" \
      "$(printf "$path/%s " $sources)"
    all="$all $dir/$module.swiftmodule"
  done <"$out/targets.txt"
}

# docs SYMBOLS_DIR: the DocC catalog converts with no warnings.
docs() {
  docc convert Sources/BindingDiagnostics/BindingDiagnostics.docc \
    --additional-symbol-graph-dir "$1" --output-path "$1/../docs.doccarchive" \
    --fallback-display-name BindingDiagnostics --fallback-bundle-identifier BindingDiagnostics \
    --warnings-as-errors >"$1/../docc.log" 2>&1 \
    || { cat "$1/../docc.log" >&2; echo "apple-stubs: docc convert failed ($1)" >&2; return 1; }
}
export -f compile docs

stubbed="-I $here"
# Against the stubs: everything in Swift 6 mode, the consumer in Swift 6 and 5 modes against
# those modules, the catalog from the Swift 6 symbol graph. Two at a time, the test targets (the longest
# chains) first.
all=""
{
  echo "SHELL := /bin/bash"
  rules "$out/stubs-6" 6 "$stubbed" "test"
  rules "$out/stubs-6" 6 "$stubbed" "executable library"
  for mode in 6 5; do
    printf '%s: %s\n\t@compile %s %s Consumer "%s" %s\n' "$out/stubs-$mode/Consumer.swiftmodule" \
      "$out/stubs-6/BindingDiagnostics.swiftmodule" "$out/stubs-$mode" "$mode" \
      "$stubbed -I $out/stubs-6" "$here/Consumer/NotesView.swift"
    all="$all $out/stubs-$mode/Consumer.swiftmodule"
  done
  printf '%s: %s\n\t@docs %s && touch $@\n' "$out/stubs-6/docs.done" \
    "$out/stubs-6/BindingDiagnostics.swiftmodule" "$out/stubs-6/symbols"
  echo "all:$all $out/stubs-6/docs.done"
} >"$out/Makefile"
status=0
make -s -j2 -f "$out/Makefile" all || status=1

# Against the Linux Binding: SwiftPM's debug build, the consumer in both modes, the catalog.
if [ $status = 0 ]; then
  swift build >"$out/swift-build.log" 2>&1 \
    || { cat "$out/swift-build.log" >&2; echo "apple-stubs: swift build failed" >&2; status=1; }
fi
if [ $status = 0 ]; then
  modules="$(swift build --show-bin-path)/Modules"
  mkdir -p "$out/linux/symbols"
  swift-symbolgraph-extract -module-name BindingDiagnostics -I "$modules" \
    -target "$(swift -print-target-info | jq -r .target.triple)" \
    -module-cache-path "$out/module-cache" -output-dir "$out/linux/symbols" \
    -minimum-access-level public -emit-extension-block-symbols \
    || { echo "apple-stubs: no symbol graph of $modules/BindingDiagnostics" >&2; status=1; }
  for mode in 5 6; do
    compile "$out/linux" "$mode" Consumer "-I $modules" "$here/Consumer/NotesView.swift" \
      "$here/Consumer/LinuxViews.swift" || status=1
  done
  docs "$out/linux/symbols" || status=1
fi
if [ $status = 0 ]; then
  echo "apple-stubs: every target and the consumer compile against the SwiftUI, os and XCTest stubs" \
    "(Swift 6; the consumer also in Swift 5); the consumer compiles against the Linux" \
    "Binding; DocC converts without warnings"
fi
exit $status
