const API_PREFIX = '/v1'

/** Whether a path is the API's (under /v1): it needs a key, is shared with browsers, and is never cached. */
export const isUnderApi = (path: string): boolean => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)
