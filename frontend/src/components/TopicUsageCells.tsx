import type { TopicSummary } from "../api/types";
import { formatBytes } from "../lib/format";
import {
  formatMessageCount,
  formatReaderGroups,
  READERS_UNKNOWN_TITLE,
  replicasSizeTitle,
  UPPER_BOUND_TITLE,
} from "../lib/topicUsage";

/**
 * The topics list's Size, Messages and Read by cells of one topic (data-testid
 * `topic-size-<name>` with data-bytes, `topic-messages-<name>` and `topic-readers-<name>` with
 * data-count; "" when unknown). One line each: the rows have a fixed height.
 */
export function TopicUsageCells({ row }: { row: TopicSummary }) {
  return (
    <>
      <td
        className="num"
        data-testid={`topic-size-${row.name}`}
        data-bytes={row.size_bytes ?? ""}
        title={replicasSizeTitle(row.replicas_size_bytes)}
      >
        {formatBytes(row.size_bytes)}
      </td>
      <td
        className="num"
        data-testid={`topic-messages-${row.name}`}
        data-count={row.message_count ?? ""}
        data-upper-bound={row.message_count_is_upper_bound ? "true" : undefined}
        title={row.message_count_is_upper_bound ? UPPER_BOUND_TITLE : undefined}
      >
        {formatMessageCount(row.message_count, row.message_count_is_upper_bound)}
      </td>
      <td
        className={row.reader_groups === null ? "num muted" : "num"}
        data-testid={`topic-readers-${row.name}`}
        data-count={row.reader_groups ?? ""}
        title={row.reader_groups === null ? READERS_UNKNOWN_TITLE : undefined}
      >
        {formatReaderGroups(row.reader_groups)}
      </td>
    </>
  );
}
