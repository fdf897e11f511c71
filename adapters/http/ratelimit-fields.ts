/** The one quota policy's name in the fields of draft-ietf-httpapi-ratelimit-headers-09. */
const POLICY = 'default'

/** `RateLimit-Policy`: the quota of requests per window of seconds. */
export const rateLimitPolicyField = (quota: number, windowSeconds: number): string => `"${POLICY}";q=${quota};w=${windowSeconds}`

/** `RateLimit`: the requests remaining and the seconds until the window resets. */
export const rateLimitField = (remaining: number, resetSeconds: number): string => `"${POLICY}";r=${remaining};t=${resetSeconds}`
