// The sandbox inspector: the journal of one API key's sandbox, refreshed every second, and its
// fault script. The key stays in this tab's session storage and is sent only to this origin.
'use strict'

const KEY_ITEM = 'petstore-sandbox-key'
const REFRESH_MS = 1000
const $ = (id) => document.getElementById(id)

let openId = null
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

const showEntry = () => {
  const entry = entries.find((candidate) => candidate.id === openId)
  $('entry').hidden = entry === undefined
  $('entry').textContent = entry === undefined ? '' : JSON.stringify(entry, null, 2)
}

const render = () => {
  const rows = entries.map((entry) => {
    const row = document.createElement('tr')
    row.dataset.id = entry.id
    row.classList.toggle('open', entry.id === openId)
    row.append(cell(entry.time), cell(entry.method), cell(entry.path), cell(entry.status ?? '—'), cell(entry.fault ?? ''))
    row.addEventListener('click', () => {
      openId = openId === entry.id ? null : entry.id
      render()
    })
    return row
  })
  $('journal').replaceChildren(...rows)
  showEntry()
}

const refresh = async () => {
  if (key() === '') return
  try {
    const answer = await call('GET', '/v1/sandbox/requests?limit=100')
    if (answer.status !== 200) return say(`The journal answered ${answer.status}: ${answer.json?.message ?? answer.text}`, true)
    entries = answer.json
    say(`Showing the sandbox of the key you typed: ${entries.length} requests.`)
    render()
  } catch (error) {
    say(`The service did not answer: ${error.message}`, true)
  }
}

const showAnswer = (answer) => {
  $('script-answer').textContent = `${answer.status}\n${answer.json === null ? '' : JSON.stringify(answer.json, null, 2)}`
}

$('key-form').addEventListener('submit', (event) => {
  event.preventDefault()
  sessionStorage.setItem(KEY_ITEM, $('key').value.trim())
  $('key').value = ''
  entries = []
  render()
  void refresh()
})
$('reset').addEventListener('click', async () => {
  const answer = await call('POST', '/v1/sandbox/reset')
  $('action').textContent = answer.status === 204 ? 'The sandbox is back to its seed.' : `The reset answered ${answer.status}.`
  $('action').classList.toggle('failed', answer.status !== 204)
  await refresh()
})
$('clear-journal').addEventListener('click', async () => {
  await call('DELETE', '/v1/sandbox/requests')
  await refresh()
})
$('set-script').addEventListener('click', async () => showAnswer(await call('PUT', '/v1/sandbox/faults', $('script').value)))
$('show-script').addEventListener('click', async () => showAnswer(await call('GET', '/v1/sandbox/faults')))
$('clear-script').addEventListener('click', async () => showAnswer(await call('DELETE', '/v1/sandbox/faults')))

setInterval(() => void refresh(), REFRESH_MS)
void refresh()
