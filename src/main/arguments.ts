import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { PACKAGE_ROOT } from '../package-root.js'
import { SETTING_GROUPS, SETTINGS } from './settings.js'

/** What the command line asks for. */
type Invocation =
  | { readonly kind: 'run'; readonly settings: Readonly<Record<string, string>> }
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'refused'; readonly message: string }

const COMMAND = 'petstore-service'
/** The one description of every setting. */
const SETTINGS_GUIDE = resolve(PACKAGE_ROOT, 'docs/guides/settings.md')

const OPTIONED = SETTINGS.flatMap(({ name, option, optionSets }) => (option === undefined ? [] : [{ name, option, optionSets }]))
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  ...Object.fromEntries(
    OPTIONED.map(({ option, optionSets }) => [option, { type: optionSets === undefined ? 'string' : 'boolean' }] as const),
  ),
} as const

const column = (rows: ReadonlyArray<readonly [string, string]>, width = Math.max(...rows.map(([left]) => left.length)) + 2): string =>
  rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`).join('\n')

/** The groups' columns line up with each other. */
const SETTING_WIDTH = Math.max(...SETTINGS.map(({ name }) => name.length)) + 2

const helpText = (): string =>
  [
    `Usage: ${COMMAND} [options]`,
    '',
    'Runs the Pet Store service until SIGINT or SIGTERM (or, with --stop-on-stdin-close, until its',
    'standard input closes). Once it listens, it writes one JSON line on stderr saying where, such as',
    '{"event":"listening","url":"http://127.0.0.1:8080"}, with "key" when it generated one. Environment',
    'variables configure it; some of them can be given as options too, and an option wins over its',
    'variable.',
    '',
    'Options:',
    column([
      ...OPTIONED.map(({ name, option, optionSets }): [string, string] =>
        optionSets === undefined ? [`--${option} <value>`, `sets ${name}`] : [`--${option}`, `sets ${name}=${optionSets}`],
      ),
      ['-h, --help', 'prints this help'],
    ]),
    '',
    `Environment variables (what each takes, and its default: ${SETTINGS_GUIDE}):`,
    ...SETTING_GROUPS.flatMap(({ title, settings }) => [
      '',
      `${title}:`,
      column(
        settings.map(({ name, summary }): [string, string] => [name, summary]),
        SETTING_WIDTH,
      ),
    ]),
    '',
    `Example: ${COMMAND} --seed demo --test-target on`,
    '',
  ].join('\n')

const refused = (problem: string): Invocation => ({
  kind: 'refused',
  message: `${COMMAND}: ${problem}. ${COMMAND} --help lists the options.`,
})

/**
 * Reads the command line: help, or the settings its options give (keyed by their variables), or
 * why it is refused (an unknown option, a missing value, an argument that is no option, an option
 * with a value given twice: which one was meant cannot be told).
 */
export const readArguments = (args: ReadonlyArray<string>): Invocation => {
  let values: Record<string, string | boolean | undefined>
  let given: ReadonlyArray<string>
  try {
    const parsed = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: false, tokens: true })
    values = parsed.values
    given = parsed.tokens.flatMap((token) => (token.kind === 'option' && token.value !== undefined ? [token.name] : []))
  } catch (error) {
    // parseArgs says what is wrong and names the argument: "Unknown option '--prot'".
    if (error instanceof TypeError) return refused(error.message)
    throw error
  }
  const twice = given.find((name, index) => given.indexOf(name) !== index)
  if (twice !== undefined) return refused(`Option '--${twice} <value>' is given more than once`)
  if (values.help === true) return { kind: 'help', text: helpText() }
  return {
    kind: 'run',
    settings: Object.fromEntries(
      OPTIONED.flatMap(({ name, option, optionSets }) => {
        const value = values[option]
        if (typeof value === 'string') return [[name, value]]
        return value === true && optionSets !== undefined ? [[name, optionSets]] : []
      }),
    ),
  }
}
