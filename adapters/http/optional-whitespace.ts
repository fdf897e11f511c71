const SPACE = 0x20
const TAB = 0x09

const isOptionalWhitespace = (code: number): boolean => code === SPACE || code === TAB

/**
 * `text` without the spaces and tabs around it: the OWS of RFC 9110 §5.6.3 around a header
 * value or a list element. A loop from each end, in time linear in the text whatever it holds: the
 * regex `/^[ \t]+|[ \t]+$/g` tries `[ \t]+$` from every space of a run that does not end the text,
 * each try reading to the run's end, so a run of n spaces inside a value costs n²/2 steps.
 */
export const withoutOptionalWhitespace = (text: string): string => {
  let start = 0
  let end = text.length
  while (start < end && isOptionalWhitespace(text.charCodeAt(start))) start += 1
  while (end > start && isOptionalWhitespace(text.charCodeAt(end - 1))) end -= 1
  return text.slice(start, end)
}
