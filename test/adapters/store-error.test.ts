import * as E from 'fp-ts/Either'
import {
  type BulkWriteResult,
  Int32,
  MongoBulkWriteError,
  MongoError,
  MongoInvalidArgumentError,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoParseError,
  MongoServerError,
  MongoServerSelectionError,
  MongoWriteConcernError,
  type TopologyDescription,
} from 'mongodb'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { describeFailure, fromStored, isTransient, toStoreError } from '../../adapters/mongodb/mongo-call.js'

/** A server error as the driver builds it from a server's reply. */
const serverError = (code: number, codeName: string, errorLabels: ReadonlyArray<string> = []): MongoServerError =>
  new MongoServerError({ ok: 0, code, codeName, errmsg: `${codeName} happened`, errorLabels: [...errorLabels] })

const writeConcernError = (code: number, codeName: string): MongoWriteConcernError =>
  new MongoWriteConcernError({ ok: 1, writeConcernError: { code, codeName, errmsg: `${codeName} happened` } })

// The topology as the driver describes it when its one seed does not answer; only these fields are read.
const noServer = (): MongoServerSelectionError =>
  new MongoServerSelectionError('Server selection timed out after 2000 ms', {
    servers: new Map([['127.0.0.1:27017', { error: null }]]),
    setName: null,
    error: null,
  } as unknown as TopologyDescription)

const StoreErrors = suite('MongoDB failures: 503 when they pass, 500 when someone must act')

StoreErrors('A bulk write that fails for a reason that passes is classified by the error it wraps', () => {
  const bulk = (error: unknown): MongoBulkWriteError => new MongoBulkWriteError(error as Error, {} as BulkWriteResult)
  assert.ok(isTransient(bulk(new MongoNetworkError('connection reset'))))
  assert.ok(isTransient(bulk(noServer())))
  assert.match(describeFailure('seed', bulk(new MongoNetworkError('connection reset'))), /^seed: MongoNetworkError: connection reset/)
  // A write concern timeout is wrapped as its code; a duplicate key is a write error, and permanent.
  assert.ok(isTransient(bulk({ message: 'waiting for replication timed out', code: 64 })))
  assert.not.ok(isTransient(bulk({ message: 'E11000 duplicate key', code: 11000, writeErrors: [] })))
})

StoreErrors('no server to select passes, whatever the reason: a TLS or replicaSet setting that does not match shows in the detail', () => {
  const cause = new MongoNetworkError('ERR_SSL_WRONG_VERSION_NUMBER during the handshake')
  const handshake = new MongoServerSelectionError('Server selection timed out after 2000 ms', {
    servers: new Map([['db.example:27017', { error: cause }]]),
    setName: null,
    error: Object.assign(cause, { code: 'ERR_SSL_WRONG_VERSION_NUMBER' }),
  } as unknown as TopologyDescription)
  assert.equal(toStoreError('ping')(handshake), {
    _tag: 'StoreUnavailable',
    detail: 'ping: MongoServerSelectionError (code ERR_SSL_WRONG_VERSION_NUMBER): ERR_SSL_WRONG_VERSION_NUMBER during the handshake',
  })
  assert.ok(isTransient(noServer()))
})

StoreErrors('a failed DNS look-up or socket call, Node’s own error with a syscall, passes (503); another plain error does not', () => {
  const dns = (code: string, syscall = 'querySrv'): Error =>
    Object.assign(new Error(`${syscall} ${code} _mongodb._tcp.db.example`), { code, syscall })
  for (const code of ['ETIMEOUT', 'ECONNREFUSED', 'ESERVFAIL', 'EAI_AGAIN', 'EREFUSED', 'ECANCELLED', 'EBADRESP', 'ENOTFOUND']) {
    assert.ok(isTransient(dns(code)), code)
  }
  assert.ok(isTransient(dns('EREFUSED', 'queryTxt')))
  assert.ok(isTransient(dns('EAI_AGAIN', 'getaddrinfo')))
  assert.is(toStoreError('ping')(dns('ETIMEOUT'))._tag, 'StoreUnavailable')
  assert.not.ok(isTransient(Object.assign(new Error('x'), { code: 'ETIMEOUT' })))
})

StoreErrors('no server, a network failure or timeout, and a pool that gave no connection in time pass: StoreUnavailable', () => {
  // The driver does not export the pool's class (WaitQueueTimeoutError in cmap/errors.ts): it is known by its name.
  const waitQueue = Object.defineProperty(new MongoError('Timed out while checking out a connection from connection pool'), 'name', {
    value: 'MongoWaitQueueTimeoutError',
  })
  for (const error of [
    noServer(),
    new MongoNetworkError('connection 1 to 127.0.0.1:27017 closed'),
    new MongoNetworkTimeoutError('connection 2 to 127.0.0.1:27017 timed out'),
    waitQueue,
  ]) {
    assert.ok(isTransient(error), error.name)
  }
})

