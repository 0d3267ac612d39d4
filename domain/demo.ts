// The service-owned demo organization that the shared demo key acts as (document 1 "Demo mode").
export const DEMO_ORGANIZATION_ID = 'de300000-0000-4000-8000-000000000000';
export const DEMO_ORGANIZATION_NAME = 'Stylist demo store';
