# Peer for `bindiag summary --journal-dir DIR --group-by host`, over `journalctl -o json`: events
# (1 + BINDING_SUPPRESSED) and records per host (_HOSTNAME), most events first.
reduce inputs as $e ({};
  .[$e._HOSTNAME].events += (1 + ($e.BINDING_SUPPRESSED | tonumber))
  | .[$e._HOSTNAME].records += 1)
| to_entries | sort_by(-.value.events, .key)
| map({host: .key, events: .value.events, records: .value.records})
