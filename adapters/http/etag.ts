import { hash } from 'node:crypto'
import type { Context } from 'koa'

/** What Koa's `ctx.type = 'application/json'` sets, without its look-up in the MIME database. */
export const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * A strong validator of what the client reads: the body and, for a list, its Link header (a page
 * whose `next` appears must change its tag). SHA-1 is plenty for telling versions apart, and cheap.
 */
const etagOf = (body: string, link = ''): string => `"${hash('sha1', `${body}\n${link}`, 'base64url')}"`

/**
 * RFC 9110 §13.1.2: does If-None-Match name the current tag? `*` names any, and the comparison is
 * weak (W/ is ignored). Evaluated here rather than by Koa's `fresh`, which treats a request's
 * `Cache-Control: no-cache` (sent by fetch() with any conditional header) as "never fresh": that
 * rule is for caches, while an origin server must evaluate the condition.
 */
const ifNoneMatchNames = (header: string | undefined, etag: string): boolean => {
  if (header === undefined || header === '') return false
  if (header.trim() === '*') return true
  const opaque = (tag: string): string => tag.trim().replace(/^W\//, '')
  return header.split(',').some((tag) => opaque(tag) === opaque(etag))
}

/**
 * Answers a GET with its JSON body and its ETag (of the body and `link`), or with 304 and no body
 * when the client's If-None-Match already names that tag. Browsers may keep the answer but must
 * revalidate it, and shared caches must not store it: it was fetched with a key.
 */
export const sendCacheable = (ctx: Context, body: string, link?: string): void => {
  const etag = etagOf(body, link)
  ctx.set('Cache-Control', 'private, no-cache')
  if (link !== undefined) ctx.set('Link', link)
  ctx.set('ETag', etag)
  if (ifNoneMatchNames(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304
    return
  }
  ctx.set('Content-Type', JSON_TYPE)
  ctx.body = body
}
