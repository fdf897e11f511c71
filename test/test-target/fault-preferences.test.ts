import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { readFaultPreferences } from '../../adapters/test-target/fault-preferences.js'
import { MAX_DELAY_MS } from '../../adapters/test-target/fault-rule.js'

const Preferences = suite('readFaultPreferences')

Preferences('reads delay from 0 to 10000 milliseconds, fault 429, 500, 502, 503, 504 or a network fault, and retry-after', () => {
  assert.is(MAX_DELAY_MS, 10_000)
  assert.equal(readFaultPreferences('delay=0'), { delayMs: 0 })
  assert.equal(readFaultPreferences('delay=10000'), { delayMs: 10_000 })
  assert.equal(readFaultPreferences('fault=429, delay=250'), { delayMs: 250, fault: '429' })
  assert.equal(readFaultPreferences('fault=500'), { fault: '500' })
  assert.equal(readFaultPreferences('Fault="503"; why=test'), { fault: '503' })
  for (const fault of ['502', '504', 'reset', 'reset-after', 'truncated'])
    assert.equal(readFaultPreferences(`fault=${fault}`), { fault }, fault)
})

Preferences('ignores a delay out of range or not written as the API writes integers', () => {
  for (const delay of ['10001', '-1', '1.5', '1e3', '+5', '010', '0x10', 'abc', '', '99999999999999999999999']) {
    assert.equal(readFaultPreferences(`delay=${delay}`), {}, delay)
  }
  assert.equal(readFaultPreferences('delay'), {})
})

Preferences('ignores a fault it cannot force, and preferences it does not know', () => {
  for (const fault of ['404', '501', '200', 'abc', '503.0', '0503', '']) assert.equal(readFaultPreferences(`fault=${fault}`), {}, fault)
  assert.equal(readFaultPreferences('fault, respond-async, wait=5, return=minimal, handling=strict'), {})
  assert.equal(readFaultPreferences(undefined), {})
})

Preferences('the first occurrence counts, even when it is one the service ignores (RFC 7240 §2)', () => {
  assert.equal(readFaultPreferences('fault=404, fault=503, delay=10001, delay=5'), {})
  assert.equal(readFaultPreferences('fault=503, fault=500'), { fault: '503' })
})

Preferences('reads retry-after from 0 to 3600 seconds', () => {
  assert.equal(readFaultPreferences('fault=503, retry-after=0'), { fault: '503', retryAfterSeconds: 0 })
  assert.equal(readFaultPreferences('fault=429, retry-after=3600'), { fault: '429', retryAfterSeconds: 3600 })
  for (const seconds of ['3601', '-1', '1.5', '']) assert.equal(readFaultPreferences(`retry-after=${seconds}`), {}, seconds)
})

Preferences.run()
