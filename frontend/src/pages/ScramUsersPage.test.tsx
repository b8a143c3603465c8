import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ScramUser } from "../api/types";
import { cells, change, click } from "../test/byTestId";
import { apiError, bodiesTo, callsTo, json, type Route, stubFetch } from "../test/fetchStub";
import { ADMIN, VIEWER } from "../test/fixtures";
import { renderApp } from "../test/render";

const USERS_URL = "/api/v1/clusters/local/scram-users";
const userUrl = (user: string) => `${USERS_URL}/${encodeURIComponent(user)}`;

const ALICE: ScramUser = {
  user: "alice",
  credentials: [
    { mechanism: "SCRAM-SHA-512", iterations: 8192 },
    { mechanism: "SCRAM-SHA-256", iterations: 4096 },
  ],
};
const BOB: ScramUser = { user: "bob", credentials: [{ mechanism: "SCRAM-SHA-512", iterations: 4096 }] };

function stubUsers({
  user = ADMIN,
  list = () => [ALICE, BOB],
  extra = {},
}: {
  user?: typeof ADMIN;
  list?: () => ScramUser[];
  extra?: Record<string, Route>;
} = {}) {
  return stubFetch({ "/api/v1/me": json(user), [USERS_URL]: () => json(list()), ...extra });
}

async function openPage() {
  renderApp("/clusters/local/scram-users");
  await screen.findByTestId("scram-row-0");
}

