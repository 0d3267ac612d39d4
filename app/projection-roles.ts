// Which projection lanes (projections/index.ts) a process runs, from its `--role` list:
// `projections` runs both; `projections-catalogue` or `projections-shopper` one of them, so a
// process of its own can keep shopper traffic's read models off the catalogue's CPU.
import { LANE_NAMES, type LaneName } from '../projections/index.js';

export const PROJECTION_ROLES = { projections: LANE_NAMES, 'projections-catalogue': ['catalogue'], 'projections-shopper': ['shopper'] } as const satisfies Record<string, readonly LaneName[]>;

export type ProjectionRole = keyof typeof PROJECTION_ROLES;

export const isProjectionRole = (role: string): role is ProjectionRole => Object.hasOwn(PROJECTION_ROLES, role);

/** The lanes the roles run, in lane order, each once. */
export function lanesOfRoles(roles: readonly string[]): LaneName[] {
  const lanes = new Set<LaneName>(roles.filter(isProjectionRole).flatMap((role) => PROJECTION_ROLES[role]));
  return LANE_NAMES.filter((lane) => lanes.has(lane));
}
