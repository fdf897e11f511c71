/** A setting of the service: an environment variable readConfig reads, and its option, if it has one. */
interface Setting {
  readonly name: string
  /** A few words for `--help`; docs/guides/settings.md describes it, its values and its default. */
  readonly summary: string
  /** The command-line option that sets it too, winning over the variable: `--option <value>`. */
  readonly option?: string
  /**
   * For a switch: the value its option, given alone (`--option`, no value), sets the variable to.
   * Such an option cannot turn the switch off: left out, the variable decides.
   */
  readonly optionSets?: string
}

/** Settings that belong together: a heading of docs/guides/settings.md and of `--help`. */
interface SettingGroup {
  readonly title: string
  readonly settings: ReadonlyArray<Setting>
}

/**
 * Every setting, in three groups: what an operator sets, what tunes the service or turns a feature
 * on, and the test target for client developers. In the order of docs/guides/settings.md, whose
 * headings a test checks against these groups, and the settings against what readConfig reads.
 */
export const SETTING_GROUPS: ReadonlyArray<SettingGroup> = [
  {
    title: 'What an operator sets',
    settings: [
      { name: 'PORT', summary: 'TCP port to listen on; 0 picks a free one', option: 'port' },
      { name: 'HOST', summary: 'address to listen on; 0.0.0.0 for every interface' },
      { name: 'PETSTORE_API_KEYS', summary: 'comma-separated API keys; unset: one generated for the run' },
      { name: 'NODE_ENV', summary: 'production: refuse to start without keys and a chosen store' },
      { name: 'PETSTORE_STORE', summary: 'where pets are kept: memory or mongodb' },
      { name: 'MONGODB_URI', summary: 'MongoDB connection string, with PETSTORE_STORE=mongodb' },
      { name: 'PETSTORE_CURSOR_SECRET', summary: 'secret that signs paging cursors, the same on every instance' },
      { name: 'LOG_LEVEL', summary: 'fatal, error, warn, info, debug, trace or silent' },
    ],
  },
  {
    title: 'Optional features and tuning',
    settings: [
      { name: 'PETSTORE_MONGODB_TIMEOUT_MS', summary: 'bound on each round trip to MongoDB, in milliseconds' },
      { name: 'PETSTORE_MONGODB_WRITE_CONCERN', summary: 'MongoDB nodes that confirm a write: majority or a number' },
      { name: 'PETSTORE_MAX_BODY_BYTES', summary: 'largest accepted request body, in bytes' },
      { name: 'PETSTORE_CORS_ORIGINS', summary: 'origins whose pages may call the API: * or a list' },
      { name: 'PETSTORE_RATE_LIMIT', summary: 'requests per API key per minute, or off' },
      { name: 'PETSTORE_METRICS', summary: 'on or off: Prometheus metrics at /metrics' },
      {
        name: 'PETSTORE_STOP_ON_STDIN_CLOSE',
        summary: 'on: stop as on SIGTERM when standard input closes',
        option: 'stop-on-stdin-close',
        optionSets: 'on',
      },
    ],
  },
  {
    title: 'The test target',
    settings: [
      { name: 'PETSTORE_TEST_TARGET', summary: 'on: sandboxes per key and forced faults, for testing clients', option: 'test-target' },
      { name: 'PETSTORE_SANDBOX_MAX', summary: 'with the test target: most sandboxes made at run time open at once' },
      { name: 'PETSTORE_SANDBOX_IDLE_SECONDS', summary: 'with the test target: seconds a made sandbox may go unused' },
      { name: 'PETSTORE_SEED', summary: 'pets an empty store starts from: demo or a JSON file', option: 'seed' },
    ],
  },
]

/** Every setting, in the order of its group. */
export const SETTINGS: ReadonlyArray<Setting> = SETTING_GROUPS.flatMap(({ settings }) => settings)

const TEST_TARGET_REPLACES = 'set PETSTORE_TEST_TARGET=on, which turns on sandboxes and faults together'

/**
 * Settings the service no longer reads, and what replaced each: set, they stop start-up with that
 * replacement named (readConfig), so that a deployment never runs on a value it thinks it gave.
 */
export const REMOVED_SETTINGS: ReadonlyArray<{ readonly name: string; readonly replacement: string }> = [
  { name: 'MONGODB_DB', replacement: 'name the database in the path of MONGODB_URI (mongodb+srv://host/petstore)' },
  { name: 'PETSTORE_SANDBOXES', replacement: TEST_TARGET_REPLACES },
  { name: 'PETSTORE_FAULTS', replacement: TEST_TARGET_REPLACES },
]
