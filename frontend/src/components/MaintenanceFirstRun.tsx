// What to do before the first pipeline run: the data it needs (with the demo backfill command
// when the alarms or work-orders topic is missing on the cluster), the cut-off, then the run.
import { backfillCommand, type PipelineTopics } from "../lib/maintenance";

interface MaintenanceFirstRunProps {
  cluster: string;
  /** The pipeline's default topics (its job type's schema). */
  topics: PipelineTopics;
  /** The cluster's topic names; undefined while they load (or could not be). */
  existing: readonly string[] | undefined;
}

/** Shown above the form while the pipeline has never run. */
export function MaintenanceFirstRun({ cluster, topics, existing }: MaintenanceFirstRunProps) {
  const missing = existing === undefined ? [] : [topics.alarms, topics.workOrders].filter((t) => !existing.includes(t));
  return (
    <section className="pm-first-run" aria-labelledby="pm-first-run-title" data-testid="pm-first-run">
      <h2 id="pm-first-run-title">Before the first run</h2>
      <ol className="pm-first-steps">
        <li data-testid="pm-first-data">
          <strong>Data.</strong> It learns from the alarms topic <span className="mono">{topics.alarms}</span> and the work-orders
          topic <span className="mono">{topics.workOrders}</span>
          {cluster && (
            <>
              {" "}
              on <span className="mono">{cluster}</span>
            </>
          )}
          .{" "}
          {missing.length > 0 ? (
            <>
              {missing.map((t, i) => (
                <span key={t}>
                  {i > 0 && " and "}
                  <span className="mono">{t}</span>
                </span>
              ))}{" "}
              {missing.length > 1 ? "do" : "does"} not exist there yet. To try the pipeline on demo data, write the demo
              maintenance history (60 days of alarms and work orders for 200 equipment) with:
              <code className="pm-command" data-testid="pm-backfill-command">
                {backfillCommand(cluster, topics)}
              </code>
            </>
          ) : (
            existing !== undefined && <span data-testid="pm-topics-ok">Both topics exist there.</span>
          )}
        </li>
        <li>
          <strong>Cut-off date</strong> in the form below (3 · Training set): the days before it train the model, the
          days from it on test it. Choose a day a few weeks before the last day of the alarms.
        </li>
        <li>
          <strong>Run.</strong> Its five steps show under Latest pipeline run as they run; then its model is listed
          under Models and the equipment it finds most likely to fail under Top-risk equipment.
        </li>
      </ol>
    </section>
  );
}
