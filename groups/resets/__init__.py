"""Changes to consumer groups: offset resets, with the rules of Kafka's ConsumerGroupCommand,
and group deletion, which shares their activity check (docs/offset-resets.md).

- `strategies`: the strategies' inputs parsed as the tool parses them (`STRATEGIES`,
  `parse_offsets_csv`, durations, date-times) and `export_csv` (`offsets.csv`).
- `planner`: the new offset of each partition (`plan`), pure.
- `workflow`: a reset end to end, called by the API views: `create_reset` (a preview, or
  planned and executed at once), `execute_preview`, `undo_reset`, `get_reset`,
  `reset_as_dict`.
- `changes`: `refuse_if_active` (every change waits for an inactive group) and
  `delete_group`.

Nothing here imports the lag sampler (`groups.lag`); both use `groups.partitions`.
"""
