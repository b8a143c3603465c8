"""Consumer lag: the groups' offsets read from Kafka, the live-lag sampler, its store in Redis,
its push to pages, `/metrics` and the lag export (docs/live-lag.md).

Entry points:
- `rest`: what the group API views answer: `list_groups_json`, `group_detail`,
  `committed_for_export`, `lag_history` (`HISTORY_WINDOWS`).
- `service.SamplerService`, `sampler.ClusterSampler` and `PassResult`: the sampler process
  (`manage.py lagsampler`) and one pass of one cluster.
- `store`: the Redis keys every web server reads (`read_latest`, `read_meta`, ...).
- `live`: the Channels groups and messages the lag socket (groups.consumers) relays.
- `metrics_view.metrics_view`: `GET /metrics`.

The pass's parts, one module each: `read` (batched Kafka reads), `windows` (sliding windows
and log-end histories), `log_starts`, `timestamps` (record timestamps at committed offsets),
`evaluation` with `steady` (reused rows), `status` (Burrow-style rules) and `measures` (lag
seconds, rates, catch-up, retention risk), `export` (the lag export topic), `gc_pause`.

Nothing is imported here: `store`, `live` and `metrics` load no Kafka client (the web
servers' sockets and scrapes use only them), and nothing here imports the offset resets
(`groups.resets`).
"""
