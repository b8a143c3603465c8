import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ConsoleUser } from "../api/types";
import { cells, change, click } from "../test/byTestId";
import { apiError, bodiesTo, callsTo, json, type Route, stubFetch, type StubResponse } from "../test/fetchStub";
import { ADMIN, CLUSTERS, ME } from "../test/fixtures";
import { renderApp } from "../test/render";
import { BOB } from "../test/userFixtures";

const USERS_URL = "/api/v1/users";

const ROOT_USER: ConsoleUser = {
  id: 1,
  username: "root",
  is_active: true,
  is_superuser: true,
  role: "admin",
  cluster_roles: {},
  has_password: true,
  sso: false,
  last_login: "2026-07-01T09:30:00Z",
  date_joined: "2026-06-01T08:00:00Z",
  tokens: 0,
};

const CAROL: ConsoleUser = { ...BOB, id: 9, username: "carol", is_active: false, role: null, cluster_roles: {}, has_password: true,
  sso: false, tokens: 0 };

/** GET users answers `list()`; POST users `onCreate(body)`. */
function stubUsers({
  user = ADMIN,
  list = () => [BOB, CAROL, ROOT_USER],
  onCreate = (body: Record<string, unknown>) => json({ ...BOB, id: 11, username: String(body.username) }, 201),
  extra = {},
}: {
  user?: typeof ADMIN;
  list?: () => ConsoleUser[];
  onCreate?: (body: Record<string, unknown>) => StubResponse;
  extra?: Record<string, Route>;
} = {}) {
  return stubFetch({
    "/api/v1/me": json(user),
    "/api/v1/clusters": json(CLUSTERS),
    [USERS_URL]: (_url, init) => ((init?.method ?? "GET") === "POST" ? onCreate(JSON.parse(String(init?.body)) as Record<string, unknown>) : json(list())),
    ...extra,
  });
}

async function openPage() {
  renderApp("/users");
  await screen.findByTestId("user-row-bob");
}

/** Opens the form and waits for the cluster choices. */
async function openForm() {
  click("new-user");
  await screen.findByTestId("new-user-form");
  click("new-user-roles-add");
  await waitFor(() => expect(within(screen.getByTestId("new-user-roles-cluster-0")).getAllByRole("option")).toHaveLength(3));
}

