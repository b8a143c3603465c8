import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ApiToken, ApiTokenCreated, ConsoleUser } from "../api/types";
import { cells, change, click } from "../test/byTestId";
import { apiError, bodiesTo, callsTo, json, type Route, stubFetch, type StubResponse } from "../test/fetchStub";
import { ADMIN, CLUSTERS } from "../test/fixtures";
import { renderApp } from "../test/render";
import { BOB } from "../test/userFixtures";

const USER_URL = "/api/v1/users/7";
const TOKENS_URL = "/api/v1/users/7/tokens";

const CI: ApiToken = {
  id: 3,
  name: "ci",
  prefix: "AbCd1234",
  created_at: "2026-07-01T09:30:00Z",
  expires_at: "2026-09-29T09:30:00Z",
  last_used_at: "2026-07-02T10:00:00Z",
  expired: false,
};
const OLD: ApiToken = { ...CI, id: 2, name: "old", prefix: "ZzZz9999", expires_at: "2026-06-30T00:00:00Z", last_used_at: null, expired: true };
const KEY = "k3y-shown-once-0123456789abcdefghijklmnop";

/** GET/PATCH users/7 (`onPatch(body)`), GET/POST users/7/tokens (`onToken(body)`), DELETE of a token. */
function stubUser({
  user = () => BOB,
  tokens = () => [CI, OLD],
  onPatch = (body: Record<string, unknown>) => json({ ...BOB, ...body }),
  onToken = (body: Record<string, unknown>) => json({ ...CI, id: 4, name: String(body.name), prefix: KEY.slice(0, 8), key: KEY } satisfies ApiTokenCreated, 201),
  extra = {},
}: {
  user?: () => ConsoleUser;
  tokens?: () => ApiToken[];
  onPatch?: (body: Record<string, unknown>) => StubResponse;
  onToken?: (body: Record<string, unknown>) => StubResponse;
  extra?: Record<string, Route>;
} = {}) {
  return stubFetch({
    "/api/v1/me": json(ADMIN),
    "/api/v1/clusters": json(CLUSTERS),
    [USER_URL]: (_url, init) => ((init?.method ?? "GET") === "PATCH" ? onPatch(JSON.parse(String(init?.body)) as Record<string, unknown>) : json(user())),
    [TOKENS_URL]: (_url, init) => ((init?.method ?? "GET") === "POST" ? onToken(JSON.parse(String(init?.body)) as Record<string, unknown>) : json(tokens())),
    ...extra,
  });
}

async function openPage() {
  const view = renderApp("/users/7");
  await screen.findByTestId("user-roles-editor");
  await screen.findByTestId("token-row-ci");
  // The cluster choices are there.
  await waitFor(() => expect(within(screen.getByTestId("user-roles-editor-cluster-0")).getAllByRole("option")).toHaveLength(3));
  return view;
}

