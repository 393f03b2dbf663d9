export * from './credential.js'
export * from './store.js'
export * from './cache.js'
export * from './plugin.js'
