import { sparkJobDownloadUrl } from "../../api/endpoints";
import type { SparkJob } from "../../api/types";
import { formatBytes, formatCount, plural } from "../../lib/format";
import { isRecord } from "../../lib/isRecord";

/** A succeeded topic-export's `download` (its result schema, sparkjobs/job_types.py), or null. */
function exportDownload(job: SparkJob): { bytes: number; records: number | null } | null {
  if (job.job_type !== "topic-export" || job.state !== "succeeded" || !isRecord(job.result)) return null;
  const download = job.result.download;
  if (!isRecord(download) || typeof download.bytes !== "number") return null;
  return { bytes: download.bytes, records: typeof download.records === "number" ? download.records : null };
}

/**
 * The link to download a succeeded topic-export's records as one gzipped JSON-lines file
 * (GET spark/jobs/{id}/download, docs/spark-jobs.md), with its size; when the export wrote none,
 * why (its result's `download_skipped`). Nothing for any other job, or an export from before
 * downloads.
 */
export function ExportDownload({ job }: { job: SparkJob }) {
  const download = exportDownload(job);
  if (download) {
    const records = download.records === null ? "" : `${formatCount(download.records)} ${plural(download.records, "record")}, `;
    return (
      <p>
        <a
          href={sparkJobDownloadUrl(job.id)}
          download
          title={`${records}one JSON object per line, gzip-compressed`}
          data-testid="job-download"
        >
          Download (JSON lines, gzip, {formatBytes(download.bytes)})
        </a>
      </p>
    );
  }
  const skipped = job.job_type === "topic-export" && job.state === "succeeded" && isRecord(job.result) ? job.result.download_skipped : null;
  if (typeof skipped !== "string" || skipped === "") return null;
  return (
    <p className="muted" data-testid="job-download-skipped">
      No file to download: {skipped}
    </p>
  );
}
