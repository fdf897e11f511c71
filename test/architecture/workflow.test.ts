import { validateWorkflow } from '@action-validator/core'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { load } from 'js-yaml'
import { PACKAGE_ROOT as ROOT } from '../../src/package-root.js'

const WORKFLOW = resolve(ROOT, '.github/workflows/ci.yml')

const Workflow = suite('The GitHub Actions workflow')

Workflow('is a valid workflow, by the schema action-validator checks it against', () => {
  const state = validateWorkflow(readFileSync(WORKFLOW, 'utf8'))
  assert.equal(state.errors, [], JSON.stringify(state.errors, null, 2))
})

interface Job {
  readonly strategy?: { readonly matrix: Record<string, string[]> }
  readonly env?: Record<string, string>
  readonly steps: ReadonlyArray<{ readonly uses?: string; readonly run?: string; readonly env?: Record<string, string> }>
}

const workflow = (): { readonly env?: Record<string, string>; readonly jobs: Record<string, Job> } =>
  load(readFileSync(WORKFLOW, 'utf8')) as { env?: Record<string, string>; jobs: Record<string, Job> }

Workflow('runs npm test on Node 20, 22 and 24, and the MongoDB suites on MongoDB 7 and 8 where skipping fails', () => {
  const { jobs } = workflow()
  assert.equal(jobs.test?.strategy?.matrix.node, ['20', '22', '24'])
  assert.ok(jobs.test?.steps.some((step) => step.run === 'npm test'))
  const mongodb = jobs.mongodb
  assert.equal(
    mongodb?.strategy?.matrix.mongodb?.map((version) => version.split('.')[0]),
    ['7', '8'],
  )
  // Exact releases: mongodb-memory-server downloads the archive named by the version.
  assert.ok(mongodb?.strategy?.matrix.mongodb?.every((version) => /^\d+\.\d+\.\d+$/.test(version)))
  assert.is(mongodb?.env?.MONGOMS_VERSION, '${{ matrix.mongodb }}')
  // The suites start their own mongod (a standalone, and three members for the replica set): no
  // server action, whose Docker client today's runners refuse, and no URI that would bypass it.
  assert.not.ok(mongodb?.steps.some((step) => step.uses?.includes('mongodb-github-action')))
  const suites = mongodb?.steps.findIndex((step) => step.env?.PETSTORE_REQUIRE_MONGODB === '1') ?? -1
  assert.match(mongodb?.steps[suites]?.run ?? '', 'mongo-(pet-repository|seed|store|replica-set)')
  assert.is(mongodb?.steps[suites]?.env?.PETSTORE_TEST_MONGODB_URI, undefined)
  assert.is(mongodb?.steps[suites]?.env?.PETSTORE_TEST_MONGODB_REPLSET_URI, undefined)
  // The mongod is downloaded by a step of its own, before the suites and after the build.
  const download = mongodb?.steps.findIndex((step) => step.run?.includes('MongoBinary.getPath()') === true) ?? -1
  assert.ok(download > 0 && download < suites, 'a step downloads the mongod before the suites run')
})

Workflow(
  'has a mongod in the mongodb job only: no install downloads one, and the npm test jobs may not, so their MongoDB suites skip',
  () => {
    const { env, jobs } = workflow()
    // No install downloads one: npm runs mongodb-memory-server's postinstall on every Node line.
    assert.is(env?.MONGOMS_DISABLE_POSTINSTALL, '1')
    for (const [name, job] of Object.entries(jobs)) {
      assert.is(job.env?.MONGOMS_DISABLE_POSTINSTALL, undefined, `${name} turns the postinstall back on`)
      assert.not.ok(
        job.steps.some((step) => step.env?.MONGOMS_DISABLE_POSTINSTALL !== undefined),
        `${name} turns the postinstall back on`,
      )
    }
    // The npm test jobs download none when the suites ask, so each of their files skips in one line.
    assert.is(jobs.test?.env?.MONGOMS_RUNTIME_DOWNLOAD, 'false')
    assert.not.ok(jobs.test?.steps.some((step) => step.env !== undefined && 'MONGOMS_RUNTIME_DOWNLOAD' in step.env))
    assert.not.ok(Object.values(jobs).some((job) => job !== jobs.mongodb && job.env?.PETSTORE_REQUIRE_MONGODB !== undefined))
    assert.is(jobs.mongodb?.env?.MONGOMS_RUNTIME_DOWNLOAD, undefined)
  },
)

Workflow('builds the container image, runs it until its health check passes, then asks GET / and /healthz from outside', () => {
  const runs = (workflow().jobs.container?.steps ?? []).map((step) => step.run ?? '').join('\n')
  assert.match(runs, /^docker build --tag petstore-service \.$/m)
  assert.match(runs, /\{\{\.State\.Health\.Status\}\}' petstore\)" = healthy/)
  assert.match(runs, /curl --fail .* http:\/\/127\.0\.0\.1:8080\/$/m)
  assert.match(runs, /curl --fail .* http:\/\/127\.0\.0\.1:8080\/healthz$/m)
})

Workflow.run()
