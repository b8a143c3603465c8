// The Messages tab's hand-off to Spark: "Search the whole topic on Spark" after a filtered scan
// stopped at a budget submits a topic-search job (the Spark submit form's client call and its
// 400s), then the job is followed as its own page follows it (useSparkJob: the job socket, polled
// without it) and its matches are shown in the tab's table (docs/messages.md, "The Messages tab").
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import { Link } from "react-router-dom";
import { ApiError } from "../../api/client";
import { submitSparkJob } from "../../api/endpoints";
import type { MessageRecord } from "../../api/messages";
import { replaceQueryData } from "../../api/queryClient";
import { queryKeys } from "../../api/queryKeys";
import type { SparkJob } from "../../api/types";
import { useSparkJob } from "../../hooks/useSparkJob";
import { fieldProblems, pathWords, type FieldProblem } from "../../lib/fieldErrors";
import { formatCount } from "../../lib/format";
import { isActive, jobStateHelp } from "../../lib/sparkJobs";
import { readSearchResult, SEARCH_JOB_TYPE, type SearchParams, type SearchPlan } from "../../lib/sparkSearch";
import { sparkJobPath } from "../../navigation";
import { ErrorBanner } from "../ErrorBanner";
import { FieldErrors } from "../FieldErrors";
import { StatusBadge } from "../StatusBadge";
import { CancelJobButton } from "../sparkJobs/CancelJobButton";
import { JobStateBadge } from "../sparkJobs/JobStateBadge";
import { ProgressBar } from "../sparkJobs/ProgressBar";
import { MessageTable } from "./MessageTable";

/** A refused submit: the filter's problem goes beside the filter box (while the box still holds
 * that filter), the other params' beside the button, anything else (403, 5xx) in a banner. */
export interface SearchRefusal {
  filter: string;
  filterError: ApiError | null;
  problems: FieldProblem[];
  banner: Error | null;
}

export interface SparkSearchState {
  /** The job submitted last (its panel), or null. */
  jobId: number | null;
  busy: boolean;
  refusal: SearchRefusal | null;
  submit: (cluster: string, params: SearchParams) => void;
  /** Hide the job's panel (the job goes on; its page has it). */
  close: () => void;
}

/** The refusal of a topic-search submit, placed. */
export function searchRefusal(error: unknown, filter: string): SearchRefusal {
  const problems = fieldProblems(error);
  if (problems.length === 0) {
    return { filter, filterError: null, problems: [], banner: error instanceof Error ? error : new Error(String(error)) };
  }
  const api = error as ApiError;
  const onFilter = problems.filter((p) => p.path === "params.filter");
  const filterError = onFilter.length
    ? new ApiError(api.status, api.code, onFilter.map((p) => p.message).join(" "), { ...api.details, field: "filter" })
    : null;
  return { filter, filterError, problems: problems.filter((p) => p.path !== "params.filter"), banner: null };
}

