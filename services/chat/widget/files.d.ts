/** The folder of the built widget (with a trailing slash). */
export declare const widgetDist: string
/** The version the loader asks for the panel with (`panel.js?v=…`): a hash of the panel's content. */
export declare const panelVersionOf: (content: Uint8Array) => string
