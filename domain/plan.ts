// A subscription's plan: what each metered resource may do. Document 1 §Limits and document 3 §2.
// The default plan gives every resource 100,000 requests a period and 600 a minute; an operator
// can set a resource's own quota and RPM, mark it unlimited, turn it off, or remove its entry.

export type Quota = number | 'unlimited';

/** What a plan says about one resource. */
export type PlanEntry =
  /** Metered: `quota` requests per billing period, `rpm` per minute (null: no per-minute limit). */
  | { kind: 'metered'; quota: Quota; rpm: number | null }
  /** Turned off: 403 `Access denied to "<resource>".` */
  | { kind: 'off' }
  /** No entry: 403 `No entitlement for "<resource>".` */
  | { kind: 'none' };

export interface Plan {
  name: string;
  /** Applies to every resource without an entry of its own; null: such resources have no entitlement. */
  defaults: { quota: Quota; rpm: number | null } | null;
  entries: Readonly<Record<string, PlanEntry>>;
}

export const DEFAULT_PLAN: Plan = { name: 'default', defaults: { quota: 100_000, rpm: 600 }, entries: {} };

export const demoPlan = (quota: number, rpm: number): Plan => ({ name: 'demo', defaults: { quota, rpm }, entries: {} });

export const entitlement = (plan: Plan, resource: string): PlanEntry => {
  const own = plan.entries[resource];
  if (own) return own;
  return plan.defaults ? { kind: 'metered', ...plan.defaults } : { kind: 'none' };
};
