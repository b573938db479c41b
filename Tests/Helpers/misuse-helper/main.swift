// A tiny app for multi-process tests: misuses a mapped binding COUNT times through the
// process-wide pipeline, configured from the environment like any app, then exits (the
// exit-time flush writes whatever is pending).
//
//   misuse-helper COUNT [LABEL]
import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 2, let count = Int(arguments[1]), count >= 0 else {
  print("usage: misuse-helper COUNT [LABEL]")
  exit(64)
}
let label = arguments.count >= 3 ? arguments[2] : nil

final class Model {
  var alert: String? = "Disk almost full"
}
let model = Model()
let alert = Binding<String?>(get: { model.alert }, set: { model.alert = $0 })
let isPresented = alert.mappedToBool(label: label)
for _ in 0..<count {
  isPresented.wrappedValue = true
}