describe("ScramUsersPage", () => {
  it("lists one row per credential: user, mechanism, iterations", async () => {
    stubUsers();
    await openPage();
    expect(document.title).toBe("SCRAM users · local · Kafka Console");
    expect(screen.getByTestId("tab-scram-users")).toHaveAttribute("aria-current", "page");
    expect(screen.getByTestId("scram-users-count")).toHaveTextContent("2 users");
    expect(cells("scram-row-0").slice(0, 3)).toEqual(["alice", "SCRAM-SHA-256", "4,096"]);
    // The user's second credential names it for screen readers only.
    expect(cells("scram-row-1").slice(0, 3)).toEqual(["alice", "SCRAM-SHA-512", "8,192"]);
    expect(screen.getByTestId("scram-row-1")).toHaveAttribute("data-user", "alice");
    expect(cells("scram-row-2").slice(0, 3)).toEqual(["bob", "SCRAM-SHA-512", "4,096"]);
    // The form starts empty: SCRAM-SHA-512, 4096 iterations, a password input.
    expect(screen.getByTestId("scram-mechanism")).toHaveValue("SCRAM-SHA-512");
    expect(screen.getByTestId("scram-iterations")).toHaveValue(4096);
    expect(screen.getByTestId("scram-password")).toHaveAttribute("type", "password");
  });

  it("says so when there are none", async () => {
    stubUsers({ list: () => [] });
    renderApp("/clusters/local/scram-users");
    expect(await screen.findByTestId("scram-users-empty")).toHaveTextContent("No SCRAM users on this cluster");
  });

  it("creates a user's credential: the password is sent once and emptied at once, the list asked again", async () => {
    let users = [ALICE, BOB];
    const carol: ScramUser = { user: "carol", credentials: [{ mechanism: "SCRAM-SHA-256", iterations: 8192 }] };
    const fetch = stubUsers({
      list: () => users,
      extra: {
        [userUrl("carol")]: () => {
          users = [ALICE, BOB, carol];
          return json(carol);
        },
      },
    });
    await openPage();
    change("scram-user", "carol");
    change("scram-mechanism", "SCRAM-SHA-256");
    change("scram-password", " s3cret pass ");
    change("scram-iterations", "8192");
    click("scram-save");
    // Emptied as the request leaves, before its answer.
    expect(screen.getByTestId("scram-password")).toHaveValue("");

    expect(await screen.findByTestId("scram-saved")).toHaveAttribute("data-action", "created");
    expect(screen.getByTestId("scram-saved")).toHaveTextContent("Created the SCRAM-SHA-256 credential of carol (8,192 iterations).");
    const puts = callsTo(fetch, userUrl("carol"), "PUT");
    expect(puts.map(([, init]) => JSON.parse(String(init?.body)))).toEqual([
      { mechanism: "SCRAM-SHA-256", password: " s3cret pass ", iterations: 8192 },
    ]);
    // The form is empty again, and nothing on the page holds the password.
    expect(screen.getByTestId("scram-user")).toHaveValue("");
    expect(document.body.innerHTML).not.toContain("s3cret");
    await waitFor(() => expect(screen.getByTestId("scram-users-count")).toHaveTextContent("3 users"));
  });

  it("rotates a password from its row: the form filled but for the password", async () => {
    const fetch = stubUsers({ extra: { [userUrl("alice")]: () => json(ALICE) } });
    await openPage();
    click("scram-rotate-1");
    expect(screen.getByTestId("scram-user")).toHaveValue("alice");
    expect(screen.getByTestId("scram-mechanism")).toHaveValue("SCRAM-SHA-512");
    expect(screen.getByTestId("scram-iterations")).toHaveValue(8192);
    expect(screen.getByTestId("scram-password")).toHaveFocus();
    change("scram-password", "new-one");
    click("scram-save");
    expect(await screen.findByTestId("scram-saved")).toHaveAttribute("data-action", "rotated");
    expect(screen.getByTestId("scram-saved")).toHaveTextContent("the old one no longer works");
    expect(bodiesTo(fetch, userUrl("alice"), "PUT")).toEqual([
      { mechanism: "SCRAM-SHA-512", password: "new-one", iterations: 8192 },
    ]);
  });

  it("says what is missing before sending, and a 400 beside its field", async () => {
    const fetch = stubUsers({
      extra: {
        [userUrl("dave")]: apiError(400, "invalid", "password: at most 1024 bytes.", { field: "password" }),
      },
    });
    await openPage();
    change("scram-iterations", "100");
    click("scram-save");
    expect(screen.getByTestId("field-error-user")).toHaveTextContent("Give the user name.");
    expect(screen.getByTestId("field-error-password")).toHaveTextContent("Give the password.");
    expect(screen.getByTestId("field-error-iterations")).toHaveTextContent("A whole number from 4,096 to 16,384.");
    expect(callsTo(fetch, userUrl("dave"), "PUT")).toHaveLength(0);

    change("scram-user", "dave");
    change("scram-iterations", "4096");
    change("scram-password", "x".repeat(2000));
    click("scram-save");
    expect(await screen.findByTestId("field-error-password")).toHaveTextContent("At most 1024 bytes.");
    expect(screen.getByTestId("scram-password")).toHaveValue("");
    expect(screen.queryByTestId("field-error-user")).toBeNull();
  });

  it("deletes a credential after the user's name is typed in the confirmation", async () => {
    let users = [ALICE, BOB];
    const fetch = stubUsers({
      list: () => users,
      extra: {
        [userUrl("bob")]: (url, init) => {
          expect(init?.method).toBe("DELETE");
          expect(new URL(url, "http://x").searchParams.get("mechanism")).toBe("SCRAM-SHA-512");
          users = [ALICE];
          return json({ user: "bob", credentials: [] });
        },
      },
    });
    await openPage();
    click("scram-delete-2");
    const dialog = screen.getByTestId("confirm-dialog");
    expect(dialog).toHaveTextContent("The SCRAM-SHA-512 credential of bob (4,096 iterations) will be deleted from Kafka");
    expect(dialog).toHaveTextContent("It is the user's only credential");
    expect(screen.getByTestId("scram-delete-confirm")).toBeDisabled();
    change("confirm-input", "bob");
    click("scram-delete-confirm");
    expect(await screen.findByTestId("scram-deleted")).toHaveTextContent("Deleted the SCRAM-SHA-512 credential of bob");
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(callsTo(fetch, userUrl("bob"), "DELETE")).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId("scram-users-count")).toHaveTextContent("1 user"));
  });

  it("keeps the confirmation open with the error when the delete fails", async () => {
    stubUsers({
      extra: { [userUrl("alice")]: apiError(404, "not_found", "User alice has no SCRAM-SHA-256 credential on local.") },
    });
    await openPage();
    click("scram-delete-0");
    expect(screen.getByTestId("confirm-dialog")).not.toHaveTextContent("only credential");
    change("confirm-input", "alice");
    click("scram-delete-confirm");
    expect(await screen.findByTestId("scram-delete-error")).toHaveTextContent("User alice has no SCRAM-SHA-256 credential on local.");
    click("confirm-dismiss");
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
  });

  it("tells a viewer who opens the page that it is for admins, with no tab for it", async () => {
    stubFetch({ "/api/v1/me": json(VIEWER), [USERS_URL]: apiError(403, "forbidden", "Your role may not do this.") });
    renderApp("/clusters/local/scram-users");
    expect(await screen.findByTestId("admin-only")).toHaveTextContent("Only admins can see and change SCRAM users");
    expect(await screen.findByTestId("error-banner")).toHaveTextContent("Could not load the SCRAM users");
    expect(screen.queryByTestId("scram-form")).toBeNull();
    expect(screen.queryByTestId("tab-scram-users")).toBeNull();
    expect(screen.queryByTestId("tab-quotas")).toBeNull();
  });
});
