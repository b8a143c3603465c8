import { render } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { AppRoutes } from "../App";
import { CurrentUserProvider } from "../components/CurrentUser";

/** Render the whole app (layout, routes, current user) at `path`. */
export function renderApp(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <CurrentUserProvider>
        <AppRoutes />
      </CurrentUserProvider>
    </MemoryRouter>,
  );
}
