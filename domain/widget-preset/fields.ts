// The create body of POST /v1/widget/presets (document 2) and its rules. The route's zod schema
// is built from the same limits and messages, so an HTTP caller and the decider agree word for word.
import type { WidgetPresetOptions } from './events.js';

export const COLOUR_FIELDS = [
  'buttonColor',
  'buttonHoverColor',
  'buttonTextColor',
  'typingDotColor',
  'accentColor',
  'accentHoverColor',
  'mutedTextColor',
  'primaryTextColor',
  'pageColor',
  'surfaceColor',
  'borderColor',
  'inputColor',
  'footerColor',
] as const;

export type ColourField = (typeof COLOUR_FIELDS)[number];

/** The body as sent; `roundness` left out means the default. */
export type WidgetPresetFields = { name: string; buttonLabel: string; roundness?: number } & Record<ColourField, string>;

export const PRESET_LIMITS = { name: 100, buttonLabel: 40, roundness: { min: 0, max: 100, default: 100 } } as const;

/** `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`. No `i` flag: the OpenAPI document carries the pattern, never its flags. */
export const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

export const PRESET_VALIDATION_FAILED = 'Validation failed.';

export const presetMessages = {
  required: (field: string) => `${field} is required.`,
  notText: (field: string) => `${field} must be a string.`,
  empty: (field: string) => `${field} must not be empty.`,
  tooLong: (field: string, max: number) => `${field} must be at most ${max} characters.`,
  notColour: (field: string) => `${field} must be a hex colour: #rgb, #rgba, #rrggbb or #rrggbbaa.`,
  roundness: `roundness must be an integer from ${PRESET_LIMITS.roundness.min} to ${PRESET_LIMITS.roundness.max}.`,
} as const;

const textProblem = (field: string, value: unknown, max: number): string | null => {
  if (value === undefined || value === null) return presetMessages.required(field);
  if (typeof value !== 'string') return presetMessages.notText(field);
  // Measured once trimmed, as the stored value is: padding neither fills nor overflows a name.
  const text = value.trim();
  if (!text) return presetMessages.empty(field);
  return text.length > max ? presetMessages.tooLong(field, max) : null;
};

const colourProblem = (field: string, value: unknown): string | null => {
  if (value === undefined || value === null) return presetMessages.required(field);
  if (typeof value !== 'string') return presetMessages.notText(field);
  return HEX_COLOUR.test(value) ? null : presetMessages.notColour(field);
};

const roundnessProblem = (value: unknown): string | null => {
  if (value === undefined) return null;
  const { min, max } = PRESET_LIMITS.roundness;
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? null : presetMessages.roundness;
};

/**
 * Each wrong field with its message, in body order; empty when the fields make a preset. Takes
 * values as they may arrive from outside TypeScript (the CLI, an admin channel), hence the checks of type.
 */
export function presetFieldProblems(fields: WidgetPresetFields): Record<string, string> {
  const raw = fields as unknown as Record<string, unknown>;
  const problems: Record<string, string> = {};
  const note = (field: string, problem: string | null) => {
    if (problem) problems[field] = problem;
  };
  note('name', textProblem('name', raw.name, PRESET_LIMITS.name));
  note('buttonLabel', textProblem('buttonLabel', raw.buttonLabel, PRESET_LIMITS.buttonLabel));
  for (const field of COLOUR_FIELDS) note(field, colourProblem(field, raw[field]));
  note('roundness', roundnessProblem(raw.roundness));
  return problems;
}

/** The stored `name` and `options` of valid fields. */
export const presetContent = (fields: WidgetPresetFields): { name: string; options: WidgetPresetOptions } => ({
  name: fields.name.trim(),
  options: {
    button: { label: fields.buttonLabel.trim(), color: fields.buttonColor, hoverColor: fields.buttonHoverColor, textColor: fields.buttonTextColor },
    widget: {
      typingDotColor: fields.typingDotColor,
      accentColor: fields.accentColor,
      accentHoverColor: fields.accentHoverColor,
      mutedTextColor: fields.mutedTextColor,
      primaryTextColor: fields.primaryTextColor,
      pageColor: fields.pageColor,
      surfaceColor: fields.surfaceColor,
      borderColor: fields.borderColor,
      inputColor: fields.inputColor,
      footerColor: fields.footerColor,
      roundness: fields.roundness ?? PRESET_LIMITS.roundness.default,
    },
  },
});
