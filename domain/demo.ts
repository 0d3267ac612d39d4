// The service-owned demo organization that the shared demo key acts as (document 1 "Demo mode").
export const DEMO_ORGANIZATION_ID = 'de300000-0000-4000-8000-000000000000';
export const DEMO_ORGANIZATION_NAME = 'Stylist demo store';

/**
 * The demo's widget themes (document 1 WidgetPreset fields), made by `stylist demo seed` so the
 * demo storefront can show a theme switch. The last one is the default (the most recent preset).
 * Both keep text at WCAG AA contrast against their surfaces.
 */
export const DEMO_THEMES = [
  {
    name: 'Midnight',
    buttonLabel: 'Ask the stylist',
    buttonColor: '#38bdf8',
    buttonHoverColor: '#7dd3fc',
    buttonTextColor: '#0f172a',
    typingDotColor: '#38bdf8',
    accentColor: '#38bdf8',
    accentHoverColor: '#7dd3fc',
    mutedTextColor: '#cbd5e1',
    primaryTextColor: '#f8fafc',
    pageColor: '#0f172a',
    surfaceColor: '#1e293b',
    borderColor: '#475569',
    inputColor: '#0f172a',
    footerColor: '#1e293b',
    roundness: 40,
  },
  {
    name: 'Classic',
    buttonLabel: 'Style me',
    buttonColor: '#1d4ed8',
    buttonHoverColor: '#1e40af',
    buttonTextColor: '#ffffff',
    typingDotColor: '#1d4ed8',
    accentColor: '#1d4ed8',
    accentHoverColor: '#1e40af',
    mutedTextColor: '#4b5563',
    primaryTextColor: '#111827',
    pageColor: '#ffffff',
    surfaceColor: '#f3f4f6',
    borderColor: '#d1d5db',
    inputColor: '#ffffff',
    footerColor: '#f9fafb',
    roundness: 100,
  },
] as const;
