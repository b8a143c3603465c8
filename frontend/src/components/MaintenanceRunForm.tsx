// The maintenance-pipeline form: the Spark submit page's own form (SparkJobForm, loaded lazily
// with the form library as there) for the `maintenance-pipeline` job type. Its params are one
// object per step; the form's schema helper (formSchema) shapes only the top level, so each
// step's object is put through it here first (titles, null alternatives and null defaults gone),
// and given a title saying which step it is.
import { Suspense, useMemo } from "react";
import type { JsonSchema, SparkJobType } from "../api/types";
import { isRecord } from "../lib/isRecord";
import { formSchema } from "../lib/sparkForm";
import { Loading } from "./Loading";
import { LazySparkJobForm as SparkJobForm } from "./sparkJobs/LazySparkJobForm";
import type { SparkJobFormProps } from "./sparkJobs/SparkJobForm";

/** The pipeline's params keys (one per step), with the title each step's group gets. */
const STEP_GROUPS: Record<string, string> = {
  features: "1 · Window features",
  labels: "2 · Failure labels",
  training: "3 · Training set",
  model: "4 · Model",
  score: "5 · Scores",
};

/** The job type with each step's params object shaped for the form as top-level params are. */
export function pipelineFormType(jobType: SparkJobType): SparkJobType {
  const schema = jobType.params_schema;
  if (!isRecord(schema.properties)) return jobType;
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([key, property]) => {
      if (!isRecord(property) || property.type !== "object" || !isRecord(property.properties)) return [key, property];
      const shaped = formSchema(property as JsonSchema) as JsonSchema;
      return [key, { ...shaped, title: typeof property.title === "string" ? property.title : (STEP_GROUPS[key] ?? key) }];
    }),
  );
  return { ...jobType, params_schema: { ...schema, properties } };
}

/** The Spark submit page's form (loaded lazily) for the pipeline job type, each step's params shaped. */
export function MaintenanceRunForm({ jobType, ...props }: Omit<SparkJobFormProps, "checkInBrowser">) {
  const shaped = useMemo(() => pipelineFormType(jobType), [jobType]);
  return (
    <Suspense fallback={<Loading label="Loading the form…" rows={4} />}>
      <SparkJobForm jobType={shaped} {...props} />
    </Suspense>
  );
}
