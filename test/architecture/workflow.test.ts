import { validateWorkflow } from '@action-validator/core'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { load } from 'js-yaml'
import { PACKAGE_ROOT as ROOT } from '../../adapters/http/package-root.js'

const WORKFLOW = resolve(ROOT, '.github/workflows/ci.yml')

const Workflow = suite('The GitHub Actions workflow')

Workflow('is a valid workflow, by the schema action-validator checks it against', () => {
  const state = validateWorkflow(readFileSync(WORKFLOW, 'utf8'))
  assert.equal(state.errors, [], JSON.stringify(state.errors, null, 2))
})

Workflow('runs npm test on Node 20, 22 and 24, and the MongoDB suites on MongoDB 7 and 8 where skipping fails', () => {
  const workflow = load(readFileSync(WORKFLOW, 'utf8')) as {
    jobs: Record<
      string,
      {
        strategy: { matrix: Record<string, string[]> }
        env?: Record<string, string>
        steps: Array<{ uses?: string; run?: string; env?: Record<string, string> }>
      }
    >
  }
  assert.equal(workflow.jobs.test?.strategy.matrix.node, ['20', '22', '24'])
  assert.ok(workflow.jobs.test?.steps.some((step) => step.run === 'npm test'))
  const mongodb = workflow.jobs.mongodb
  assert.equal(
    mongodb?.strategy.matrix.mongodb?.map((version) => version.split('.')[0]),
    ['7', '8'],
  )
  // Exact releases: mongodb-memory-server downloads the archive named by the version.
  assert.ok(mongodb?.strategy.matrix.mongodb?.every((version) => /^\d+\.\d+\.\d+$/.test(version)))
  assert.is(mongodb?.env?.MONGOMS_VERSION, '${{ matrix.mongodb }}')
  // The suites start their own mongod (a standalone, and three members for the replica set): no
  // server action, whose Docker client today's runners refuse, and no URI that would bypass it.
  assert.not.ok(mongodb?.steps.some((step) => step.uses?.includes('mongodb-github-action')))
  const suites = mongodb?.steps.find((step) => step.env?.PETSTORE_REQUIRE_MONGODB === '1')
  assert.match(suites?.run ?? '', 'mongo-(pet-repository|seed|store|replica-set)')
  assert.is(suites?.env?.PETSTORE_TEST_MONGODB_URI, undefined)
  assert.is(suites?.env?.PETSTORE_TEST_MONGODB_REPLSET_URI, undefined)
})

Workflow('builds the container image, runs it until its health check passes, then asks GET / and /healthz from outside', () => {
  const workflow = load(readFileSync(WORKFLOW, 'utf8')) as { jobs: Record<string, { steps: Array<{ run?: string }> }> }
  const runs = (workflow.jobs.container?.steps ?? []).map((step) => step.run ?? '').join('\n')
  assert.match(runs, /^docker build --tag petstore-service \.$/m)
  assert.match(runs, /\{\{\.State\.Health\.Status\}\}' petstore\)" = healthy/)
  assert.match(runs, /curl --fail .* http:\/\/127\.0\.0\.1:8080\/$/m)
  assert.match(runs, /curl --fail .* http:\/\/127\.0\.0\.1:8080\/healthz$/m)
})

Workflow.run()
