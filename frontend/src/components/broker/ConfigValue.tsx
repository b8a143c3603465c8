import type { ConfigEntry } from "../../api/types";
import { humanConfigValue } from "../../lib/configValues";

/**
 * A broker config's value cell: durations and sizes also in human units (the raw value beside and
 * as the tooltip), "—" when unset, and a sensitive value never shown (even one sent by mistake).
 */
export function ConfigValueCell({ entry: c }: { entry: Pick<ConfigEntry, "name" | "value" | "sensitive"> }) {
  const human = c.sensitive ? null : humanConfigValue(c.name, c.value);
  return (
    <td className="wrap config-value" title={human ? `raw value: ${c.value}` : undefined}>
      {c.sensitive ? (
        <span className="muted">(sensitive)</span>
      ) : c.value === null ? (
        <span className="muted">—</span>
      ) : human ? (
        <>
          <span className="config-human nowrap">{human.text}</span>{" "}
          <span className="config-raw mono muted nowrap">{c.value}</span>
        </>
      ) : (
        <span className="mono">{c.value}</span>
      )}
    </td>
  );
}
