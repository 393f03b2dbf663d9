import { get, projectPath } from './client.js'
import type { Analytics } from './types.js'

export const getAnalytics = (id: string, days: number) => get<Analytics>(projectPath(id, 'analytics') + '?days=' + String(days))
