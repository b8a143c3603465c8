import { describe, expect, it } from "vitest";
import type { Broker, BrokerDisk } from "../api/types";
import { brokerDiskUsage, dataSkew, isBalanced, leaderSkew, skewOf, skewWords, withDisks } from "./brokerBalance";

function broker(id: number, leader_count: number): Broker {
  return { id, host: "h", port: 9092, rack: null, is_controller: false, leader_count, replica_count: 0, offline_replica_count: 0 };
}

function disk(id: number, total: number | null, usable: number | null, data: number | null): BrokerDisk {
  return { ...broker(id, 0), disk_total_bytes: total, disk_usable_bytes: usable, replicas_size_bytes: data };
}

describe("skewOf", () => {
  it("is max / mean − 1 with the busiest broker", () => {
    // mean 4, max 5 on broker 1
    expect(skewOf([{ id: 1, value: 5 }, { id: 2, value: 3 }, { id: 3, value: 4 }])).toEqual({ fraction: 0.25, broker: 1 });
    // mean 100, max 140 on broker 3
    const skew = skewOf([{ id: 1, value: 80 }, { id: 2, value: 80 }, { id: 3, value: 140 }])!;
    expect(skew.broker).toBe(3);
    expect(skew.fraction).toBeCloseTo(0.4);
  });

  it("names the lowest id on a tie, whatever the order", () => {
    expect(skewOf([{ id: 3, value: 6 }, { id: 2, value: 6 }, { id: 1, value: 0 }])).toEqual({ fraction: 0.5, broker: 2 });
  });

  it("is 0 for equal values, a single broker, or nothing at all on any broker", () => {
    expect(skewOf([{ id: 1, value: 7 }, { id: 2, value: 7 }])).toEqual({ fraction: 0, broker: 1 });
    expect(skewOf([{ id: 5, value: 12 }])).toEqual({ fraction: 0, broker: 5 });
    expect(skewOf([{ id: 5, value: 0 }])).toEqual({ fraction: 0, broker: 5 });
    expect(skewOf([{ id: 1, value: 0 }, { id: 2, value: 0 }])).toEqual({ fraction: 0, broker: 1 });
  });

  it("is unknown without brokers or when any value is null", () => {
    expect(skewOf([])).toBeNull();
    expect(skewOf([{ id: 1, value: 5 }, { id: 2, value: null }])).toBeNull();
    expect(skewOf([{ id: 1, value: null }])).toBeNull();
  });
});

describe("leaderSkew and dataSkew", () => {
  it("take the leaders and the replicas' bytes", () => {
    expect(leaderSkew([broker(1, 5), broker(2, 3), broker(3, 4)])).toEqual({ fraction: 0.25, broker: 1 });
    const brokers = [disk(1, null, null, 100), disk(2, null, null, 100), disk(3, null, null, 400)];
    expect(dataSkew(brokers)).toEqual({ fraction: 1, broker: 3 });
    expect(dataSkew([disk(1, 10, 5, 100), disk(2, 10, 5, null)])).toBeNull();
    expect(dataSkew([disk(1, 10, 5, 100)])).toEqual({ fraction: 0, broker: 1 });
  });
});

describe("skewWords", () => {
  it("says the percent above the mean and where, balanced under 10 %, or unknown", () => {
    expect(skewWords({ fraction: 0.12, broker: 2 })).toBe("+12 % on broker 2");
    expect(skewWords({ fraction: 0.4, broker: 3 })).toBe("+40 % on broker 3");
    expect(skewWords({ fraction: 0.1, broker: 3 })).toBe("+10 % on broker 3");
    expect(skewWords({ fraction: 0.099, broker: 3 })).toBe("balanced");
    expect(skewWords({ fraction: 0, broker: 1 })).toBe("balanced");
    expect(skewWords(null)).toBe("unknown");
    expect(isBalanced({ fraction: 0.0999, broker: 1 })).toBe(true);
    expect(isBalanced({ fraction: 0.1, broker: 1 })).toBe(false);
  });
});

describe("withDisks and brokerDiskUsage", () => {
  it("joins each live broker with its disk and data, unknown for one the cluster does not list", () => {
    const rows = withDisks([broker(1, 5), broker(4, 1)], [disk(1, 1000, 250, 600), disk(2, 1, 1, 1)]);
    expect(rows.map((r) => [r.id, r.leader_count, r.disk_total_bytes, r.disk_usable_bytes, r.replicas_size_bytes])).toEqual([
      [1, 5, 1000, 250, 600],
      [4, 1, null, null, null],
    ]);
  });

  it("is total − usable of the total; unknown when either is", () => {
    expect(brokerDiskUsage({ disk_total_bytes: 1000, disk_usable_bytes: 250 })).toEqual({ used: 750, fraction: 0.75 });
    expect(brokerDiskUsage({ disk_total_bytes: null, disk_usable_bytes: 250 })).toEqual({ used: null, fraction: null });
    expect(brokerDiskUsage({ disk_total_bytes: 0, disk_usable_bytes: 0 })).toEqual({ used: 0, fraction: null });
  });
});
