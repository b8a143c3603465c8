import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { brokerColumns, cellState } from "../lib/leadership";
import { ORDERS } from "../test/fixtures";
import { LeadershipMap } from "./LeadershipMap";

const state = (p: number, b: number) => screen.getByTestId(`lm-cell-${p}-${b}`).getAttribute("data-state");
const preferred = (p: number, b: number) => screen.getByTestId(`lm-cell-${p}-${b}`).getAttribute("data-preferred");

describe("leadership map", () => {
  it("has a column per live broker plus any broker a replica points at, sorted, the dead one down", () => {
    expect(brokerColumns(ORDERS)).toEqual([
      { id: 1, down: false },
      { id: 2, down: false },
      { id: 3, down: false },
      { id: 4, down: true },
    ]);
    render(<LeadershipMap detail={ORDERS} />);
    const header = within(screen.getByTestId("leadership-map")).getAllByRole("columnheader");
    expect(header.map((h) => h.textContent)).toEqual(["Partition", "broker 1", "broker 2", "broker 3", "broker 4down"]);
    expect(screen.getByTestId("lm-broker-4")).toHaveAttribute("data-down", "true");
    expect(screen.getByTestId("lm-broker-3")).toHaveAttribute("data-down", "false");
  });

  it("shows leader, in-sync, out-of-sync, offline and empty cells, and the preferred leader", () => {
    render(<LeadershipMap detail={ORDERS} />);
    // p0: replicas 1,2,3 all in sync, 1 leads (preferred)
    expect([state(0, 1), state(0, 2), state(0, 3), state(0, 4)]).toEqual(["leader", "isr", "isr", "none"]);
    expect(preferred(0, 1)).toBe("true");
    expect(preferred(0, 2)).toBeNull();
    expect(screen.getByTestId("lm-cell-0-1")).toHaveTextContent("L");
    // p1: replicas 2,3,1; 3 leads; 2 fell out of the ISR (and is the preferred leader)
    expect([state(1, 1), state(1, 2), state(1, 3), state(1, 4)]).toEqual(["isr", "out_of_sync", "leader", "none"]);
    expect(preferred(1, 2)).toBe("true");
    expect(preferred(1, 3)).toBeNull();
    // p2: replicas 4,3; broker 4 is offline (and preferred)
    expect([state(2, 1), state(2, 2), state(2, 3), state(2, 4)]).toEqual(["none", "none", "leader", "offline"]);
    expect(preferred(2, 4)).toBe("true");
    expect(screen.getByTestId("lm-cell-2-4")).toHaveAttribute("title", "partition 2, broker 4: offline replica (preferred leader)");
    // exactly one preferred cell per partition
    expect(document.querySelectorAll('[data-preferred="true"]')).toHaveLength(3);
  });

  it("counts a replica on a broker that is not live as offline even when Kafka does not list it", () => {
    const p = ORDERS.partitions[0]!;
    expect(cellState(p, 2, true)).toBe("offline");
    expect(cellState(p, 2, false)).toBe("isr");
    expect(cellState({ ...p, leader: null, isr: [] }, 1)).toBe("out_of_sync");
  });
});