describe("UsersPage", () => {
  it("lists the users: state, role on every cluster, roles on single clusters, sign-in, tokens", async () => {
    stubUsers();
    await openPage();
    expect(document.title).toBe("Users · Kafka Console");
    expect(screen.getByRole("link", { name: "Users" })).toHaveClass("active");
    expect(screen.getByTestId("users-count")).toHaveTextContent("3 users");
    const bob = cells("user-row-bob");
    expect(bob[0]).toBe("bob");
    expect(bob[1]).toBe("enabled");
    expect(bob[2]).toBe("viewer");
    // The chips, by cluster name.
    expect(bob[3]).toBe("local: operatorstaging: admin");
    expect(within(screen.getByTestId("user-cluster-roles-bob")).getByText("local").closest("[data-role]")).toHaveAttribute("data-role", "operator");
    expect(bob[4]).toBe("tokens only");
    expect(bob[5]).toBe("never");
    expect(bob[6]).toBe("2");
    expect(screen.getByTestId("user-link-bob")).toHaveAttribute("href", "/users/7");
    const carol = cells("user-row-carol");
    expect(carol.slice(1, 5)).toEqual(["disabled", "none", "—", "password"]);
    expect(cells("user-row-root")[0]).toBe("rootsuperuser");
    expect(cells("user-row-root")[5]).toMatch(/^2026-07-01 \d\d:\d\d$/);
  });

  it("opens a user's page from its row", async () => {
    stubUsers({ extra: { "/api/v1/users/7": json(BOB), "/api/v1/users/7/tokens": json([]) } });
    await openPage();
    fireEvent.click(within(screen.getByTestId("user-row-bob")).getByText("tokens only"));
    expect(await screen.findByTestId("user-page")).toBeInTheDocument();
  });

  it("creates a user with a role on one cluster: the password sent once and emptied at once, the list asked again", async () => {
    let users = [BOB, CAROL, ROOT_USER];
    const dave: ConsoleUser = { ...CAROL, id: 12, username: "dave", is_active: true, cluster_roles: { staging: "operator" } };
    const fetch = stubUsers({
      list: () => users,
      onCreate: () => {
        users = [BOB, CAROL, dave, ROOT_USER];
        return json(dave, 201);
      },
    });
    await openPage();
    await openForm();
    change("new-user-username", "dave");
    change("new-user-password", "a long s3cret");
    // The first free cluster is chosen; another may be.
    expect(screen.getByTestId("new-user-roles-cluster-0")).toHaveValue("local");
    change("new-user-roles-cluster-0", "staging");
    change("new-user-roles-cluster-role-0", "operator");
    // A second row, removed again.
    click("new-user-roles-add");
    expect(screen.getByTestId("new-user-roles-cluster-1")).toHaveValue("local");
    click("new-user-roles-remove-1");
    expect(screen.queryByTestId("new-user-roles-row-1")).toBeNull();
    click("new-user-submit");
    expect(screen.getByTestId("new-user-password")).toHaveValue("");

    expect(await screen.findByTestId("user-created")).toHaveTextContent("Created dave.");
    expect(screen.getByTestId("user-created-link")).toHaveAttribute("href", "/users/12");
    expect(bodiesTo(fetch, USERS_URL, "POST")).toEqual([
      { username: "dave", password: "a long s3cret", cluster_roles: { staging: "operator" } },
    ]);
    expect(document.body.innerHTML).not.toContain("s3cret");
    expect(screen.queryByTestId("new-user-form")).toBeNull();
    await waitFor(() => expect(screen.getByTestId("users-count")).toHaveTextContent("4 users"));
  });

  it("creates a tokens-only user with a role on every cluster", async () => {
    const fetch = stubUsers();
    await openPage();
    click("new-user");
    change("new-user-username", "ci-bot");
    change("new-user-roles-role", "operator");
    click("new-user-submit");
    expect(await screen.findByTestId("user-created")).toBeInTheDocument();
    expect(bodiesTo(fetch, USERS_URL, "POST")).toEqual([{ username: "ci-bot", role: "operator" }]);
  });

  it("says what is missing before sending", async () => {
    const fetch = stubUsers();
    await openPage();
    await openForm();
    click("new-user-submit");
    expect(screen.getByTestId("field-error-username")).toHaveTextContent("Give the user name.");
    expect(screen.getByTestId("field-error-cluster-local")).toHaveTextContent("Choose its role.");
    expect(callsTo(fetch, USERS_URL, "POST")).toHaveLength(0);
  });

  it("shows a 400 beside its field or cluster row, and a 409 with what to do", async () => {
    let answer: StubResponse = apiError(400, "invalid", "password: This password is too short.", {
      field: "password",
      errors: { password: ["This password is too short. It must contain at least 8 characters."], cluster_roles: { local: ['"owner" is not a valid choice.'] } },
    });
    stubUsers({ onCreate: () => answer });
    await openPage();
    await openForm();
    change("new-user-username", "dave");
    change("new-user-password", "short");
    change("new-user-roles-cluster-role-0", "viewer");
    click("new-user-submit");
    expect(await screen.findByTestId("field-error-password")).toHaveTextContent("This password is too short. It must contain at least 8 characters.");
    expect(screen.getByTestId("field-error-cluster-local")).toHaveTextContent('"owner" is not a valid choice.');
    expect(screen.queryByTestId("error-banner")).toBeNull();

    answer = apiError(409, "user_exists", "A user named 'dave' exists.");
    click("new-user-submit");
    const banner = await screen.findByTestId("error-banner");
    expect(banner).toHaveTextContent("Could not create the user: A user named 'dave' exists.");
    expect(banner).toHaveTextContent("HTTP 409 · user_exists");
    expect(screen.getByTestId("new-user-hint")).toHaveTextContent("Choose another name");
    expect(screen.getByTestId("new-user-form")).toBeInTheDocument();
  });

  it("is in the top bar for admins only, and tells others the page is not theirs", async () => {
    stubUsers({ user: ME, list: () => [] });
    renderApp("/");
    await screen.findByTestId("current-user");
    expect(screen.queryByRole("link", { name: "Users" })).toBeNull();
    cleanup();
    stubUsers({ user: ME, extra: { [USERS_URL]: apiError(403, "permission_denied", "You need the admin role.") } });
    renderApp("/users");
    expect(await screen.findByTestId("admin-only")).toHaveTextContent("Only admins can see and change the console's users");
    expect(await screen.findByTestId("error-banner")).toHaveTextContent("You need the admin role.");
  });
});
