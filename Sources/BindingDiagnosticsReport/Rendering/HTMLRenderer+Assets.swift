extension HTMLRenderer {
  /// The page's style: light and dark, levels in journalctl's hues.
  static let style = """
    :root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --muted: #59636e;
      --line: #d1d9e0; --card: #f6f8fa; --bar: #3b6fb6; --red: #c62828; --khaki: #7d6a00; }
    @media (prefers-color-scheme: dark) {
      :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #30363d; --card: #161b22;
        --bar: #5b9bf0; --red: #ff6b6b; --khaki: #d7d75f; }
    }
    body { font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg);
      margin: 0 auto; padding: 16px 24px; max-width: 1500px; }
    h1 { font-size: 22px; margin: 0 0 4px; }
    h2 { font-size: 16px; margin: 24px 0 8px; }
    .span { color: var(--muted); margin: 0; }
    .totals { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 16px; }
    .total { background: var(--card); border: 1px solid var(--line); border-radius: 6px;
      padding: 8px 14px; color: var(--muted); min-width: 90px; }
    .total b { display: block; font-size: 22px; color: var(--fg); font-variant-numeric: tabular-nums; }
    .total.alert { border-color: var(--red); }
    .total.alert b { color: var(--red); }
    .lost { border: 1px solid var(--red); border-left-width: 6px; border-radius: 6px;
      padding: 2px 16px 12px; margin-top: 16px; }
    .lost h2 { color: var(--red); }
    table { border-collapse: collapse; }
    #groups { font-size: 13px; }
    th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid var(--line);
      vertical-align: middle; white-space: nowrap; }
    td.list, td.key { white-space: normal; min-width: 6em; }
    td.list span, td.key span { display: inline-block; max-width: 24em; overflow-wrap: anywhere; }
    .lost table { table-layout: fixed; width: 100%; max-width: 60em; }
    .lost td { white-space: normal; overflow-wrap: anywhere; }
    th[data-sort] { cursor: pointer; user-select: none; }
    th[aria-sort="ascending"]::after { content: " \\25B2"; }
    th[aria-sort="descending"]::after { content: " \\25BC"; }
    .num { text-align: right; font-variant-numeric: tabular-nums; }
    code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
    .level-critical, .level-error { color: var(--red); font-weight: 600; }
    .level-warning { color: var(--khaki); font-weight: 600; }
    .level-notice { font-weight: 600; }
    .level-debug, .level-trace { color: var(--muted); }
    .chart rect { fill: var(--bar); }
    .chart line { stroke: var(--line); }
    .chart text { fill: var(--muted); font-size: 11px; }
    .chart.large { width: 100%; height: auto; max-width: 800px; }
    .controls { display: flex; flex-wrap: wrap; gap: 16px; align-items: center; margin-bottom: 8px; }
    .controls[hidden] { display: none; }
    input, select { font: inherit; }
    #groups-section { overflow-x: auto; }
    footer { color: var(--muted); margin-top: 24px; font-size: 12px; }

    """

  /// Sorting and filtering, kept in the fragment; sets `data-ready` on `<html>` when applied.
  static let script = """
    (function () {
      "use strict";
      var ranks = { trace: 0, debug: 1, info: 2, notice: 3, warning: 4, error: 5, critical: 6 };
      var table = document.getElementById("groups");
      if (!table) { document.documentElement.setAttribute("data-ready", "true"); return; }
      var body = table.tBodies[0];
      var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
      var rows = Array.prototype.slice.call(body.rows);
      var filter = document.getElementById("filter");
      var level = document.getElementById("level");
      var shown = document.getElementById("shown");
      var state = { sort: "events", order: "desc", filter: "", level: "" };
      // What the filter searches: every cell but the timeline.
      var haystacks = rows.map(function (row) {
        var cells = Array.prototype.slice.call(row.cells, 0, row.cells.length - 1);
        return cells.map(function (cell) { return cell.textContent; }).join(" ").toLowerCase();
      });

      function grouped(n) { return String(n).replace(/\\B(?=(\\d{3})+(?!\\d))/g, ","); }

      function read() {
        var params = new URLSearchParams(location.hash.slice(1));
        var sort = params.get("sort");
        state.sort = sort && headers.some(function (th) { return th.getAttribute("data-sort") === sort; })
          ? sort : "events";
        state.order = params.get("order") === "asc" ? "asc"
          : params.get("order") === "desc" ? "desc"
          : state.sort === "events" ? "desc" : "asc";
        state.filter = params.get("filter") || "";
        var minimum = params.get("level") || "";
        state.level = ranks.hasOwnProperty(minimum) ? minimum : "";
      }

      function write() {
        var params = new URLSearchParams();
        params.set("sort", state.sort);
        params.set("order", state.order);
        if (state.filter) { params.set("filter", state.filter); }
        if (state.level) { params.set("level", state.level); }
        try { history.replaceState(null, "", "#" + params.toString()); } catch (e) { }
      }

      function sort() {
        var index = 0;
        headers.forEach(function (th, i) {
          th.removeAttribute("aria-sort");
          if (th.getAttribute("data-sort") === state.sort) { index = i; }
        });
        var numeric = headers[index].getAttribute("data-type") === "number";
        var sign = state.order === "asc" ? 1 : -1;
        headers[index].setAttribute("aria-sort", state.order === "asc" ? "ascending" : "descending");
        function value(row) {
          var cell = row.cells[index];
          var raw = cell.getAttribute("data-value");
          return numeric ? Number(raw) : (raw === null ? cell.textContent : raw).toLowerCase();
        }
        rows.slice().sort(function (a, b) {
          var x = value(a), y = value(b);
          if (x < y) { return -sign; }
          if (x > y) { return sign; }
          return Number(a.getAttribute("data-index")) - Number(b.getAttribute("data-index"));
        }).forEach(function (row) { body.appendChild(row); });
        table.setAttribute("data-sorted-by", state.sort + " " + state.order);
      }

      function narrow() {
        var needle = state.filter.toLowerCase();
        var minimum = state.level ? ranks[state.level] : -1;
        var count = 0;
        rows.forEach(function (row, i) {
          var visible = haystacks[i].indexOf(needle) >= 0
            && Number(row.getAttribute("data-rank")) >= minimum;
          row.hidden = !visible;
          if (visible) { count += 1; }
        });
        shown.textContent = grouped(count) + " of " + grouped(rows.length)
          + (rows.length === 1 ? " group" : " groups");
      }

      function apply() {
        filter.value = state.filter;
        level.value = state.level;
        sort();
        narrow();
      }

      headers.forEach(function (th) {
        if (!th.hasAttribute("data-sort")) { return; }
        th.tabIndex = 0;
        function choose() {
          var key = th.getAttribute("data-sort");
          if (state.sort === key) {
            state.order = state.order === "asc" ? "desc" : "asc";
          } else {
            state.sort = key;
            state.order = th.getAttribute("data-type") === "number" ? "desc" : "asc";
          }
          sort();
          write();
        }
        th.addEventListener("click", choose);
        th.addEventListener("keydown", function (event) {
          if (event.key === "Enter" || event.key === " ") { event.preventDefault(); choose(); }
        });
      });
      filter.addEventListener("input", function () { state.filter = filter.value; narrow(); write(); });
      level.addEventListener("change", function () { state.level = level.value; narrow(); write(); });
      window.addEventListener("hashchange", function () { read(); apply(); });

      document.querySelector(".controls").hidden = false;
      read();
      apply();
      document.documentElement.setAttribute("data-ready", "true");
    })();

    """
}
