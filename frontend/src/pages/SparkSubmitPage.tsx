import { useQueryClient } from "@tanstack/react-query";
import { Suspense, useCallback } from "react";
import { useNavigate } from "react-router-dom";
import { queryKeys } from "../api/queryKeys";
import type { SparkJob, SparkJobType } from "../api/types";
import { Loading } from "../components/Loading";
import { loadStateOf, PageShell } from "../components/PageShell";
import { LazySparkJobForm as SparkJobForm } from "../components/sparkJobs/LazySparkJobForm";
import { SparkFormNotices } from "../components/sparkJobs/SparkFormNotices";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useQueryUpdate } from "../hooks/useQueryUpdate";
import { useSparkFormData } from "../hooks/useSparkFormData";
import { SPARK_JOBS_PATH, sparkJobPath } from "../navigation";

/**
 * /spark/new — the job types (title and description), and the chosen one's form generated from
 * its params schema; URL query `type` (the job type) and `cluster`. Submitting opens the new
 * job's page. Viewers see the form disabled.
 */
export function SparkSubmitPage() {
  useDocumentTitle("New Spark job");
  const navigate = useNavigate();
  const [query, update] = useQueryUpdate();

  const { types, clusters, formProps } = useSparkFormData(query.get("cluster"), (name) => update({ cluster: name }));

  const selected = types.data?.find((t) => t.name === query.get("type")) ?? types.data?.[0];
  const client = useQueryClient();
  const onSubmitted = useCallback(
    (job: SparkJob) => {
      // The answer is the new job: its page shows it at once (and fetches it again).
      client.setQueryData(queryKeys.sparkJob(job.id), job);
      navigate(sparkJobPath(job.id));
    },
    [client, navigate],
  );

  return (
    <PageShell
      crumbs={[{ label: "Spark jobs", to: SPARK_JOBS_PATH }, { label: "New job" }]}
      title="New Spark job"
      {...loadStateOf(types)}
      what="the job types"
      loadingLabel="Loading job types…"
      testId="spark-submit-page"
    >
      {types.data && (
        <>
          <SparkFormNotices action="submit Spark jobs" clusters={clusters} />
          <JobTypePicker types={types.data} selected={selected?.name ?? null} onSelect={(name) => update({ type: name })} />
          {selected && (
            <section className="job-type-form" aria-labelledby="job-type-title">
              <h2 id="job-type-title">{selected.title}</h2>
              <Suspense fallback={<Loading label="Loading the form…" rows={4} />}>
                <SparkJobForm key={selected.name} jobType={selected} {...formProps} onSubmitted={onSubmitted} />
              </Suspense>
            </section>
          )}
          {types.data.length === 0 && <p className="empty">The server offers no job types.</p>}
        </>
      )}
    </PageShell>
  );
}

interface JobTypePickerProps {
  types: SparkJobType[];
  selected: string | null;
  onSelect: (name: string) => void;
}

/** The job types as cards; the chosen one's form is shown below them. */
function JobTypePicker({ types, selected, onSelect }: JobTypePickerProps) {
  return (
    <div className="job-types" role="group" aria-label="Job type">
      {types.map((type) => (
        <button
          key={type.name}
          type="button"
          className={type.name === selected ? "job-type-card active" : "job-type-card"}
          aria-pressed={type.name === selected}
          onClick={() => onSelect(type.name)}
          data-testid={`job-type-${type.name}`}
        >
          <span className="job-type-name">{type.title}</span>
          <span className="job-type-id mono">{type.name}</span>
          <span className="job-type-text">{type.description}</span>
        </button>
      ))}
    </div>
  );
}
