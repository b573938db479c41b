# The system-journal entries (`journalctl -o json`, one object per line) that this checkout's
# test suite wrote, for .ci/run's journal check; `--arg root` is the checkout's physical path.
# - Anything a program of this checkout wrote: its executable (`_EXE`, the build products under
#   .build) lies under the checkout, or the program its command line (`_CMDLINE`) starts with
#   does. A command line that merely names a file of the checkout (`sudo cat …/Package.swift`)
#   is another program's and does not count.
# - A BINDING_* entry journald could name no program for (no `_EXE`: the process had exited
#   before journald looked it up): it may be the suite's, so it counts.
# A BINDING_* entry of a program elsewhere (an app being tried, another checkout) does not.
def text: if type == "string" then . else "" end;
($root | sub("/+$"; "") + "/") as $prefix
| select(
    ((._EXE | text) | startswith($prefix))
    or ((._CMDLINE | text) | ltrimstr(" ") | split(" ") | .[0] // "" | startswith($prefix))
    or ((has("BINDING_KIND") or has("BINDING_RUN") or has("BINDING_SCHEMA"))
        and ((._EXE | text) == ""))
  )
