# A comparable rewrite for `bindiag export --format otlp` (Benchmarks/export.sh): each contract
# record as an OTLP/JSON log record with the same attributes, one object per line (jq -c).
{timeUnixNano: .ts, severityText: .level, body: {stringValue: .msg},
 eventName: ("binding." + .kind),
 resource: [{key: "service.name", value: {stringValue: .process}},
            {key: "host.name", value: {stringValue: .host}},
            {key: "process.pid", value: {intValue: (.pid | tostring)}}],
 attributes: [{key: "code.file.path", value: {stringValue: .file}},
              {key: "code.line.number", value: {intValue: (.line | tostring)}},
              {key: "code.function.name", value: {stringValue: .function}},
              {key: "binding.kind", value: {stringValue: .kind}},
              {key: "binding.message_id", value: {stringValue: .message_id}},
              {key: "binding.run", value: {stringValue: .run}},
              {key: "binding.seq", value: {intValue: (.seq | tostring)}},
              {key: "binding.suppressed", value: {intValue: (.suppressed | tostring)}},
              {key: "binding.value_type", value: {stringValue: .value_type}},
              {key: "binding.value_present", value: {boolValue: .value_present}},
              {key: "binding.value", value: {stringValue: .value}}]}