describe("UserPage", () => {
  it("says that a single sign-on user's roles come from its provider's groups", async () => {
    stubUser({ user: () => ({ ...BOB, sso: true }) });
    await openPage();
    expect(screen.getByTestId("user-sign-in")).toHaveTextContent("single sign-on or API tokens");
    expect(screen.getByTestId("user-sso-note")).toHaveTextContent("until its next sign-in");
  });

  it("shows the user: state, how it signs in, its roles (editable) and its tokens", async () => {
    stubUser();
    await openPage();
    expect(document.title).toBe("bob · Users · Kafka Console");
    expect(within(screen.getByRole("navigation", { name: "Main" })).getByRole("link", { name: "Users" })).toHaveClass("active");
    expect(screen.getByTestId("user-active")).toHaveAttribute("aria-checked", "true");
    expect(screen.getByTestId("user-sign-in")).toHaveTextContent("API tokens only");
    expect(screen.getByTestId("user-role")).toHaveAttribute("data-role", "viewer");
    expect(screen.getByTestId("user-audit-link")).toHaveAttribute("href", "/audit?target=bob");
    expect(screen.getByTestId("user-roles-editor-role")).toHaveValue("viewer");
    expect(screen.getByTestId("user-roles-editor-cluster-0")).toHaveValue("local");
    expect(screen.getByTestId("user-roles-editor-cluster-role-0")).toHaveValue("operator");
    expect(screen.getByTestId("user-roles-editor-cluster-1")).toHaveValue("staging");
    expect(screen.getByTestId("user-roles-save")).toBeDisabled();
    // Tokens: name, prefix…, created, expires, last used, state.
    const ci = cells("token-row-ci");
    expect(ci[0]).toBe("ci");
    expect(ci[1]).toBe("AbCd1234…");
    expect(ci[2]).toMatch(/^2026-07-01 \d\d:\d\d$/);
    expect(ci[5]).toBe("active");
    expect(cells("token-row-old")[4]).toBe("never");
    expect(screen.getByTestId("token-expired-old")).toHaveTextContent("expired");
    expect(screen.getByTestId("token-row-old")).toHaveAttribute("data-expired", "true");
    expect(screen.getByTestId("token-days")).toHaveValue(90);
  });

  it("saves the roles with one PATCH: a changed role, a removed cluster as null, a new one", async () => {
    // A third cluster to add.
    const clusters = [...CLUSTERS, { ...CLUSTERS[1]!, name: "local-secure" }];
    const fetch = stubUser({
      onPatch: () => json({ ...BOB, role: null, cluster_roles: { local: "admin", "local-secure": "viewer" } }),
      extra: { "/api/v1/clusters": json(clusters) },
    });
    renderApp("/users/7");
    await screen.findByTestId("token-row-ci");
    await waitFor(() => expect(within(screen.getByTestId("user-roles-editor-cluster-0")).getAllByRole("option")).toHaveLength(4));
    change("user-roles-editor-role", "");
    change("user-roles-editor-cluster-role-0", "admin");
    click("user-roles-editor-remove-1");
    click("user-roles-editor-add");
    expect(screen.getByTestId("user-roles-editor-cluster-1")).toHaveValue("staging");
    change("user-roles-editor-cluster-1", "local-secure");
    change("user-roles-editor-cluster-role-1", "viewer");
    expect(screen.getByTestId("user-roles-save")).toBeEnabled();
    click("user-roles-save");
    expect(await screen.findByTestId("user-saved")).toHaveTextContent("Saved the roles of bob.");
    expect(bodiesTo(fetch, USER_URL, "PATCH")).toEqual([
      { role: null, cluster_roles: { staging: null, local: "admin", "local-secure": "viewer" } },
    ]);
    // The answer is shown: the editor holds it, nothing left to save.
    expect(screen.getByTestId("user-role")).toHaveAttribute("data-role", "");
    expect(screen.getByTestId("user-roles-save")).toBeDisabled();
    expect(screen.getByTestId("user-cluster-roles")).toHaveTextContent("local: adminlocal-secure: viewer");
  });

  it("checks the rows before saving, and undoes the changes", async () => {
    const fetch = stubUser({ extra: { "/api/v1/clusters": json([...CLUSTERS, { ...CLUSTERS[1]!, name: "local-secure" }]) } });
    renderApp("/users/7");
    await screen.findByTestId("token-row-ci");
    await waitFor(() => expect(within(screen.getByTestId("user-roles-editor-cluster-0")).getAllByRole("option")).toHaveLength(4));
    click("user-roles-editor-add");
    expect(screen.getByTestId("user-roles-save")).toBeEnabled();
    click("user-roles-save");
    expect(screen.getByText("Choose its role.")).toBeInTheDocument();
    expect(callsTo(fetch, USER_URL, "PATCH")).toHaveLength(0);
    click("user-roles-reset");
    expect(screen.queryByTestId("user-roles-editor-row-2")).toBeNull();
    expect(screen.getByTestId("user-roles-save")).toBeDisabled();
  });

  it("disables and enables the user with the switch, and shows 409 last_admin with what to do", async () => {
    let active = true;
    let refuse = false;
    const fetch = stubUser({
      user: () => ({ ...BOB, is_active: active }),
      onPatch: (body) => {
        if (refuse) return apiError(409, "last_admin", "This change would leave no active user with the admin role on every cluster.");
        active = body.is_active as boolean;
        return json({ ...BOB, is_active: active });
      },
    });
    await openPage();
    click("user-active");
    expect(await screen.findByTestId("user-saved")).toHaveTextContent("bob is disabled: it can no longer sign in, and its tokens are refused.");
    expect(screen.getByTestId("user-active")).toHaveAttribute("aria-checked", "false");
    refuse = true;
    click("user-active");
    const banner = await screen.findByTestId("error-banner");
    expect(banner).toHaveTextContent("Not saved: This change would leave no active user with the admin role on every cluster.");
    expect(banner).toHaveTextContent("HTTP 409 · last_admin");
    expect(screen.getByTestId("user-error-hint")).toHaveTextContent("give another user the admin role on every cluster first");
    expect(screen.getByTestId("user-active")).toHaveAttribute("aria-checked", "false");
    expect(bodiesTo(fetch, USER_URL, "PATCH")).toEqual([{ is_active: false }, { is_active: true }]);
  });

  it("does not let you disable yourself", async () => {
    stubUser({ user: () => ({ ...BOB, username: ADMIN.username }) });
    await openPage();
    expect(screen.getByTestId("user-active")).toBeDisabled();
    expect(screen.getByText("You (cannot disable yourself)")).toBeInTheDocument();
  });

  it("makes a token: its key shown once with a copy button, in no cache, gone when the dialog closes", async () => {
    let tokens = [CI, OLD];
    const fetch = stubUser({
      tokens: () => tokens,
      onToken: (body) => {
        const made: ApiTokenCreated = { ...CI, id: 4, name: String(body.name), prefix: KEY.slice(0, 8), key: KEY };
        const { key: _key, ...listed } = made;
        tokens = [CI, OLD, listed];
        return json(made, 201);
      },
    });
    const { client } = await openPage();
    change("token-name", "deploy");
    change("token-days", "30");
    click("token-submit");
    const dialog = await screen.findByTestId("token-key-dialog");
    expect(bodiesTo(fetch, TOKENS_URL, "POST")).toEqual([{ name: "deploy", expires_in_days: 30 }]);
    expect(within(dialog).getByTestId("token-key")).toHaveValue(KEY);
    expect(within(dialog).getByTestId("token-key-warning")).toHaveTextContent("you will not see it again");
    expect(within(dialog).getByTestId("token-copy")).toHaveFocus();
    // The list is asked again (without the key) and the form emptied.
    await screen.findByTestId("token-row-deploy");
    expect(screen.getByTestId("token-name")).toHaveValue("");
    // The key is in no cache and no storage.
    const cached = JSON.stringify(client.getQueryCache().getAll().map((q) => q.state.data));
    expect(cached).not.toContain(KEY);
    expect(JSON.stringify({ ...localStorage })).not.toContain(KEY);
    expect(JSON.stringify({ ...sessionStorage })).not.toContain(KEY);

    click("token-copy");
    expect(await screen.findByTestId(/token-cop(ied|y-failed)/)).toBeInTheDocument();
    click("token-key-done");
    expect(screen.queryByTestId("token-key-dialog")).toBeNull();
    expect(document.body.innerHTML).not.toContain(KEY);
  });

  it("shows a refused token name beside its field", async () => {
    stubUser({ onToken: () => apiError(400, "invalid", "name: bob has a token named 'deploy' already.", { field: "name" }) });
    await openPage();
    change("token-name", "deploy");
    click("token-submit");
    expect(await screen.findByTestId("field-error-name")).toHaveTextContent("Bob has a token named 'deploy' already.");
    expect(screen.queryByTestId("token-key-dialog")).toBeNull();
    // A name it has already is said before sending.
    change("token-name", "ci");
    click("token-submit");
    expect(screen.getByTestId("field-error-name")).toHaveTextContent("The user has a token of this name already.");
  });

  it("revokes a token after the confirmation", async () => {
    let tokens = [CI, OLD];
    const fetch = stubUser({
      tokens: () => tokens,
      extra: {
        [`${TOKENS_URL}/3`]: () => {
          tokens = [OLD];
          return { status: 204 };
        },
      },
    });
    await openPage();
    click("token-revoke-ci");
    const dialog = screen.getByTestId("confirm-dialog");
    expect(dialog).toHaveTextContent("The token ci (AbCd1234…) of bob stops working at once");
    click("token-revoke-confirm");
    expect(await screen.findByTestId("token-revoked")).toHaveTextContent("Revoked ci (AbCd1234…): it no longer works.");
    expect(callsTo(fetch, `${TOKENS_URL}/3`, "DELETE")).toHaveLength(1);
    await waitFor(() => expect(screen.queryByTestId("token-row-ci")).toBeNull());
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
  });
});
