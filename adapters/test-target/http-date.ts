const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)'
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)'
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)'
const TIME = '\\d{2}:\\d{2}:\\d{2}'

/** IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) and the obsolete rfc850-date (`Sunday, 06-Nov-94 08:49:37 GMT`). */
const IN_GMT = new RegExp(`^(?:${DAY}, \\d{2} ${MONTH} \\d{4}|${LONG_DAY}, \\d{2}-${MONTH}-\\d{2}) ${TIME} GMT$`)
/** The obsolete asctime-date (`Sun Nov  6 08:49:37 1994`), in GMT though it does not say so. */
const ASCTIME = new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`)

/**
 * The time an HTTP-date names (RFC 9110 §5.6.7: the three forms a recipient must read), in
 * milliseconds since the epoch; undefined for anything else, a number of seconds included. The
 * form is checked here; V8's Date.parse, lenient with other text, reads each of these three
 * exactly (a two-digit year below 50 in this century).
 */
export const httpDateMs = (text: string): number | undefined => {
  const ms = IN_GMT.test(text) ? Date.parse(text) : ASCTIME.test(text) ? Date.parse(`${text} GMT`) : Number.NaN
  return Number.isFinite(ms) ? ms : undefined
}
