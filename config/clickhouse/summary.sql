-- The numbers of `bindiag summary --format json`, from the table `bindiag export --schema
-- clickhouse` creates and `bindiag export --format clickhouse` fills. The package's tests load an
-- export into ClickHouse (chdb, the engine in process), run each query below and compare every
-- number with `bindiag summary --format json` of the same input.
--
-- As bindiag counts them:
-- - a record stands for `1 + suppressed` events (rate limiting folds events into one record);
-- - a record read twice (the same `run` and `seq`, say a file exported twice) counts once: every
--   query reads `deduplicated`, one row per run and seq (bindiag keeps the first read; copies
--   that differ, which only a forged or damaged input holds, may be kept otherwise here);
-- - run records (kind `run-heartbeat`, `run-end`) are never events: they give a run's tail, the
--   `run_records` it had handed out, for the lost records (a misuse record's is ignored);
-- - within a run, every `seq` missing from 1 up to the highest known is a lost record.
-- They match an unfiltered export (or one filtered by --run, --host or --process, which keep whole
-- runs); an export filtered by kind, level, file or time holds only part of each run's records,
-- so its lost-record counts are not the summary's.
--
-- Each query is named by a `-- name:` line; they read the table `bindiag_events`.

-- name: totals
-- The summary's top line: events, records, the first and last time, duplicates.
WITH deduplicated AS (SELECT * FROM bindiag_events LIMIT 1 BY run, seq)
SELECT
    sum(1 + suppressed) AS events,
    count() AS records,
    min(ts) AS first,
    max(ts) AS last,
    (SELECT count() FROM bindiag_events) - (SELECT count() FROM deduplicated) AS duplicates
FROM deduplicated
WHERE kind NOT IN ('run-heartbeat', 'run-end');

-- name: sites
-- Events per call site (kind, file, line), as `--group-by site` groups them: first and last seen,
-- the processes, hosts and value types, and events per level; most events first.
WITH deduplicated AS (SELECT * FROM bindiag_events LIMIT 1 BY run, seq)
SELECT
    kind,
    file,
    line,
    sum(1 + suppressed) AS events,
    count() AS records,
    min(ts) AS first,
    max(ts) AS last,
    arraySort(groupUniqArray(process)) AS processes,
    arraySort(groupUniqArray(host)) AS hosts,
    arraySort(groupUniqArray(value_type)) AS value_types,
    arraySort(groupUniqArray(label)) AS labels,
    sumMap(map(toString(level), toUInt64(1 + suppressed))) AS levels
FROM deduplicated
WHERE kind NOT IN ('run-heartbeat', 'run-end')
GROUP BY kind, file, line
ORDER BY events DESC, kind, file, line;

-- name: processes
-- Events per process, as `--group-by process` counts them.
WITH deduplicated AS (SELECT * FROM bindiag_events LIMIT 1 BY run, seq)
SELECT process, sum(1 + suppressed) AS events, count() AS records
FROM deduplicated
WHERE kind NOT IN ('run-heartbeat', 'run-end')
GROUP BY process
ORDER BY events DESC, process;

-- name: lost_runs
-- Lost records per run: the highest seq known (seen, or declared by a run record's
-- `run_records`) less the distinct seqs seen; `head` is what is missing before the first seen.
SELECT
    run,
    min(process) AS process,
    greatest(max(seq), maxIf(ifNull(run_records, 0), kind IN ('run-heartbeat', 'run-end')))
        - uniqExact(seq) AS lost,
    min(seq) - 1 AS head
FROM bindiag_events
GROUP BY run
HAVING lost > 0
ORDER BY lost DESC, run;

-- name: lost
-- Lost records in all.
SELECT sum(lost) AS lost
FROM
(
    SELECT greatest(max(seq), maxIf(ifNull(run_records, 0), kind IN ('run-heartbeat', 'run-end')))
        - uniqExact(seq) AS lost
    FROM bindiag_events
    GROUP BY run
);
