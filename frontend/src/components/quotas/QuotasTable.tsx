import { Fragment, type KeyboardEvent } from "react";
import type { Quota, QuotaEntity } from "../../api/types";
import {
  entityKey,
  entityLabel,
  entityParts,
  exactQuotaValue,
  formatQuotaValue,
  isDefaultPart,
  partLabel,
  partWord,
  QUOTA_KEY_INFO,
  sameEntity,
  type QuotaKey,
} from "../../lib/quotas";
import { EmptyRow, Table, type HeaderColumn } from "../TableParts";

/** An entity as the table and the form show it: names in monospace, defaults in words. */
export function QuotaEntityName({ entity }: { entity: QuotaEntity }) {
  return (
    <span className="quota-entity" title={entityLabel(entity)}>
      {entityParts(entity).map(([kind, part], index) => (
        <Fragment key={kind}>
          {index > 0 && ", "}
          {isDefaultPart(part) ? (
            <em className="quota-default">{partLabel(kind, part)}</em>
          ) : (
            <span>
              <span className="muted">{partWord(kind)} </span>
              <span className="mono">{part}</span>
            </span>
          )}
        </Fragment>
      ))}
    </span>
  );
}

interface QuotasTableProps {
  rows: readonly Quota[];
  /** The value columns, in order. */
  keys: readonly QuotaKey[];
  /** The entity the form holds (its row is marked). */
  selected: QuotaEntity | null;
  onSelect: (entity: QuotaEntity) => void;
  /** Shown instead of rows when there are none. */
  empty: string;
}

/** The entities and their values, one column per key ("—" where not set); a row clicked (or Enter
 * on it) loads its entity into the form. */
export function QuotasTable({ rows, keys, selected, onSelect, empty }: QuotasTableProps) {
  const columns: HeaderColumn[] = [
    "Entity",
    ...keys.map((key) => ({
      label: QUOTA_KEY_INFO[key].short,
      numeric: true,
      title: `${QUOTA_KEY_INFO[key].label} (${key}): ${QUOTA_KEY_INFO[key].help}`,
    })),
  ];
  return (
    <Table columns={columns} className="quotas-table" data-testid="quotas-table" data-count={rows.length}>
      {rows.length === 0 ? (
        <EmptyRow span={columns.length} testId="quotas-empty">
          {empty}
        </EmptyRow>
      ) : (
        rows.map((row, index) => {
          const isSelected = sameEntity(row.entity, selected);
          const open = () => onSelect(row.entity);
          const onKeyDown = (event: KeyboardEvent) => {
            if (event.key === "Enter" || event.key === " ") {
              event.preventDefault();
              open();
            }
          };
          return (
            <tr
              key={entityKey(row.entity)}
              className={isSelected ? "quota-row selected" : "quota-row"}
              tabIndex={0}
              onClick={open}
              onKeyDown={onKeyDown}
              aria-selected={isSelected}
              title="Load into the form below"
              data-testid={`quota-row-${index}`}
              data-entity={entityLabel(row.entity)}
            >
              <td className="name-cell">
                <QuotaEntityName entity={row.entity} />
              </td>
              {keys.map((key) => {
                const value = row.values[key];
                return value === undefined ? (
                  <td key={key} className="num muted">
                    —
                  </td>
                ) : (
                  <td key={key} className="num" title={exactQuotaValue(key, value)} data-testid={`quota-value-${index}-${key}`}>
                    {formatQuotaValue(key, value)}
                  </td>
                );
              })}
            </tr>
          );
        })
      )}
    </Table>
  );
}
