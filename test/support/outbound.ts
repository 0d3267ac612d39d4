// Test stores and photo servers listen on 127.0.0.1, which Stylist refuses to fetch by default.
// Tests that read them say so here, as an operator would with OUTBOUND_ALLOW_PRIVATE=true; tests
// of the refusal itself use the default.
import { outboundClient } from '../../infra/http/outbound.js';

/** Environment for a service (or worker process) whose stores are local test servers. */
export const LOCAL_STORES_ENV: Readonly<Record<string, string>> = { OUTBOUND_ALLOW_PRIVATE: 'true' };

/** The client a worker gets from OUTBOUND_ALLOW_PRIVATE=true. */
export const localStores = outboundClient(true);