/** The submit and the job it queued (SparkJobForm's call: submitSparkJob). */
export function useSparkSearch(): SparkSearchState {
  const client = useQueryClient();
  const [jobId, setJobId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<SearchRefusal | null>(null);
  const submit = useCallback(
    (cluster: string, params: SearchParams) => {
      setBusy(true);
      setRefusal(null);
      submitSparkJob({ job_type: SEARCH_JOB_TYPE, cluster, params: { ...params } })
        .then((job) => {
          // The panel shows the queued job at once; its socket and polls follow it from there.
          replaceQueryData<SparkJob>(client, queryKeys.sparkJob(job.id), job);
          setJobId(job.id);
        })
        .catch((error: unknown) => setRefusal(searchRefusal(error, params.filter)))
        .finally(() => setBusy(false));
    },
    [client],
  );
  const close = useCallback(() => setJobId(null), []);
  return { jobId, busy, refusal, submit, close };
}

/** "Search the whole topic on Spark", next to "Go on"; its tooltip says the range searched. */
export function SparkSearchButton({ plan, busy, onSubmit }: { plan: SearchPlan; busy: boolean; onSubmit: (params: SearchParams) => void }) {
  const title =
    "params" in plan
      ? `A topic-search Spark job with this filter and these decoders over ${plan.range}. Spark reads read_uncommitted: records of aborted transactions are searched too.`
      : plan.reason;
  return (
    <button
      type="button"
      className="button button-small"
      disabled={busy || !("params" in plan)}
      onClick={() => "params" in plan && onSubmit(plan.params)}
      title={title}
      data-testid="messages-spark-search"
    >
      {busy ? "Submitting…" : "Search the whole topic on Spark"}
    </button>
  );
}

/** What a refused submit says beside the button (the filter's problem is at the filter box). */
export function SparkSearchRefused({ refusal }: { refusal: SearchRefusal }) {
  return (
    <div className="messages-spark-refused" data-testid="messages-spark-refused">
      {refusal.banner && <ErrorBanner error={refusal.banner} title="Could not submit the Spark search" />}
      <FieldErrors
        messages={refusal.problems.map((p) => (p.path ? `${pathWords(p.path)}: ${p.message}` : p.message))}
        testId="messages-spark-errors"
      />
    </div>
  );
}

interface SparkSearchPanelProps {
  jobId: number;
  selected: string | null;
  recordKey: (record: MessageRecord) => string;
  onSelect: (record: MessageRecord) => void;
  onClose: () => void;
}

/** The submitted job: state, progress, cancel, a link to its page; once it succeeded, what it
 * found: `matched` of `records`, `truncated`, `filter_errors`, and the listed matches in the
 * tab's table (a row opens the record's drawer). */
export function SparkSearchPanel({ jobId, selected, recordKey, onSelect, onClose }: SparkSearchPanelProps) {
  const { data: job, error, replace } = useSparkJob(jobId);
  const result = useMemo(() => (job?.state === "succeeded" ? readSearchResult(job.result) : null), [job]);
  return (
    <section className="messages-spark" data-testid="messages-spark" data-job-id={jobId}>
      <div className="messages-spark-head">
        <strong>Spark search</strong>
        <Link to={sparkJobPath(jobId)} data-testid="messages-spark-job-link">
          job #{jobId}
        </Link>
        {job && <JobStateBadge state={job.state} stopping={job.cancel_requested && isActive(job.state)} data-testid="messages-spark-state" />}
        <span className="messages-spark-tools">
          {job && isActive(job.state) && <CancelJobButton job={job} onCancelled={replace} />}
          <button type="button" className="button button-small" onClick={onClose} title="Hide this panel (the job goes on; its page has it)" data-testid="messages-spark-close">
            Hide
          </button>
        </span>
      </div>
      {!job && error && <ErrorBanner error={error} title="Could not read the job" />}
      {job && (
        <div className="job-progress-row">
          <ProgressBar value={job.progress} state={job.state} label="Spark search progress" data-testid="messages-spark-progress" />
          <span className="muted job-state-help">{jobStateHelp(job.state)}</span>
        </div>
      )}
      {job?.error && (
        <div className="job-error" role="alert" data-testid="messages-spark-error">
          <strong>{job.state === "lost" ? "The job was lost" : "The job failed"}</strong>
          <pre className="job-error-text">{job.error}</pre>
        </div>
      )}
      {result && (
        <>
          <div className="messages-scan messages-spark-facts" data-testid="messages-spark-result">
            <span data-testid="messages-spark-matched">
              <strong>{formatCount(result.matched)}</strong> matched of {formatCount(result.records)} scanned
            </span>
            {result.truncated && (
              <span className="muted" data-testid="messages-spark-truncated" title={result.outputPath ?? undefined}>
                the first {formatCount(result.matches.length)} listed (by partition and offset)
                {result.outputPath ? "; every match is in the job's Parquet output" : ""}
              </span>
            )}
            {result.filterErrors > 0 && (
              <StatusBadge tone="warn" title={result.filterError ?? undefined} data-testid="messages-spark-filter-errors">
                filter failed on {formatCount(result.filterErrors)} {result.filterErrors === 1 ? "record" : "records"}
                {result.filterError ? `: ${result.filterError}` : ""}
              </StatusBadge>
            )}
          </div>
          <MessageTable
            records={result.matches}
            selected={selected}
            recordKey={recordKey}
            onSelect={onSelect}
            filtered
            empty="No record of the range matches the filter."
            testId="spark-matches"
            rowTestId="spark-match-row"
          />
        </>
      )}
    </section>
  );
}
