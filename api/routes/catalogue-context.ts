import type { BodyBudget } from '../body-budget.js';
import type { WorkQueue } from '../../infra/queue/port.js';
import type { RouteContext } from './context.js';

/** Catalogue routes also hand work to workers (ingest, background clean-up). */
export interface CatalogueContext extends RouteContext {
  queue: WorkQueue;
  /** Upload bodies read and worked on at once in this process (UPLOAD_BUDGET_MB). */
  uploadBudget: BodyBudget;
}
