// The sandbox inspector: the journal of one API key's sandbox and its report, refreshed every
// second, the journal filtered as the user chooses, and its fault script. The key stays in this tab's session storage and is sent
// only to this origin.
'use strict'

const KEY_ITEM = 'petstore-sandbox-key'
const REFRESH_MS = 1000
const $ = (id) => document.getElementById(id)

/** The entry shown in full, by its number and time (a cleared journal numbers from 1 again). */
let openKey = null
let entries = []

const key = () => sessionStorage.getItem(KEY_ITEM) ?? ''

const call = async (method, path, body) => {
  const headers = { Authorization: `Bearer ${key()}` }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const response = await fetch(path, { method, headers, body })
  const text = await response.text()
  return { status: response.status, text, json: text === '' ? null : JSON.parse(text) }
}

const say = (text, failed = false) => {
  $('status').textContent = text
  $('status').classList.toggle('failed', failed)
}

const cell = (text) => {
  const td = document.createElement('td')
  td.textContent = text
  return td
}

const keyOf = (entry) => `${entry.sequence} ${entry.time}`

/** What the journal's `fault` names a rule's scripted answer by. */
const SCRIPTED_ANSWER = 'answer'

const showEntry = () => {
  const entry = entries.find((candidate) => keyOf(candidate) === openKey)
  $('entry').hidden = entry === undefined
  $('entry').textContent = entry === undefined ? '' : JSON.stringify(entry, null, 2)
}

/** The status answered; with the state when the request was not answered whole: `pending`, `abandoned`, `200 reset`. */
const statusOf = (entry) =>
  entry.state === 'answered' ? entry.status : [entry.status, entry.state].filter((part) => part !== null).join(' ')

const render = () => {
  const rows = entries.map((entry) => {
    const row = document.createElement('tr')
    row.classList.toggle('open', keyOf(entry) === openKey)
    // A scripted answer is the script's, not the service's: marked so that nobody takes it for one the service gave.
    row.classList.toggle('scripted', entry.fault === SCRIPTED_ANSWER)
    row.append(
      cell(entry.sequence),
      cell(entry.time),
      cell(entry.method),
      cell(entry.path),
      cell(entry.operation ?? ''),
      cell(statusOf(entry)),
      cell(entry.fault === SCRIPTED_ANSWER ? 'scripted answer' : (entry.fault ?? '')),
    )
    row.addEventListener('click', () => {
      openKey = openKey === keyOf(entry) ? null : keyOf(entry)
      render()
    })
    return row
  })
  $('journal').replaceChildren(...rows)
  showEntry()
}

const item = (text) => {
  const li = document.createElement('li')
  li.textContent = text
  return li
}

/** A list of the report's, or what says it is empty. */
const showList = (id, shown, empty) => $(id).replaceChildren(...(shown.length === 0 ? [item(empty)] : shown.map(item)))

const judged = ({ code, sequences, message }) => `${code} (#${sequences.join(', #')}): ${message}`

/** The report beside the journal: its findings, warnings and deprecated calls apart, the coverage totals, and what is not reached yet. */
const renderReport = (report) => {
  showList('findings', (report?.findings ?? []).map(judged), 'No findings.')
  showList('warnings', (report?.warnings ?? []).map(judged), 'No warnings.')
  showList(
    'deprecated',
    (report?.deprecatedOperations ?? []).map(
      ({ operation, count, sequences, message }) =>
        `${operation}, ${count} call${count === 1 ? '' : 's'} (#${sequences.join(', #')}): ${message}`,
    ),
    'No deprecated operation called.',
  )
  const totals = report?.coverage.totals
  $('coverage').textContent =
    totals === undefined
      ? ''
      : `Reached ${totals.responses.reached} of ${totals.responses.declared} responses, ${totals.codes.reached} of ${totals.codes.declared} error codes, ${totals.faults.reached} of ${totals.faults.declared} faults.`
  const unreached = (report?.coverage.responses ?? []).flatMap((response) => [
    ...(response.reached ? [] : [`${response.operation} ${response.status}`]),
    ...response.codes.filter((code) => !code.reached).map((code) => `${response.operation} ${response.status} ${code.code}`),
  ])
  $('unreached').replaceChildren(...unreached.map(item))
}

const FILTERS = ['method', 'operation', 'status']

/** The filters chosen, as [name, value] pairs: the service checks them, and says what it refuses. */
const chosenFilters = () => FILTERS.map((name) => [name, $(`filter-${name}`).value.trim()]).filter(([, value]) => value !== '')

/** How many refreshes began: an answer to any but the latest is stale (the filters may have changed since). */
let refreshes = 0

const refresh = async () => {
  if (key() === '') return
  refreshes += 1
  const latest = refreshes
  try {
    const chosen = chosenFilters()
    const [answer, report] = await Promise.all([
      call('GET', `/v1/sandbox/requests?${new URLSearchParams([['limit', '100'], ...chosen])}`),
      call('GET', '/v1/sandbox/report'),
    ])
    if (latest !== refreshes) return
    entries = answer.status === 200 ? answer.json : []
    render()
    renderReport(report.status === 200 ? report.json : null)
    if (answer.status !== 200) return say(`The journal answered ${answer.status}: ${answer.json?.message ?? answer.text}`, true)
    const requests = `${entries.length} request${entries.length === 1 ? '' : 's'}`
    const shown = chosen.length > 0 ? `${requests} with ${chosen.map(([name, value]) => `${name} ${value}`).join(', ')}` : requests
    say(`Showing the sandbox of the key you typed: ${shown}.`)
  } catch (error) {
    if (latest === refreshes) say(`The service did not answer: ${error.message}`, true)
  }
}

const showAnswer = (answer) => {
  $('script-answer').textContent = `${answer.status}\n${answer.json === null ? '' : JSON.stringify(answer.json, null, 2)}`
}

/** A button's work, with any failure (no answer, an answer that is not JSON) shown instead of lost. */
const onClick = (id, work) =>
  $(id).addEventListener('click', () =>
    work().catch((error) => {
      $('action').textContent = `That did not work: ${error.message}`
      $('action').classList.add('failed')
    }),
  )

$('key-form').addEventListener('submit', (event) => {
  event.preventDefault()
  sessionStorage.setItem(KEY_ITEM, $('key').value.trim())
  $('key').value = ''
  entries = []
  render()
  void refresh()
})
$('filters').addEventListener('submit', (event) => {
  event.preventDefault()
  void refresh()
})
$('filters').addEventListener('change', () => void refresh())
onClick('reset', async () => {
  const answer = await call('POST', '/v1/sandbox/reset')
  $('action').textContent = answer.status === 204 ? 'The sandbox is back to its seed.' : `The reset answered ${answer.status}.`
  $('action').classList.toggle('failed', answer.status !== 204)
  await refresh()
})
onClick('clear-journal', async () => {
  await call('DELETE', '/v1/sandbox/requests')
  await refresh()
})
onClick('set-script', async () => showAnswer(await call('PUT', '/v1/sandbox/faults', $('script').value)))
onClick('show-script', async () => showAnswer(await call('GET', '/v1/sandbox/faults')))
onClick('clear-script', async () => showAnswer(await call('DELETE', '/v1/sandbox/faults')))

setInterval(() => void refresh(), REFRESH_MS)
void refresh()
