import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { GroupDetail, GroupTopicLag } from "../../api/types";
import { BILLING } from "../../test/fixtures";
import { RetentionNotice } from "./RetentionNotice";

const NEAR_ORDERS =
  "orders-3: unread records can be deleted in 3 h: retention.ms is 7 d and the oldest unread record is 6 d 21 h old; the group is not catching up";
const NEAR_AUDIT =
  "audit-0: unread records can be deleted in 40 min: retention.ms is 1 d and the oldest unread record is 23 h 20 min old; the group is not catching up";
const LOST_PAYMENTS = "payments-0: retention deleted 10 records the group had not read";

function topic(name: string, overrides: Partial<GroupTopicLag> = {}): GroupTopicLag {
  return {
    topic: name,
    lag: 10,
    max_lag_seconds: 60,
    rates: { write_per_s: 1, consume_per_s: 0 },
    catch_up_seconds: null,
    retention_risk: "none",
    retention_reason: null,
    ...overrides,
  };
}

function notice(detail: GroupDetail) {
  render(<RetentionNotice detail={detail} />);
  return screen.queryByTestId("group-retention-risk");
}

const reasons = (el: HTMLElement, risk: "near" | "lost") => {
  const list = within(el).queryByTestId(`group-retention-reasons-${risk}`);
  return list ? within(list).getAllByRole("listitem").map((li) => li.textContent) : [];
};

describe("RetentionNotice", () => {
  it("shows nothing when no topic is at risk", () => {
    expect(notice(BILLING)).toBeNull();
  });

  it("lists each distinct reason of the topics near deletion, without the old positional wording", () => {
    const el = notice({
      ...BILLING,
      retention_risk: "near",
      retention_reason: NEAR_AUDIT,
      topics: [
        topic("audit", { retention_risk: "near", retention_reason: NEAR_AUDIT }),
        topic("orders", { retention_risk: "near", retention_reason: NEAR_ORDERS }),
        topic("payments"),
      ],
      offsets: BILLING.offsets.map((o) => (o.topic === "orders" ? { ...o, retention_risk: "near" as const, retention_reason: "x" } : o)),
    })!;
    expect(el).toHaveAttribute("data-risk", "near");
    expect(el).toHaveAttribute("role", "alert");
    expect(el).toHaveClass("notice-warn");
    expect(within(el).getByRole("paragraph")).toHaveTextContent(/^Records close to deletion:$/);
    expect(reasons(el, "near")).toEqual([NEAR_AUDIT, NEAR_ORDERS]);
    expect(el).not.toHaveTextContent(/oldest part|segment deletion|next segment/);
  });

  it("falls back to the group's reason for a topic without its own", () => {
    // Partitions at risk, but the topics not described yet (or no reason on the topic row).
    const el = notice({
      ...BILLING,
      retention_risk: "near",
      retention_reason: NEAR_ORDERS,
      offsets: BILLING.offsets.map((o) => (o.topic === "orders" ? { ...o, retention_risk: "near" as const } : o)),
    })!;
    expect(reasons(el, "near")).toEqual([NEAR_ORDERS]);
  });

  it("names the topics when the server gave no reason", () => {
    const el = notice({
      ...BILLING,
      retention_risk: "near",
      topics: [topic("orders", { retention_risk: "near" })],
    })!;
    expect(reasons(el, "near")).toEqual([]);
    expect(el).toHaveTextContent("Records close to deletion: retention can delete records of orders that this group has not read yet.");
  });

  it("says lost records are skipped and why, with the topics still near deletion below", () => {
    const el = notice({
      ...BILLING,
      retention_risk: "lost",
      retention_reason: LOST_PAYMENTS,
      topics: [
        topic("orders", { retention_risk: "near", retention_reason: NEAR_ORDERS }),
        topic("payments", { retention_risk: "lost", retention_reason: LOST_PAYMENTS }),
      ],
    })!;
    expect(el).toHaveAttribute("data-risk", "lost");
    expect(el).toHaveClass("notice-error");
    expect(within(el).getAllByRole("paragraph").map((p) => p.textContent)).toEqual([
      "Records lost: retention deleted records of payments before this group consumed them. The group skips them when it resumes.",
      "Records close to deletion:",
    ]);
    expect(reasons(el, "lost")).toEqual([LOST_PAYMENTS]);
    expect(reasons(el, "near")).toEqual([NEAR_ORDERS]); // not the group's (lost) reason
  });

  it("shows the group's reason when only the group is at risk", () => {
    const el = notice({ ...BILLING, retention_risk: "lost", retention_reason: LOST_PAYMENTS })!;
    expect(el).toHaveTextContent("Records lost: retention deleted records of a topic before this group consumed them.");
    expect(reasons(el, "lost")).toEqual([LOST_PAYMENTS]);
  });
});
