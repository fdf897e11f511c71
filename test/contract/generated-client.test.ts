import ts from 'typescript'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadOpenApiDocument } from '../../adapters/http/openapi-document.js'
import { testTargetContract } from '../../adapters/test-target/contract.js'

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** The TypeScript a client developer gets from `openapi-typescript` for the document served with the test target on or off. */
const generatedTypes = async (testTarget: boolean): Promise<ts.SourceFile> => {
  const { default: openapiTS, astToString } = await import('openapi-typescript')
  const served = testTarget ? testTargetContract(loadOpenApiDocument()) : loadOpenApiDocument()
  const document = served as unknown as Parameters<typeof openapiTS>[0]
  return ts.createSourceFile('client.d.ts', astToString(await openapiTS(document, { silent: true })), ts.ScriptTarget.Latest)
}

const nameOf = (name: ts.PropertyName): string => (ts.isStringLiteral(name) || ts.isIdentifier(name) ? name.text : name.kind.toString())

/** The members of an interface or type literal, by name, with their types. */
const membersOf = (node: ts.Node | undefined): Map<string, ts.TypeNode | undefined> => {
  const members: readonly ts.TypeElement[] =
    node !== undefined && (ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node)) ? node.members : []
  return new Map(members.filter(ts.isPropertySignature).map((member) => [nameOf(member.name), member.type]))
}

const exportedInterface = (file: ts.SourceFile, name: string): ts.InterfaceDeclaration | undefined =>
  file.statements.filter(ts.isInterfaceDeclaration).find((statement) => statement.name.text === name)

/** `METHOD path` for every method a generated client can call: each one of `paths` whose type is not `never`. */
const callable = (file: ts.SourceFile): string[] =>
  [...membersOf(exportedInterface(file, 'paths'))].flatMap(([path, item]) =>
    [...membersOf(item)]
      .filter(([method, type]) => METHODS.includes(method) && type?.kind !== ts.SyntaxKind.NeverKeyword)
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  )

const operationNames = (file: ts.SourceFile): string[] => [...membersOf(exportedInterface(file, 'operations')).keys()]

/** The request headers a generated client may send with an operation. */
const requestHeaders = (file: ts.SourceFile, operationId: string): string[] => {
  const parameters = membersOf(membersOf(exportedInterface(file, 'operations')).get(operationId)).get('parameters')
  return [...membersOf(membersOf(parameters).get('header')).keys()]
}

const GeneratedClient = suite('A client generated with openapi-typescript from the served contract')

GeneratedClient('by default has exactly listPets, createPet, getPet and the document itself', async () => {
  const file = await generatedTypes(false)
  assert.equal(callable(file), ['GET /pets', 'POST /pets', 'GET /pets/{petId}', 'GET /openapi.json'])
  assert.equal(operationNames(file).sort(), ['createPet', 'getOpenApiDocument', 'getPet', 'listPets'])
  assert.equal(requestHeaders(file, 'createPet'), ['Idempotency-Key'])
})

GeneratedClient(
  'with the test target can also make and end sandboxes, reset its sandbox, read and advance its clock, read its request journal, count in it, read its report and script failures',
  async () => {
    const file = await generatedTypes(true)
    assert.equal(callable(file).sort(), [
      'DELETE /sandbox',
      'DELETE /sandbox/faults',
      'DELETE /sandbox/requests',
      'GET /openapi.json',
      'GET /pets',
      'GET /pets/{petId}',
      'GET /sandbox/clock',
      'GET /sandbox/faults',
      'GET /sandbox/report',
      'GET /sandbox/requests',
      'GET /sandbox/requests/count',
      'POST /pets',
      'POST /sandbox/clock',
      'POST /sandbox/reset',
      'POST /sandboxes',
      'PUT /sandbox/faults',
    ])
    for (const name of [
      'createSandbox',
      'deleteSandbox',
      'resetSandbox',
      'getSandboxClock',
      'advanceSandboxClock',
      'listSandboxRequests',
      'countSandboxRequests',
      'getSandboxReport',
      'setFaultScript',
      'getFaultScript',
      'clearFaultScript',
    ])
      assert.ok(operationNames(file).includes(name), name)
  },
)

GeneratedClient('with the test target may send Prefer with each pet operation', async () => {
  const file = await generatedTypes(true)
  for (const operation of ['listPets', 'createPet', 'getPet']) assert.ok(requestHeaders(file, operation).includes('Prefer'), operation)
  assert.not.ok(requestHeaders(file, 'getOpenApiDocument').includes('Prefer'))
})

GeneratedClient.run()
