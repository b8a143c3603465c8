import { BrowserRouter, Route, Routes } from "react-router-dom";
import { CurrentUserProvider } from "./components/CurrentUser";
import { Layout } from "./components/Layout";
import { ClusterPage } from "./pages/ClusterPage";
import { ClustersPage } from "./pages/ClustersPage";
import { NotFoundPage } from "./pages/NotFoundPage";

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
        <Route path="clusters/:cluster" element={<ClusterPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <CurrentUserProvider>
        <AppRoutes />
      </CurrentUserProvider>
    </BrowserRouter>
  );
}
