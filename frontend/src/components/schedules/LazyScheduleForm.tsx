import { lazy } from "react";

/** ScheduleForm with the form library and its JSON Schema validator (ajv) in a chunk of their own
 * (as LazySparkJobForm), loaded once an operator opens the form (render it inside a Suspense). */
export const LazyScheduleForm = lazy(() => import("./ScheduleForm").then((m) => ({ default: m.ScheduleForm })));
