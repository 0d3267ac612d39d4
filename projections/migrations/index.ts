// Every read-model migration, listed by hand so the set is the same from any cwd and in any bundle.
// Add a new one at the end with the next number; never rename or edit one that has shipped.
import type { Migration } from 'kysely/migration';
import * as projectionCheckpoints from './0001_projection_checkpoints.js';
import * as organizations from './0002_organizations.js';

export const readModelMigrations: Readonly<Record<string, Migration>> = {
  '0001_projection_checkpoints': projectionCheckpoints,
  '0002_organizations': organizations,
};
