// The demo organization and its catalogue (document 3 §2 `stylist demo seed`): created if missing,
// its catalogue loaded through the merchant path. The embedded default does this at start-up.
import { seedDemoCatalogue } from '../commands/demo-catalogue.js';
import { ensureDemoOrganization } from '../commands/demo.js';
import { createWidgetPreset } from '../commands/widget-presets.js';
import { DEMO_ORGANIZATION_ID, DEMO_THEMES } from '../domain/demo.js';
import { demoPlan } from '../domain/plan.js';
import type { Platform } from './platform.js';

const PROJECTIONS = ['organizations', 'datasets', 'catalogue_items'];

export async function seedDemo(platform: Platform) {
  const { config } = platform;
  const now = new Date().toISOString();
  const organization = await ensureDemoOrganization(platform.eventStore, demoPlan(config.demo.quota, config.demo.rpm), now);
  if (organization) await platform.projections.waitFor(organization, PROJECTIONS);
  const seeded = await seedDemoCatalogue({
    store: platform.eventStore,
    db: platform.database.db,
    queue: platform.queue,
    waitFor: (position) => platform.projections.waitFor(position, PROJECTIONS),
  }, now, config.demo.products);
  if (seeded.position) await platform.projections.waitFor(seeded.position, PROJECTIONS);
  // The demo storefront's themes: one stream each, named by the theme, so seeding again adds nothing.
  for (const theme of DEMO_THEMES) {
    const meta = { now, actor: { kind: 'system' as const, id: 'demo-seed' }, correlationId: `demo-theme-${theme.name.toLowerCase()}` };
    const { position } = await createWidgetPreset(platform.eventStore, { organizationId: DEMO_ORGANIZATION_ID, fields: { ...theme } }, meta);
    await platform.projections.waitFor(position, ['widget_presets']);
  }
  return { organizationId: DEMO_ORGANIZATION_ID, ...seeded };
}
