import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { authorizationForm } from '../../adapters/test-target/authorization-form.js'

const Form = suite('What a journal entry shows of an Authorization')

Form('every word but a scheme’s name is [redacted]; the names, spaces and commas show as sent', () => {
  const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
    [['Bearer abc+/DEF-0123456789=='], 'Bearer [redacted]'],
    [['bearer abc'], 'bearer [redacted]'],
    [['Bearer  abc'], 'Bearer  [redacted]'],
    [['Bearer abc def'], 'Bearer [redacted] [redacted]'],
    [['Bearer Bearer abc'], 'Bearer Bearer [redacted]'],
    [['Bearer basic'], 'Bearer basic'],
    [['Bearer "abc",def'], 'Bearer "[redacted]",[redacted]'],
    [['abc'], '[redacted]'],
    [['Basic abc'], 'Basic [redacted]'],
    [['Bearer abc', 'Bearer def'], 'Bearer [redacted], Bearer [redacted]'],
    [['Bearer '], 'Bearer '],
  ]
  for (const [values, form] of cases) assert.is(authorizationForm(values), form, values.join(' | '))
})

Form.run()
