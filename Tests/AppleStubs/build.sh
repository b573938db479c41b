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
#   Tests/AppleStubs/build.sh [OUT_DIR]        (.ci/run calls it after the tests)
#
# 1. Every target of the package, in dependency order, in Swift 6 mode (the package's), with the
#    package's upcoming features and -warnings-as-errors; the library targets also in Swift 5 mode.
# 2. Consumer/NotesView.swift, app code as a SwiftUI developer writes it, in Swift 5 and 6 modes:
#    against the stubs, and unchanged against the Linux Binding (with Consumer/LinuxViews.swift).
# 3. The DocC catalog, from both builds' symbol graphs, with `docc convert --warnings-as-errors`.
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
common=(
  -package-name bindingdiagnostics -enable-testing -warnings-as-errors
  -module-cache-path "$out/module-cache"
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility
  -enable-upcoming-feature InternalImportsByDefault
)

# The targets, their sources and dependencies, as SwiftPM sees them.
swift package describe --type json >"$out/package.json"
jq -r '.targets[] | [.name, .c99name, .type, .path, ((.target_dependencies // []) | join(" ")),
  ([.sources[] | select(endswith(".swift"))] | join(" "))] | join("|")' "$out/package.json" \
  >"$out/targets.txt"

# compile DIR MODE MODULE EXTRA_FLAGS SOURCES...: emit the module (full type check, including the
# SIL diagnostics: region isolation, definite initialisation) into DIR.
compile() {
  local dir=$1 mode=$2 module=$3 extra=$4
  shift 4
  mkdir -p "$dir"
  # shellcheck disable=SC2086
  swiftc -emit-module -wmo -swift-version "$mode" -module-name "$module" "${common[@]}" $extra \
    -I "$dir" -emit-module-path "$dir/$module.swiftmodule" "$@" \
    || { echo "apple-stubs: $module failed to compile (Swift $mode, $dir)" >&2; return 1; }
}

# build DIR MODE EXTRA_FLAGS KINDS: every target whose type is in KINDS, dependencies first.
build() {
  local dir=$1 mode=$2 extra=$3 kinds=$4 done=" " progress=1
  while [ $progress = 1 ]; do
    progress=0
    while IFS='|' read -r name module type path deps sources; do
      case " $kinds " in *" $type "*) ;; *) continue ;; esac
      case "$done" in *" $name "*) continue ;; esac
      local ready=1
      for dep in $deps; do case "$done" in *" $dep "*) ;; *) ready=0 ;; esac; done
      [ $ready = 1 ] || continue
      local symbols=""
      if [ "$name" = BindingDiagnostics ]; then
        # As the manifest's debug configuration, which the test targets are built against:
        # the system-call seam's fault hook is compiled in.
        symbols="-D BINDING_FAULT_INJECTION"
        symbols="$symbols -emit-symbol-graph -emit-symbol-graph-dir $dir/symbols -emit-extension-block-symbols"
        mkdir -p "$dir/symbols"
      fi
      # shellcheck disable=SC2086
      compile "$dir" "$mode" "$module" "$extra $symbols" $(printf "$path/%s " $sources)
      done="$done$name "
      progress=1
    done <"$out/targets.txt"
  done
  local wanted
  wanted=$(awk -F'|' -v kinds=" $kinds " 'index(kinds, " " $3 " ") {print $1}' "$out/targets.txt")
  for name in $wanted; do
    case "$done" in *" $name "*) ;; *) echo "apple-stubs: $name not built" >&2; return 1 ;; esac
  done
}

# docs SYMBOLS_DIR: the DocC catalog converts with no warnings.
docs() {
  docc convert Sources/BindingDiagnostics/BindingDiagnostics.docc \
    --additional-symbol-graph-dir "$1" --output-path "$1/../docs.doccarchive" \
    --fallback-display-name BindingDiagnostics --fallback-bundle-identifier BindingDiagnostics \
    --warnings-as-errors >"$1/../docc.log" 2>&1 \
    || { cat "$1/../docc.log" >&2; echo "apple-stubs: docc convert failed ($1)" >&2; return 1; }
}

stubbed="-I $here"
# Everything against the stubs in Swift 6 mode; in parallel, the Swift 5 mode and the Linux
# builds, which need only the library targets.
(
  build "$out/stubs-6" 6 "$stubbed" "library executable test"
  compile "$out/stubs-6" 6 Consumer "$stubbed" "$here/Consumer/NotesView.swift"
  docs "$out/stubs-6/symbols"
) &
first=$!
(
  build "$out/stubs-5" 5 "$stubbed" "library"
  compile "$out/stubs-5" 5 Consumer "$stubbed" "$here/Consumer/NotesView.swift"
  build "$out/linux" 6 "" "library"
  for mode in 5 6; do
    compile "$out/linux" "$mode" Consumer "" "$here/Consumer/NotesView.swift" \
      "$here/Consumer/LinuxViews.swift"
  done
  docs "$out/linux/symbols"
) &
second=$!
status=0
wait $first || status=1
wait $second || status=1
if [ $status = 0 ]; then
  echo "apple-stubs: every target and the consumer compile against the SwiftUI, os and XCTest stubs" \
    "(Swift 6; libraries and consumer also Swift 5); the consumer compiles against the Linux" \
    "Binding; DocC converts without warnings"
fi
exit $status
