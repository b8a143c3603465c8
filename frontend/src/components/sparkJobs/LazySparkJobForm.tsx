import { lazy } from "react";

/** SparkJobForm with the form library and its JSON Schema validator (ajv) in a chunk of their
 * own, loaded only by the pages that show a job form (render it inside a Suspense). */
export const LazySparkJobForm = lazy(() => import("./SparkJobForm").then((m) => ({ default: m.SparkJobForm })));
