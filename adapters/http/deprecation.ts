/**
 * getPet is deprecated (spec §9.2). Deprecation (RFC 9745) carries the date it took effect: the release
 * of interface 1.0.0, 2026-11-22T00:00:00Z. Sunset (RFC 8594) carries the announced removal date.
 */
export const DEPRECATION_HEADERS = {
  Deprecation: '@1795305600',
  Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  Link: '</v1/pets>; rel="successor-version"',
} as const
