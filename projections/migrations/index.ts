// Every read-model migration, listed by hand so the set is the same from any cwd and in any bundle.
// Add a new one at the end with the next number; never rename or edit one that has shipped.
import type { Migration } from 'kysely/migration';
import * as projectionCheckpoints from './0001_projection_checkpoints.js';
import * as organizations from './0002_organizations.js';
import * as apiKeys from './0003_api_keys.js';
import * as usage from './0004_usage.js';
import * as idempotency from './0005_idempotency.js';
import * as widgetPresets from './0006_widget_presets.js';
import * as catalogue from './0007_catalogue.js';
import * as sources from './0008_sources.js';
import * as sync from './0009_sync.js';
import * as markets from './0010_markets.js';
import * as queueDeadLetters from './0011_queue_dead_letters.js';
import * as projectionFaults from './0012_projection_faults.js';
import * as syncSlots from './0013_sync_slots.js';
import * as search from './0014_search.js';
import * as storeAudience from './0015_store_audience.js';
import * as analytics from './0016_analytics.js';
import * as analyticsUnverified from './0017_analytics_unverified.js';
import * as chats from './0018_chats.js';
import * as projectionParked from './0019_projection_parked.js';
import * as analyticsShownClock from './0020_analytics_shown_clock.js';
import * as searchAnswerBodies from './0021_search_answer_bodies.js';

export const readModelMigrations: Readonly<Record<string, Migration>> = {
  '0001_projection_checkpoints': projectionCheckpoints,
  '0002_organizations': organizations,
  '0003_api_keys': apiKeys,
  '0004_usage': usage,
  '0005_idempotency': idempotency,
  '0006_widget_presets': widgetPresets,
  '0007_catalogue': catalogue,
  '0008_sources': sources,
  '0009_sync': sync,
  '0010_markets': markets,
  '0011_queue_dead_letters': queueDeadLetters,
  '0012_projection_faults': projectionFaults,
  '0013_sync_slots': syncSlots,
  '0014_search': search,
  '0015_store_audience': storeAudience,
  '0016_analytics': analytics,
  '0017_analytics_unverified': analyticsUnverified,
  '0018_chats': chats,
  '0019_projection_parked': projectionParked,
  '0020_analytics_shown_clock': analyticsShownClock,
  '0021_search_answer_bodies': searchAnswerBodies,
};
