import Foundation
import TestSupport
import Testing

/// Completions and the man page are made from the option table help is made from: real
/// shells complete commands, options and values with them, and `man` renders the page
/// without a warning.
@Suite struct BindiagCompletionTests {
  /// What bash's `_bindiag` puts in `COMPREPLY` for `words`, the last being completed, in an
  /// empty directory (so no file name joins the candidates).
  func bashCompletions(_ words: [String]) throws -> [String] {
    let script = try temporaryFile(try bindiag("completions", "bash").stdout, name: "bindiag.bash")
    let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
    let result = try runProduct(
      "/bin/bash",
      [
        "--norc", "-c",
        "source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _bindiag; "
          + #"printf '%s\n' "${COMPREPLY[@]}""#,
      ], directory: try temporaryDirectory())
    #expect(result.stderr == "")
    #expect(result.status == 0)
    return result.stdout.split(separator: "\n").map(String.init)
  }

  @Test(arguments: [
    (["bindiag", "su"], ["summary"]),
    (["bindiag", "c"], ["check", "catalog", "completions"]),
    (["bindiag", "check", "--max-e"], ["--max-events"]),
    (["bindiag", "--gr"], ["--group-by"]),
    (["bindiag", "summary", "--format", "j"], ["json", "junit"]),
    (["bindiag", "follow", "-f", ""], ["table", "json"]),
    (["bindiag", "check", "-p", "er"], ["error", "err"]),
    (["bindiag", "summary", "--since", "y"], ["yesterday"]),
    (["bindiag", "summary", "--kind", "unwrapped-w"], ["unwrapped-write-after-nil"]),
    (["bindiag", "help", "fo"], ["follow"]),
    (["bindiag", "completions", "z"], ["zsh"]),
    (["bindiag", "summary", "--top", ""], []),
  ])
  func bashCompletesCommandsOptionsAndValues(words: [String], expected: [String]) throws {
    #expect(try bashCompletions(words) == expected)
  }

  /// Each command's options as its help lists them: `  -f, --format <format>` gives `-f`
  /// and `--format`.
  func helpOptions(_ command: String) throws -> [String] {
    try bindiag("help", command).stdout.split(separator: "\n").filter { $0.hasPrefix("  -") }
      .flatMap { line in
        line.split(separator: " ").prefix { $0.hasPrefix("-") }.map {
          String($0.hasSuffix(",") ? $0.dropLast() : $0)
        }
      }
  }

  @Test(arguments: ["summary", "check", "follow", "demo", "catalog", "completions", "manpage"])
  func bashOffersTheOptionsHelpLists(command: String) throws {
    let listed = try helpOptions(command)
    #expect(listed.contains("--help"))
    let offered = try bashCompletions(["bindiag", command, "-"])
    #expect(offered == listed + (command == "summary" ? ["--version"] : []))
  }

  @Test func zshAndFishReadTheirScripts() throws {
    let zsh = try temporaryFile(try bindiag("completions", "zsh").stdout, name: "_bindiag")
    let zshCheck = try runProduct("/usr/bin/env", ["zsh", "-n", zsh])
    #expect(zshCheck.status == 0, "zsh (installed by .ci/run): \(zshCheck.stderr)")
    let fish = try temporaryFile(try bindiag("completions", "fish").stdout, name: "bindiag.fish")
    let fishCheck = try runProduct("/usr/bin/env", ["fish", "-n", fish])
    #expect(fishCheck.status == 0, "fish (installed by .ci/run): \(fishCheck.stderr)")
    // fish completes for real with `complete -C`.
    let completed = try runProduct(
      "/usr/bin/env",
      [
        "fish", "--no-config", "-c",
        "source '\(fish)'; complete -C 'bindiag su'; complete -C 'bindiag check --max-e'; "
          + "complete -C 'bindiag follow --format '",
      ], directory: try temporaryDirectory())
    #expect(completed.stderr == "")
    #expect(
      completed.stdout.split(separator: "\n").map { $0.prefix { $0 != "\t" } } == [
        "summary", "--max-events", "json", "table",
      ])
  }

  @Test func theManPageRendersWithoutWarnings() throws {
    let page = try temporaryFile(try bindiag("manpage").stdout, name: "bindiag.1")
    let environment = ["MANPAGER": "cat", "MANWIDTH": "80", "LC_ALL": "C"]
    let man = try runProduct(
      "/usr/bin/env", ["man", "--warnings", "-l", page], environment: environment)
    #expect(man.status == 0)
    #expect(man.stderr == "", "man-db and groff-base (installed by .ci/run)")
    let groff = try runProduct("/usr/bin/env", ["groff", "-man", "-ww", "-z", page])
    #expect(groff.stderr == "")
    #expect(groff.status == 0)
    // Every option of every command is in the page, in the section of its command (up to
    // the next heading: a line of capitals).
    let lines = man.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    for command in ["summary", "check", "follow", "demo", "completions"] {
      let start = try #require(lines.firstIndex(of: Substring(command.uppercased())))
      let section = lines[(start + 1)...].prefix {
        $0.isEmpty || $0.first == " " || !$0.allSatisfy { $0.isUppercase || $0 == " " }
      }.joined(separator: "\n")
      for option in try helpOptions(command) {
        #expect(section.contains(option), "\(command) \(option)")
      }
    }
  }

  @Test(arguments: [
    (
      ["completions", "basj"],
      "Unknown shell 'basj': expected bash, zsh or fish; did you mean 'bash'?"
    ),
    (["completions"], "Missing shell"),
    (["completions", "bash", "zsh"], "Unexpected argument 'zsh'"),
    (["manpage", "extra"], "Unexpected argument 'extra'"),
  ])
  func badArgumentsAreUsageErrors(arguments: [String], message: String) throws {
    let result = try bindiag(arguments: arguments)
    #expect(result.stdout == "")
    #expect(
      result.stderr
        == "Error: \(message)\nUsage: bindiag \(arguments[0])\(arguments[0] == "completions" ? " <shell>" : "")\n  See 'bindiag help \(arguments[0])' for more information.\n"
    )
    #expect(result.status == 64)
  }
}
