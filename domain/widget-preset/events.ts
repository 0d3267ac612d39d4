/** The look of the embedded widget, as document 1's WidgetPreset `options` holds it. */
export interface WidgetPresetOptions {
  button: { label: string; color: string; hoverColor: string; textColor: string };
  widget: {
    typingDotColor: string;
    accentColor: string;
    accentHoverColor: string;
    mutedTextColor: string;
    primaryTextColor: string;
    pageColor: string;
    surfaceColor: string;
    borderColor: string;
    inputColor: string;
    footerColor: string;
    roundness: number;
  };
}

export interface WidgetPresetCreated {
  type: 'WidgetPresetCreated';
  data: { presetId: string; organizationId: string; name: string; options: WidgetPresetOptions; at: string };
}

export type WidgetPresetEvent = WidgetPresetCreated;

export const widgetPresetStream = (presetId: string): string => `preset-${presetId}`;
