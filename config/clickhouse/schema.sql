-- bindiag export --format clickhouse writes JSONEachRow rows for this table:
--   bindiag export --format clickhouse app.jsonl \
--     | clickhouse-client --query 'INSERT INTO bindiag_events FORMAT JSONEachRow'
-- Run records (kind run-heartbeat, run-end) are rows too: the queries of
-- config/clickhouse/summary.sql leave them out of events and use them for lost records.
CREATE TABLE IF NOT EXISTS bindiag_events
(
  `v`             UInt8,
  `ts`            DateTime64(6, 'UTC') CODEC(Delta, ZSTD(1)),
  `level`         LowCardinality(String),
  `kind`          LowCardinality(String),
  `message_id`    LowCardinality(String),
  `msg`           String,
  `file`          LowCardinality(String),
  `line`          Int64,
  `function`      LowCardinality(String),
  `value_type`    LowCardinality(String),
  `value_present` Bool,
  `value`         Nullable(String),
  `label`         Nullable(String),
  `test`          Nullable(String),
  `writer`        Nullable(String),
  `process`       LowCardinality(String),
  `pid`           Int64,
  `host`          LowCardinality(String),
  `run`           String,
  `seq`           Int64,
  `suppressed`    Int64,
  `run_records`   Nullable(Int64),
  `run_events`    Nullable(Int64),
  `run_dropped`   Nullable(Int64),
  INDEX run_index `run` TYPE bloom_filter GRANULARITY 4
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(`ts`)
ORDER BY (`kind`, `file`, `line`, `ts`);
