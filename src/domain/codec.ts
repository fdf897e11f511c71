import * as t from 'io-ts'

/**
 * A codec defined by one function that names what is wrong with a value, or returns undefined when
 * nothing is. The problem text becomes the io-ts error message, so clients read "must be a string"
 * instead of io-ts's generic "Invalid value supplied".
 */
export const ruleCodec = <A>(name: string, problemOf: (input: unknown) => string | undefined): t.Type<A, A, unknown> => {
  // The cast is sound: problemOf returning undefined is exactly the statement that input is an A.
  const is = (input: unknown): input is A => problemOf(input) === undefined
  return new t.Type<A, A, unknown>(
    name,
    is,
    (input, context) => {
      const problem = problemOf(input)
      return problem === undefined ? t.success(input as A) : t.failure(input, context, problem)
    },
    t.identity,
  )
}

/** Turns io-ts errors into "field: problem" lines; the field path comes from the decoding context. */
export const describeErrors = (errors: t.Errors): ReadonlyArray<string> => {
  const lines = errors.map((error) => {
    const path = error.context
      .map((entry) => entry.key)
      .filter((key) => key !== '' && !/^\d+$/.test(key))
      .join('.')
    const problem = error.message ?? `must be ${error.context[error.context.length - 1]?.type.name ?? 'valid'}`
    return path === '' ? problem : `${path}: ${problem}`
  })
  return [...new Set(lines)]
}
