/** The folder of the built widget (with a trailing slash). */
export declare const widgetDist: string
/** The files the chat service serves, by their public name. */
export declare const widgetFiles: readonly string[]
