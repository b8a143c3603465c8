import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { AppRoutes } from "../App";
import { CurrentUserProvider } from "../components/CurrentUser";
import { createTestQueryClient } from "./queryClient";

/** Render the whole app (server state cache, layout, routes, current user) at `path`; a fresh
 * QueryClient per call unless one is given. */
export function renderApp(path: string, client: QueryClient = createTestQueryClient()) {
  return {
    client,
    ...render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <CurrentUserProvider>
            <AppRoutes />
          </CurrentUserProvider>
        </MemoryRouter>
      </QueryClientProvider>,
    ),
  };
}