StoreErrors('a failover, a shutdown and the server-side time bounds pass: StoreUnavailable', () => {
  for (const [code, codeName] of [
    [10107, 'NotWritablePrimary'],
    [13435, 'NotPrimaryNoSecondaryOk'],
    [11602, 'InterruptedDueToReplStateChange'],
    [189, 'PrimarySteppedDown'],
    [91, 'ShutdownInProgress'],
    [11600, 'InterruptedAtShutdown'],
    [50, 'MaxTimeMSExpired'],
    [262, 'ExceededTimeLimit'],
  ] as const) {
    assert.ok(isTransient(serverError(code, codeName)), codeName)
  }
  assert.ok(isTransient(writeConcernError(64, 'WriteConcernTimeout')), 'wtimeout passed')
  assert.ok(isTransient(writeConcernError(50, 'MaxTimeMSExpired')), 'maxTimeMS passed while waiting for the write concern')
})

StoreErrors('an error the server or driver labels retryable or transient passes, whatever its code', () => {
  assert.ok(isTransient(serverError(9999, 'SomethingNew', ['RetryableWriteError'])))
  assert.ok(isTransient(serverError(112, 'WriteConflict', ['TransientTransactionError'])))
  assert.ok(isTransient(serverError(462, 'IngressRequestRateLimitExceeded', ['SystemOverloadedError', 'RetryableError'])))
})

StoreErrors('refused credentials, rights, names and write concerns do not pass: StoreFailed', () => {
  // An authentication failure at connection set-up carries HandshakeError and ResetPool, which say
  // nothing about whether it passes.
  assert.not.ok(isTransient(serverError(18, 'AuthenticationFailed', ['HandshakeError', 'ResetPool'])))
  for (const [code, codeName] of [
    [13, 'Unauthorized'],
    [73, 'InvalidNamespace'],
    [11000, 'DuplicateKey'],
    [121, 'DocumentValidationFailure'],
    [2, 'BadValue'],
    [112, 'WriteConflict'],
  ] as const) {
    assert.not.ok(isTransient(serverError(code, codeName)), codeName)
  }
  assert.not.ok(isTransient(writeConcernError(100, 'UnsatisfiableWriteConcern')))
  assert.not.ok(isTransient(writeConcernError(79, 'UnknownReplWriteConcern')))
})

StoreErrors('a driver refusing its input, and anything that is no MongoError (a bug), do not pass', () => {
  assert.not.ok(isTransient(new MongoInvalidArgumentError('Update document requires atomic operators')))
  assert.not.ok(isTransient(new MongoParseError('option tls=maybe is invalid')))
  assert.not.ok(isTransient(new TypeError("Cannot read properties of undefined (reading 'next')")))
  assert.not.ok(isTransient('a string thrown'))
})

StoreErrors('a code decoded as a BSON Int32 (promoteValues=false) is read as its number', () => {
  const error = serverError(0, 'NotWritablePrimary')
  // The driver types `code` as a number; with promoteValues=false the server's reply holds an Int32.
  error.code = new Int32(10107) as unknown as number
  assert.ok(isTransient(error))
})

StoreErrors('the detail names the operation, the class, the code and the message, for the log only', () => {
  assert.is(
    describeFailure('insert pet', serverError(13, 'Unauthorized')),
    'insert pet: MongoServerError (code 13 Unauthorized): Unauthorized happened',
  )
  assert.is(describeFailure('list pets', noServer()), 'list pets: MongoServerSelectionError: Server selection timed out after 2000 ms')
  assert.is(describeFailure('ping', 'x'.repeat(600)).length, 500)
  assert.equal(toStoreError('ping')(noServer())._tag, 'StoreUnavailable')
  assert.equal(toStoreError('ping')(serverError(18, 'AuthenticationFailed')), {
    _tag: 'StoreFailed',
    detail: 'ping: MongoServerError (code 18 AuthenticationFailed): AuthenticationFailed happened',
  })
})

StoreErrors('a stored document that is not a pet is StoreFailed: reading it again gives the same', async () => {
  assert.equal(
    await fromStored(E.left('stored pet 7 is malformed: name: must not be empty'))(),
    E.left({
      _tag: 'StoreFailed',
      detail: 'stored pet 7 is malformed: name: must not be empty',
    }),
  )
  assert.equal(await fromStored(E.right(1))(), E.right(1))
})

StoreErrors.run()
