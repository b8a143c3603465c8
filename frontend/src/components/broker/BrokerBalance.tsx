import { dataSkew, isBalanced, leaderSkew, skewWords, type BrokerWithDisk, type Skew } from "../../lib/brokerBalance";

/**
 * "Balance": how far the busiest live broker is above the mean (max / mean − 1) in partition
 * leaders and in bytes of replicas; "balanced" under 10 % (amber from it), the data "unknown"
 * when a broker's replica sizes are.
 */
export function BrokerBalance({ brokers }: { brokers: readonly BrokerWithDisk[] }) {
  return (
    <div className="summary" data-testid="broker-skew" role="group" aria-label="Balance">
      <SkewItem
        label="leaders"
        skew={leaderSkew(brokers)}
        testId="skew-leaders"
        title="Partition leaders of the busiest live broker above the mean"
      />
      <SkewItem
        label="data"
        skew={dataSkew(brokers)}
        testId="skew-bytes"
        title="Bytes of replicas on the fullest live broker above the mean"
      />
    </div>
  );
}

function SkewItem({ label, skew, testId, title }: { label: string; skew: Skew | null; testId: string; title: string }) {
  const skewed = skew !== null && !isBalanced(skew);
  return (
    <p
      className={skewed ? "summary-item summary-warn" : "summary-item"}
      data-testid={testId}
      data-skew={skew?.fraction}
      data-broker={skewed ? skew.broker : undefined}
      title={skew === null ? `${title}: unknown, a broker's sizes are unknown` : title}
    >
      {label}{" "}
      {skewed ? (
        <>
          <strong className="summary-number">+{Math.round(skew.fraction * 100)} %</strong> on broker {skew.broker}
        </>
      ) : (
        <strong className="summary-number">{skewWords(skew)}</strong>
      )}
    </p>
  );
}
