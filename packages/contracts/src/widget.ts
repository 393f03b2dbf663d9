import { Type, type Static } from 'typebox'

// The widget's own files, served by the chat service under /widget/v1/ (issue 29).

/** The files a shop's page loads: the loader it embeds, and the panel the loader fetches on opening. */
export const widgetFileNames = ['loader.js', 'panel.js'] as const
export type WidgetFileName = typeof widgetFileNames[number]

export const WidgetFileQuery = Type.Object({
  v: Type.Optional(Type.String({
    maxLength: 64,
    pattern: '^[0-9a-f]*$',
    description: 'The content hash the loader asks for the panel with: when it is the served panel\'s, the reply may be cached for a year (`immutable`); any other is served the current file, cached for minutes'
  }))
})
export type WidgetFileQuery = Static<typeof WidgetFileQuery>

export const WidgetScript = Type.String({ description: 'A classic script (no modules), minified' })
