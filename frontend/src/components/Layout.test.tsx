import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { API_DOCS_URL } from "../navigation";
import { json, stubFetch } from "../test/fetchStub";
import { CLUSTERS, ME, VIEWER } from "../test/fixtures";
import { renderApp } from "../test/render";

describe("Layout: the top bar", () => {
  it("links the API docs the server serves (Swagger UI) with a plain link, for every role", async () => {
    for (const user of [ME, VIEWER]) {
      stubFetch({ "/api/v1/me": json(user), "/api/v1/clusters": json(CLUSTERS) });
      const { unmount } = renderApp("/");
      const nav = screen.getByRole("navigation", { name: "Main" });
      const link = within(nav).getByRole("link", { name: /API docs/ });
      expect(link).toBe(screen.getByTestId("nav-api-docs"));
      expect(API_DOCS_URL).toBe("/api/v1/docs/");
      expect(link).toHaveAttribute("href", "/api/v1/docs/");
      // A new tab: the console stays where it was.
      expect(link).toHaveAttribute("target", "_blank");
      expect(link.getAttribute("rel")).toContain("noopener");
      unmount();
    }
  });

  it("leaves the link to the browser: the router does not turn it into a page of the app", async () => {
    stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters": json(CLUSTERS) });
    renderApp("/");
    await screen.findByTestId("clusters-table");
    const link = screen.getByTestId("nav-api-docs");
    // A react-router <Link> would handle the click itself (preventDefault) and render the
    // not-found page; a plain anchor leaves it to the browser.
    const click = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
    fireEvent(link, click);
    expect(click.defaultPrevented).toBe(false);
    expect(screen.queryByTestId("not-found")).toBeNull();
    expect(screen.getByTestId("clusters-table")).toBeInTheDocument();
  });

  it("tells a user with no role why there is nothing to see, instead of a page of 403s", async () => {
    stubFetch({ "/api/v1/me": json({ username: "sso-nobody", role: null, cluster_roles: {} }) });
    renderApp("/");
    const card = await screen.findByTestId("no-role");
    expect(card).toHaveTextContent("signed in as sso-nobody");
    expect(card).toHaveTextContent("no role on any cluster");
    expect(screen.getByTestId("current-user")).toHaveTextContent("no role");
    expect(screen.queryByTestId("clusters-table")).toBeNull();
    // No links to pages that would all answer 403.
    expect(within(screen.getByRole("navigation", { name: "Main" })).queryAllByRole("link")).toHaveLength(0);
  });
});
