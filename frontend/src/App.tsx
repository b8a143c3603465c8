import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { lazy, Suspense, type ReactNode } from "react";
import { BrowserRouter, Navigate, Route, Routes } from "react-router-dom";
import { CurrentUserProvider } from "./components/CurrentUser";
import { Layout } from "./components/Layout";
import { Loading } from "./components/Loading";
import { AclsPage } from "./pages/AclsPage";
import { AlertsPage } from "./pages/AlertsPage";
import { BrokerPage } from "./pages/BrokerPage";
import { ClusterPage } from "./pages/ClusterPage";
import { ClustersPage } from "./pages/ClustersPage";
import { CreateTopicPage } from "./pages/CreateTopicPage";
import { GroupPage } from "./pages/GroupPage";
import { GroupsPage } from "./pages/GroupsPage";
import { MaintenancePage } from "./pages/MaintenancePage";
import { NotFoundPage } from "./pages/NotFoundPage";
import { ReassignmentPage } from "./pages/ReassignmentPage";
import { QuotasPage } from "./pages/QuotasPage";
import { ReassignPage } from "./pages/ReassignPage";
import { SchedulesPage } from "./pages/SchedulesPage";
import { ScramUsersPage } from "./pages/ScramUsersPage";
import { SparkJobPage } from "./pages/SparkJobPage";
import { SparkJobsPage } from "./pages/SparkJobsPage";
import { SparkSubmitPage } from "./pages/SparkSubmitPage";
import { TopicPage } from "./pages/TopicPage";
import { TopicsPage } from "./pages/TopicsPage";
import { WorklistPage } from "./pages/WorklistPage";

// The admins' and operators' pages (users and tokens, the audit log) and the approval requests in
// chunks of their own, loaded when one opens: the app's own chunk stays under Vite's 500 kB warning.
const UsersPage = lazy(() => import("./pages/UsersPage").then((m) => ({ default: m.UsersPage })));
const UserPage = lazy(() => import("./pages/UserPage").then((m) => ({ default: m.UserPage })));
const AuditPage = lazy(() => import("./pages/AuditPage").then((m) => ({ default: m.AuditPage })));
const ApprovalsPage = lazy(() => import("./pages/ApprovalsPage").then((m) => ({ default: m.ApprovalsPage })));

/** A lazily loaded page: a spinner until its chunk is there. */
function LazyPage({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loading />}>{children}</Suspense>;
}

/**
 * Every client-side route. Django answers each non-API path with index.html,
 * so these work on reload. New pages: add a <Route> here and, if it belongs in
 * the top bar, an entry in navigation.ts.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<ClustersPage />} />
        <Route path="clusters/:cluster">
          {/* One child per cluster tab (navigation.ts CLUSTER_TABS) and its sub-pages. */}
          <Route index element={<ClusterPage />} />
          <Route path="topics" element={<TopicsPage />} />
          {/* Not topics/new: "new" is a legal topic name. */}
          <Route path="create-topic" element={<CreateTopicPage />} />
          <Route path="topics/:topic" element={<TopicPage />} />
          <Route path="brokers/:broker" element={<BrokerPage />} />
          <Route path="groups" element={<GroupsPage />} />
          <Route path="groups/:group" element={<GroupPage />} />
          <Route path="reassignments" element={<ReassignPage />} />
          <Route path="reassignments/:id" element={<ReassignmentPage />} />
          <Route path="acls" element={<AclsPage />} />
          <Route path="quotas" element={<QuotasPage />} />
          <Route path="scram-users" element={<ScramUsersPage />} />
        </Route>
        <Route path="spark">
          <Route index element={<Navigate to="jobs" replace />} />
          <Route path="jobs" element={<SparkJobsPage />} />
          <Route path="jobs/:jobId" element={<SparkJobPage />} />
          <Route path="new" element={<SparkSubmitPage />} />
          <Route path="schedules" element={<SchedulesPage />} />
        </Route>
        <Route path="maintenance" element={<MaintenancePage />} />
        <Route path="maintenance/worklist" element={<WorklistPage />} />
        <Route path="alerts" element={<AlertsPage />} />
        <Route
          path="users"
          element={
            <LazyPage>
              <UsersPage />
            </LazyPage>
          }
        />
        <Route
          path="users/:userId"
          element={
            <LazyPage>
              <UserPage />
            </LazyPage>
          }
        />
        <Route
          path="audit"
          element={
            <LazyPage>
              <AuditPage />
            </LazyPage>
          }
        />
        <Route
          path="approvals"
          element={
            <LazyPage>
              <ApprovalsPage />
            </LazyPage>
          }
        />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

/** The app: the server state's cache (one QueryClient, api/queryClient.ts), the router, the user. */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <CurrentUserProvider>
          <AppRoutes />
        </CurrentUserProvider>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
