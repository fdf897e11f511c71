import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { httpDateMs } from '../../adapters/test-target/http-date.js'

const HttpDate = suite('httpDateMs: an HTTP-date, as Retry-After and Date give it (RFC 9110 §5.6.7)')

const NOV_6_1994 = Date.UTC(1994, 10, 6, 8, 49, 37)

HttpDate('reads the three forms a recipient must read, each in GMT', () => {
  assert.is(httpDateMs('Sun, 06 Nov 1994 08:49:37 GMT'), NOV_6_1994)
  assert.is(httpDateMs('Sunday, 06-Nov-94 08:49:37 GMT'), NOV_6_1994)
  assert.is(httpDateMs('Sun Nov  6 08:49:37 1994'), NOV_6_1994)
})

HttpDate('reads nothing else: seconds, another zone, a date the lenient Date.parse would take', () => {
  for (const text of [
    '5',
    '',
    '2026-12-01T10:00:00Z',
    'Sun, 06 Nov 1994 08:49:37 UTC',
    'Sun, 6 Nov 1994 08:49:37 GMT',
    'tomorrow',
    'Sun Nov  6 08:49:37 1994 GMT',
  ]) {
    assert.is(httpDateMs(text), undefined, text)
  }
})

HttpDate.run()
