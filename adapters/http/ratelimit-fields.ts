/** The name of a key's main quota policy in the fields of draft-ietf-httpapi-ratelimit-headers-09. */
export const DEFAULT_POLICY = 'default'

/** `RateLimit-Policy`: the quota of requests per window of seconds, under its policy's name. */
export const rateLimitPolicyField = (quota: number, windowSeconds: number, policy = DEFAULT_POLICY): string =>
  `"${policy}";q=${quota};w=${windowSeconds}`

/** `RateLimit`: the requests remaining and the seconds until the window resets, under its policy's name. */
export const rateLimitField = (remaining: number, resetSeconds: number, policy = DEFAULT_POLICY): string =>
  `"${policy}";r=${remaining};t=${resetSeconds}`
