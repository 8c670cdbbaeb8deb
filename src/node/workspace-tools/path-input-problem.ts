/**
 * Why a path the model gave cannot name a file, or `undefined`: a NUL character (no file name
 * holds one; Node would refuse it only at execution, after the host was asked about the path).
 * @param field - the input field, named in the message.
 */
export function pathInputProblem(field: string, value: string | undefined): string | undefined {
  if (value === undefined || !value.includes('\0')) return undefined;
  return `${field} ${JSON.stringify(value)} contains a NUL character, which no file name can hold; give the path without it.`;
}
